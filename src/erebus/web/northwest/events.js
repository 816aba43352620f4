// Northwest's events in the player's language, and what each names on the board.

import { APP } from "../core/state.js";
import { t, hasKey } from "../core/i18n.js";
import { seatName } from "../core/seats.js";
import { ROMAN } from "./content.js";
import { UI } from "./ui.js";
import { placeAt, placeOfTo, zoneOf } from "./places.js";

export const LOG_SKIP = new Set(["CrewSpent", "DisplayRefilled"]);

// The server may send events as {version, type, text} only: recover the fields we need from the text.
export function normEvent(e) {
  if (e._n) return e;
  const out = { ...e, _n: true };
  const txt = e.text || "";
  const seatByName = (name) => {
    for (let i = 0; i < (APP.view ? APP.view.players : 0); i++) if (seatName(i) === name) return i;
    const m = /(?:Player|Bot) (\d+)/.exec(name); return m ? Number(m[1]) - 1 : null;
  };
  let m;
  if (e.type === "ScoreChanged" && e.delta == null && (m = /^(.*) scores ([+-]?\d+) \((.*)\)\.$/.exec(txt))) {
    out.seat = seatByName(m[1]); out.delta = Number(m[2]); out.reason = m[3];
  }
  if ((e.type === "RoundStarted" || e.type === "RoundEnded") && e.round == null && (m = /Round (\d+)/.exec(txt))) out.round = Number(m[1]);
  return out;
}
export function eventText(e) {
  if (e.text && e.seat === undefined && e.round === undefined && e.scores === undefined && e.tile === undefined && e.sun === undefined) return e.text;
  const p = { ...e };
  if (e.seat != null) p.player = seatName(e.seat);
  if (e.vehicle) p.vehicle = t(e.vehicle);
  if (e.token) p.token = t(`tok_${e.token}`);
  if (e.source) p.source = t(e.source === "display" ? "display" : "pile");
  if (e.type === "ScoreChanged") { p.delta = (e.delta > 0 ? "+" : "") + e.delta; p.reason = reasonText(e.reason); }
  if (e.type === "VehicleMoved") p.to = placeOfTo(e.to);
  if (e.type === "SledDeployed") p.at = placeOfTo(e.at);
  if (e.x != null && e.y != null) { p.place = placeAt(e.x, e.y); p.zone = zoneOf(e.x); }
  if (e.scores) p.scores = e.scores.join(", ");
  if (e.sun) p.sun = ROMAN[e.sun] || e.sun;
  // Our keys that speak in place names win over the older ones with coordinates.
  const placed = `evp_${e.type}`;
  const key = hasKey(placed) && e.x != null ? placed : `ev_${e.type}`;
  if (hasKey(key)) {
    const out = t(key, p);
    if (!/\{\w+\}/.test(out)) return out;
  }
  return e.text || e.type;
}
function reasonText(r) {
  let m;
  if ((m = /^(\w+) ×(\d)$/.exec(r))) return `${t(`tok_${m[1]}`)} ×${m[2]}`;
  if ((m = /^island of (\d+) tiles$/.exec(r))) return t("r_island", { n: m[1] });
  if ((m = /^(\w+) majority$/.exec(r))) return t("r_majority", { tok: t(`tok_${m[1]}`) });
  if ((m = /^(\d+) sets$/.exec(r))) return t("r_sets", { n: m[1] });
  if ((m = /^(ship|sled) abandoned with (\d+) crew$/.exec(r))) return t("r_abandoned", { veh: t(m[1]), n: m[2] });
  if (r === "northwest") return t("loc_northwest");
  if (r === "greenland") return t("loc_greenland");
  return r;
}
export function reasonCategory(r) {
  if (/^\w+ ×\d$/.test(r)) return "cat_tokens";
  if (/^island/.test(r)) return "cat_islands";
  if (r === "northwest" || r === "greenland") return "cat_arrows";
  if (/majority$/.test(r)) return "cat_majorities";
  if (/sets$/.test(r)) return "cat_sets";
  if (/abandoned/.test(r)) return "cat_abandon";
  return "cat_other";
}
// What a log line refers to on the board: squares, an arrow, a piece.
export function eventRefs(e) {
  const D = UI.D; if (!D) return null;
  const tileSqs = (id) => D.tileSquares.get(id) || [];
  const toRefs = (to) => {
    if (to === "greenland" || to === "northwest") return { arrow: to };
    const m = /^(\d+),(\d+)$/.exec(String(to || ""));
    if (!m) return {};
    const id = D.sqTile.get(`${m[1]},${m[2]}`);
    return { squares: id != null ? D.tileSquares.get(id) : [[Number(m[1]), Number(m[2])]] };
  };
  switch (e.type) {
    case "TilePlaced": case "HoleFilled": { const q = tileSqs(e.tile); return { squares: q.length ? q : [[e.x, e.y]] }; }
    case "TokenPlaced": case "TokenTaken": return { squares: [[e.x, e.y]], piece: e.seat != null ? { seat: e.seat } : null };
    case "VehicleMoved": return { ...toRefs(e.to), piece: { seat: e.seat, kind: e.vehicle } };
    case "SledDeployed": return { ...toRefs(e.at), piece: { seat: e.seat, kind: "sled" } };
    case "ReachedNorthwest": return { arrow: "northwest", piece: { seat: e.seat } };
    case "ReturnedToGreenland": return { arrow: "greenland", piece: { seat: e.seat } };
    case "SledLost": case "SledRecalled": case "CrewTransferred": return { piece: { seat: e.seat } };
    default: return null;
  }
}
