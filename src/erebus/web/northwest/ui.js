// Northwest's interface state (what the player is choosing) and the questions panels
// ask of the payload: legal actions, their costs, the seats' records.

import { APP } from "../core/state.js";
import { tileIdx } from "./content.js";

export const UI = {
  sel: null,          // {mode:"place", tileIdx, rot, side} | {mode:"move", vehicle}
  vehicle: "ship",    // acting vehicle for draw/place/explore/discover
  hover: null,        // {x,y}
  placeIdx: 0,        // keyboard cycling among legal placements
  D: null,            // the board as drawing needs it (terrain.js derive)
  logHl: null,        // {squares:[[x,y]], arrow, piece:{seat,kind}} while a log line is hovered
  prevPos: new Map(), // "seat-kind" -> {x,y,loc}: where each piece was drawn, for the glide
  pendingGlides: [],
  openReserves: new Set(),
  tipTimer: null,
};

export function seatOf(i) { return APP.view.seats[i]; }
export function myReserve() { return APP.seat == null ? [] : seatOf(APP.seat).reserve.map(tileIdx); }
export function legalOf(type) { return APP.legal.filter((a) => a.type === type); }
export function vehicleFor(type, pred = () => true) {
  const acts = APP.legal.filter((a) => a.type === type && pred(a));
  if (acts.some((a) => a.vehicle === UI.vehicle)) return UI.vehicle;
  return acts.length ? acts[0].vehicle : UI.vehicle;
}
// What an action of ``kind`` costs the seat to move now (the wire view's costs).
export function costNow(kind) { const c = APP.view.costs[kind]; return c ? c.now : 0; }
export function costBase(kind) { const c = APP.view.costs[kind]; return c ? c.base : 0; }
// What this legal action costs: the server's ``legal_costs``, else by its kind.
export function actionCost(a) {
  const i = APP.legal.indexOf(a);
  return i >= 0 && APP.costs[i] != null ? APP.costs[i] : costNow(a.type);
}
// A vehicle's place as a key: a tile id, "greenland"/"northwest", or null (off the board).
export function posKey(p) {
  if (p && typeof p === "object") return p.tile;
  return p === "greenland" || p === "northwest" ? p : null;
}
