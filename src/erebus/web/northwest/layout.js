// Where things sit around the board: the frame's margin, the arrows beside it, and
// whether the screen is a phone's (larger labels hang from the frame's edge).

import { UI } from "./ui.js";
import { arrowSquare } from "./content.js";

export const CELL_PAD = 1.5;

const PHONE_MQ = typeof matchMedia === "function" ? matchMedia("(max-width: 600px)") : null;
export function isPhone() { return !!(PHONE_MQ && PHONE_MQ.matches); }
// Call ``fn`` when the screen turns into a phone's or back.
export function onPhoneChange(fn) { if (PHONE_MQ && PHONE_MQ.addEventListener) PHONE_MQ.addEventListener("change", fn); }

export function arrowGeom(which) {
  const { W } = UI.D;
  const a = arrowSquare(which);
  if (which === "greenland") return { x: W + 0.08, y: a[1], dir: 1 };
  return { x: -0.08, y: a[1], dir: -1 };
}
