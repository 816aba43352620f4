// Names of places from the board data: a printed square's id "board:cairn-east" reads
// "cairn (east)", a tile "tile L17 (×2)" (its zone); never raw ids or coordinates.

import { APP } from "../core/state.js";
import { t, tr } from "../core/i18n.js";
import { UI } from "./ui.js";

export function zoneOf(x) { return (APP.view && APP.view.board.zones[x]) ?? 1; }
function printedName(id) {
  const [base, ...quals] = String(id).replace(/^board:/, "").split("-");
  const name = tr(`place_${base}`, base);
  return quals.length ? `${name} (${quals.map((q) => tr(`dir_${q}`, q)).join(", ")})` : name;
}
export function tileLabel(id) {
  if (String(id).startsWith("board:")) return printedName(id);
  const sq = UI.D && UI.D.tileSquares.get(id);
  return sq ? t("place_tile_zone", { tile: id, zone: zoneOf(sq[0][0]) }) : id;
}
export function placeAt(x, y) {
  const id = UI.D && UI.D.sqTile.get(`${x},${y}`);
  if (id == null) return t("place_empty", { zone: zoneOf(x) });
  return tileLabel(id);
}
// An event's destination: "greenland", "northwest" or "x,y".
export function placeOfTo(to) {
  if (to === "greenland") return t("loc_greenland");
  if (to === "northwest") return t("loc_northwest");
  const m = /^(\d+),(\d+)$/.exec(String(to));
  return m ? placeAt(Number(m[1]), Number(m[2])) : String(to);
}
// A vehicle's position in the wire view.
export function locText(p) {
  if (p === "greenland") return t("loc_greenland");
  if (p === "northwest") return t("loc_northwest");
  if (p === "lost") return t("loc_lost");
  if (p == null) return t("loc_board");
  return tileLabel(p.tile);
}
