// Choosing a move: a tile to place (turned, flipped, moved over the legal spots) or a
// vehicle to move.

import { APP } from "../core/state.js";
import { t } from "../core/i18n.js";
import { sendAction } from "../core/connection.js";
import { renderGame } from "../core/table.js";
import { face, isLarge, tileName } from "./content.js";
import { UI, actionCost, costNow, seatOf, vehicleFor } from "./ui.js";

// Returning to Greenland ends your expedition (you sit out every later round): ask first.
export function sendMove(a) {
  const ret = APP.seat != null ? seatOf(APP.seat).returned : 0;
  if (a.to === "greenland" && !ret && !confirm(t("confirm_return", { veh: t(a.vehicle) }))) return;
  sendAction(a);
}
export function selectTile(ti) {
  if (UI.sel && UI.sel.mode === "place" && UI.sel.tileIdx === ti) { UI.sel = null; renderGame(); return; }
  // start with the first orientation that has a legal position
  const id = tileName(ti);
  const veh = vehicleFor("place", (a) => a.tile === id);
  UI.vehicle = veh;
  const first = APP.legal.find((a) => a.type === "place" && a.tile === id && a.vehicle === veh);
  UI.sel = { mode: "place", tileIdx: ti, rot: first ? first.rotation : 0, side: first ? first.side || "a" : "a" };
  UI.placeIdx = 0; UI.hover = null;
  renderGame();
}
export function rotateSel(d) { if (!UI.sel || UI.sel.mode !== "place") return; UI.sel.rot = (UI.sel.rot + d + 4) % 4; UI.placeIdx = 0; renderGame(); }
export function flipSel() {
  if (!UI.sel || UI.sel.mode !== "place" || !isLarge(UI.sel.tileIdx)) return;
  UI.sel.side = UI.sel.side === "a" ? "b" : "a"; UI.placeIdx = 0; renderGame();
}
export function placeCurrent() {
  const sel = UI.sel; if (!sel || sel.mode !== "place") return;
  const p = currentPlacement(placementsFor(sel), face(sel.tileIdx, sel.side, sel.rot));
  if (p) sendAction(p);
}
export function cancelSel() { UI.sel = null; UI.hover = null; renderGame(); }

export function placementsFor(sel) {
  if (!sel) return [];
  const id = tileName(sel.tileIdx);
  return APP.legal.filter((a) => a.type === "place" && a.tile === id && a.rotation === sel.rot && (a.side || "a") === sel.side);
}
// What placing the selected tile costs (its first legal position; they all cost the same).
export function placeCost(sel) {
  const opts = placementsFor(sel);
  return opts.length ? actionCost(opts[0]) : costNow("place");
}

// The legal placement shown: the one under the pointer, else the one the keys cycled to.
export function currentPlacement(opts, o) {
  if (!opts.length) return null;
  const hv = UI.hover;
  if (hv) {
    const inside = opts.filter((a) => hv.x >= a.x && hv.x < a.x + o.w && hv.y >= a.y && hv.y < a.y + o.h);
    if (inside.length) return inside.find((a) => a.x === hv.x && a.y === hv.y) || inside[0];
    return null;
  }
  return opts[((UI.placeIdx % opts.length) + opts.length) % opts.length];
}
