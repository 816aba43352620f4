// Who stands on which space this round: the engine keeps only how many slots are
// taken, so the seats and their crews come from the log (the CrewPlaced events since
// the round's last RoundStarted, docs/iceandsnow-wire.md "Who stands where").

import { APP } from "../core/state.js";
import { h } from "../core/dom.js";
import { t } from "../core/i18n.js";
import { COLORS, seatName } from "../core/seats.js";
import { CREW_KINDS } from "./legal.js";
import { crewText } from "./words.js";

// A crew as the events carry it (a list in CREW_KINDS order, or an object) as an object.
export function crewObj(c) {
  if (Array.isArray(c)) return Object.fromEntries(CREW_KINDS.map((k, i) => [k, c[i] || 0]));
  return c || {};
}

// space id -> [{seat, crew}] in the order placed.
export function occupantsBySpace() {
  const out = new Map();
  for (const e of APP.rawEvents || []) {
    if (e.type === "RoundStarted" || e.type === "RoundEnded") out.clear();
    else if (e.type === "CrewPlaced") {
      if (!out.has(e.space)) out.set(e.space, []);
      out.get(e.space).push({ seat: e.seat, crew: crewObj(e.crew) });
    }
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
