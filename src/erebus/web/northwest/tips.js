// The board's tooltips: what a square or an arrow is, what lies there, and — for a
// spot the selection does not light up — which rule forbids it (POST /check).

import { APP, isMyTurn } from "../core/state.js";
import { h, $ } from "../core/dom.js";
import { t } from "../core/i18n.js";
import { seatName } from "../core/seats.js";
import { checkAction } from "../core/connection.js";
import { face, tileName } from "./content.js";
import { UI, costBase, posKey, seatOf } from "./ui.js";
import { placeAt, zoneOf } from "./places.js";
import { arrowGeom } from "./layout.js";
import { placementsFor } from "./selection.js";


// What a token is worth and how it is taken (rules §7.F, §7.G), for tooltips.
export function tokRule(kind, zone) {
  const tok = t(`tok_${kind}`);
  const rule = APP.view && APP.view.token_rules[kind];
  if (rule) {
    const act = rule.taken_by, mult = rule.points_per_zone;
    const base = t(`tokrule_${act}`, { tok, cost: costBase(act), mult });
    return zone ? `${base} ${t("tokrule_here", { pts: mult * zone, zone })}` : base;
  }
  if (kind === "cartography") return t("tokrule_cartography", { tok });
  return tok;
}


// The action a spot of the board would be in the current selection (or null).
function spotAction(spot) {
  const sel = UI.sel; if (!sel || !isMyTurn()) return null;
  if (sel.mode === "place" && spot.sq) {
    return { type: "place", vehicle: UI.vehicle, tile: tileName(sel.tileIdx), x: spot.sq[0], y: spot.sq[1], rotation: sel.rot, side: sel.side };
  }
  if (sel.mode === "move") return { type: "move", vehicle: sel.vehicle, to: spot.arrow || spot.sq };
  return null;
}
function spotIsLit(spot) {
  const sel = UI.sel; if (!sel) return false;
  if (sel.mode === "move") {
    return APP.legal.some((a) => a.type === "move" && a.vehicle === sel.vehicle && (spot.arrow ? a.to === spot.arrow
      : Array.isArray(a.to) && UI.D.sqTile.get(`${a.to[0]},${a.to[1]}`) === UI.D.sqTile.get(spot.sq.join(",")) && UI.D.sqTile.has(spot.sq.join(","))));
  }
  const o = face(sel.tileIdx, sel.side, sel.rot);
  return !!spot.sq && placementsFor(sel).some((a) => spot.sq[0] >= a.x && spot.sq[0] < a.x + o.w && spot.sq[1] >= a.y && spot.sq[1] < a.y + o.h);
}
function tipEl() {
  let el = $("#tip");
  if (!el) { el = h("div", { id: "tip", role: "tooltip" }); document.body.append(el); }
  return el;
}
export function hideTip() { const el = $("#tip"); if (el) { el.classList.remove("show"); el.dataset.spot = ""; } clearTimeout(UI.tipTimer); }
function showTip(lines, x, y, spotKey) {
  const el = tipEl();
  el.replaceChildren(...lines.map((l) => (l instanceof Node ? l : h("div", {}, l))));
  el.dataset.spot = spotKey;
  el.classList.add("show");
  const w = el.offsetWidth, hh = el.offsetHeight;
  el.style.left = `${Math.max(4, Math.min(x + 14, innerWidth - w - 4))}px`;
  el.style.top = `${Math.max(4, y + 16 + hh > innerHeight ? y - hh - 10 : y + 16)}px`;
}
// Which spot of the board is under the pointer: a square, or an arrow.
function spotAt(svg, ev) {
  const m = svg.getScreenCTM(); if (!m) return null;
  const pt = new DOMPoint(ev.clientX, ev.clientY).matrixTransform(m.inverse());
  const { W, H } = UI.D;
  if (pt.x >= 0 && pt.x < W && pt.y >= 0 && pt.y < H) return { sq: [Math.floor(pt.x), Math.floor(pt.y)] };
  for (const which of ["greenland", "northwest"]) {
    const { x, y, dir } = arrowGeom(which);
    const x0 = dir > 0 ? x : x - 1.3;
    if (pt.x >= x0 && pt.x <= x0 + 1.3 && pt.y >= y - 0.12 && pt.y <= y + 1.12) return { arrow: which };
  }
  return null;
}
export function boardTip(svg, ev) {
  const spot = spotAt(svg, ev);
  if (!spot) { hideTip(); return; }
  const key = spot.arrow || spot.sq.join(",");
  const lines = [];
  const v = APP.view, D = UI.D;
  if (spot.arrow) {
    lines.push(h("strong", {}, t(spot.arrow === "greenland" ? "loc_greenland" : "loc_northwest")));
    lines.push(t(spot.arrow === "greenland" ? "arrow_rule_gl" : "arrow_rule_nw"));
  } else {
    const [x, y] = spot.sq;
    lines.push(h("strong", {}, placeAt(x, y)));
    lines.push(t("zone_rule", { zone: zoneOf(x) }));
    if (y < D.frozen) lines.push(t("frozen_here"));
    const kind = D.tokens.get(`${x},${y}`);
    if (kind) lines.push(tokRule(kind, zoneOf(x)));
  }
  const ti = spot.arrow ? spot.arrow : D.sqTile.get(spot.sq.join(","));
  if (ti != null) {
    const here = [];
    for (let i = 0; i < v.players; i++) for (const kind of ["ship", "sled"]) if (posKey(seatOf(i)[kind]) === ti) here.push(`${seatName(i)}: ${t(kind)}`);
    if (here.length) lines.push(here.join(" · "));
  }
  const act = spotAction(spot);
  if (act && spotIsLit(spot)) lines.push(h("div", { class: "ok" }, t(UI.sel.mode === "move" ? "tip_can_move" : "tip_can_place")));
  else if (act) {
    const why = h("div", { class: "warn-text why", "data-testid": "tip-why" }, t("tip_checking"));
    lines.push(why);
    clearTimeout(UI.tipTimer);
    UI.tipTimer = setTimeout(() => {
      checkAction(act).then((r) => {
        const el = $("#tip");
        if (!el || el.dataset.spot !== key || !why.isConnected) return;
        why.textContent = r ? (r.legal ? t("tip_can_move") : t("tip_not_here", { why: r.reason })) : t("tip_unknown");
      });
    }, 180);
  }
  showTip(lines, ev.clientX, ev.clientY, key);
}
