// Who stands on which space this round: each space of the wire view carries its
// ``stands`` (the engine's State.stands, in the order placed; docs/iceandsnow-wire.md
// "Who stands where"), so a reload mid-round still shows every crew.

import { APP } from "../core/state.js";
import { h } from "../core/dom.js";
import { t } from "../core/i18n.js";
import { COLORS, seatName } from "../core/seats.js";
import { CREW_KINDS } from "./legal.js";
import { crewText } from "./words.js";

// space id -> [{seat, crew}] in the order placed.
export function occupantsBySpace() {
  const b = APP.view.board;
  const out = new Map();
  for (const sp of [...(b.spaces || []), ...(b.extra_spaces || [])]) {
    if (sp.stands && sp.stands.length) out.set(sp.id, sp.stands);
  }
  return out;
}

const GLYPH = { captain: "Ca", carpenter: "Cp", scientist: "Sc", sailors: "s", inuit: "i" };
// A seat's crew on a slot: its colour, a pawn per crew member (officers lettered).
export function pawnRow(o) {
  const pawns = [];
  for (const k of CREW_KINDS) for (let i = 0; i < (o.crew[k] || 0); i++) pawns.push(h("span", { class: `pawn p-${k}`, "aria-hidden": "true" }, GLYPH[k]));
  return h("span", { class: "slot filled", style: `--pc:${COLORS[o.seat] || "#999"}`, "data-seat": String(o.seat),
    title: t("iact_stands_here", { name: seatName(o.seat), crew: crewText(o.crew) }) }, pawns);
}
