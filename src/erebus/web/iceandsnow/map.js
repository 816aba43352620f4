// The map of Nunavut as SVG, in the manner of the printed map board: the sea, the
// coasts with their fringe of ice, the sections placed so far (with their side) and
// the uncharted ones under fog, the regions and the cartography tokens on those
// mapped, the route the fleet sailed (a dynamite stick on each anchor it broke the
// ice to), the fleet, the one-way routes onward with their dynamite, the anchors
// ahead, final-round (blue) and final anchors, cabins and shelters in seat colours.

import { APP } from "../core/state.js";
import { s, r3, bindActivate } from "../core/dom.js";
import { t } from "../core/i18n.js";
import { COLORS, seatName } from "../core/seats.js";
import { sendAction } from "../core/connection.js";
import { MAP, anchorOf, anchorName, placedGeometry, project, regionName, sectionName } from "./mapdata.js";
import { chartableRegion } from "./legends.js";
import { UI } from "./ui.js";
import { creatureTokenLayer } from "./myths.js";
import { inukLayer } from "./solo2.js";

// A closed, smooth outline through the points (Catmull-Rom as cubic Béziers).
function smooth(pts) {
  const n = pts.length, f = (p) => `${r3(p[0])} ${r3(p[1])}`;
  let d = `M${f(pts[0])}`;
  for (let i = 0; i < n; i++) {
    const p0 = pts[(i - 1 + n) % n], p1 = pts[i], p2 = pts[(i + 1) % n], p3 = pts[(i + 2) % n];
    const c1 = [p1[0] + (p2[0] - p0[0]) / 6, p1[1] + (p2[1] - p0[1]) / 6];
    const c2 = [p2[0] - (p3[0] - p1[0]) / 6, p2[1] - (p3[1] - p1[1]) / 6];
    d += `C${f(c1)} ${f(c2)} ${f(p2)}`;
  }
  return d + "Z";
}
const poly = (pts) => pts.map((p) => `${r3(p[0])},${r3(p[1])}`).join(" ");

function defs() {
  return s("defs", {},
    s("linearGradient", { id: "is-sea", x1: 0, y1: 0, x2: 0, y2: 1 },
      s("stop", { offset: "0%", "stop-color": "#2d5f80" }), s("stop", { offset: "100%", "stop-color": "#3f7aa0" })),
    s("pattern", { id: "is-fog", width: 0.5, height: 0.5, patternUnits: "userSpaceOnUse", patternTransform: "rotate(40)" },
      s("rect", { width: 0.5, height: 0.5, fill: "#cfd6d9" }),
      s("line", { x1: 0, y1: 0, x2: 0, y2: 0.5, stroke: "#b8c2c7", "stroke-width": 0.08 })),
    s("pattern", { id: "is-floe", width: 1.6, height: 1.2, patternUnits: "userSpaceOnUse" },
      s("path", { d: "M0.2 0.3 l0.3 -0.08 l0.16 0.14 l-0.2 0.12z M1.0 0.85 l0.26 0.04 l-0.06 0.15 l-0.24 -0.04z", fill: "rgba(235,245,252,0.16)" })),
    s("marker", { id: "is-head", viewBox: "0 0 10 10", refX: 7, refY: 5, markerUnits: "userSpaceOnUse", markerWidth: r3(0.26 * Z), markerHeight: r3(0.26 * Z), orient: "auto" },
      s("path", { d: "M0 0 L10 5 L0 10 z", fill: "#f5e7b0" })),
    s("marker", { id: "is-head-faint", viewBox: "0 0 10 10", refX: 8, refY: 5, markerUnits: "userSpaceOnUse", markerWidth: r3(0.15 * Z), markerHeight: r3(0.15 * Z), orient: "auto" },
      s("path", { d: "M0 0 L10 5 L0 10 z", fill: "rgba(240,236,220,0.75)" })));
}

// Meridians every 10° and parallels every 2°, faint, as on a chart.
function graticule(box) {
  const g = s("g", { class: "is-grat", "aria-hidden": "true" });
  for (let lon = -170; lon <= -50; lon += 10) {
    const pts = []; for (let lat = 64; lat <= 84; lat += 1) pts.push(project(lon, lat));
    g.append(s("polyline", { points: poly(pts) }));
  }
  for (let lat = 66; lat <= 82; lat += 2) {
    const pts = []; for (let lon = -175; lon <= -45; lon += 2.5) pts.push(project(lon, lat));
    g.append(s("polyline", { points: poly(pts) }));
    // the latitude where the parallel leaves the view's east edge
    let best = null;
    for (const p of pts) if (p[0] <= box.x1 && (!best || p[0] > best[0])) best = p;
    if (best && best[1] > box.y0 + 0.3 * Z && best[1] < box.y1 - 0.2 * Z && best[0] > box.x1 - 1.2 * Z) g.append(at(box.x1 - 0.08 * Z, best[1] - 0.04 * Z, "is-grat-at", s("text", { x: 0, y: 0, class: "is-grat-lbl" }, `${lat}°N`)));
  }
  return g;
}

function compassRose(x, y, k) {
  const g = s("g", { class: "is-rose", transform: `translate(${x} ${y}) scale(${k})`, "aria-hidden": "true" });
  g.append(s("circle", { r: 1, class: "is-rose-ring" }));
  g.append(s("path", { d: "M0 -1.35 L0.22 -0.22 L1.35 0 L0.22 0.22 L0 1.35 L-0.22 0.22 L-1.35 0 L-0.22 -0.22Z", class: "is-rose-star" }));
  g.append(s("path", { d: "M0 -1.35 L0.22 -0.22 L0 0 Z M1.35 0 L0.22 0.22 L0 0Z M0 1.35 L-0.22 0.22 L0 0Z M-1.35 0 L-0.22 -0.22 L0 0Z", class: "is-rose-dark" }));
  g.append(s("text", { x: 0, y: -1.5, class: "is-rose-n" }, "N"));
  return g;
}

// Where the fleet started: the start anchor of a placed side with a route to the first anchor sailed to.
function startAnchor(m, geo) {
  const first = m.sailed[0] || m.fleet;
  const starts = geo.anchorIds.filter((id) => anchorOf(id) && anchorOf(id).start);
  if (!m.sailed.length) return m.fleet;
  return starts.find((id) => geo.routes.some((r) => r.from === id && r.to === first)) || starts[0] || null;
}

function dynamiteStick(x, y, k = 1, cls = "") {
  return s("g", { class: `is-dyn ${cls}`, transform: `translate(${r3(x)} ${r3(y)}) rotate(-28) scale(${k})` },
    s("rect", { x: -0.07, y: -0.2, width: 0.14, height: 0.36, rx: 0.03 }),
    s("path", { d: "M0 -0.2 q0.05 -0.1 0.12 -0.12", class: "is-fuse" }));
}
function cabinShape(x, y, color, k = 1) {
  return s("path", { transform: `translate(${r3(x)} ${r3(y)}) scale(${k})`, d: "M-0.15 0.12 V-0.04 L0 -0.17 L0.15 -0.04 V0.12 Z", fill: color, class: "is-cabin" });
}
function shelterShape(x, y, color, k = 1) {
  return s("path", { transform: `translate(${r3(x)} ${r3(y)}) scale(${k})`, d: "M-0.17 0.1 A0.17 0.19 0 0 1 0.17 0.1 Z M-0.05 0.1 A0.05 0.06 0 0 1 0.05 0.1", fill: color, class: "is-shelter", "fill-rule": "evenodd" });
}
function shipShape(x, y) {
  return s("g", { transform: `translate(${r3(x)} ${r3(y)}) scale(0.4)`, class: "is-ship" },
    s("path", { d: "M-0.5 0.02 L0.5 0.02 L0.36 0.26 L-0.38 0.26 Z", class: "is-hull" }),
    s("line", { x1: -0.12, y1: 0.02, x2: -0.12, y2: -0.55, class: "is-mast" }),
    s("line", { x1: 0.16, y1: 0.02, x2: 0.16, y2: -0.45, class: "is-mast" }),
    s("path", { d: "M-0.1 -0.5 Q0.08 -0.32 -0.1 -0.1 Z M0.18 -0.42 Q0.34 -0.28 0.18 -0.1 Z", class: "is-sail" }),
    s("rect", { x: 0.25, y: -0.16, width: 0.1, height: 0.18, class: "is-funnel" }));
}

// The part of the chart to show: the anchors of the placed sides, a strip of the next
// section to the west, widened to the board's proportions within the chart.
const ASPECT = 2.0;
function viewOf(M, geo) {
  const box = M.box;
  const as = geo.anchorIds.map(anchorOf).filter(Boolean);
  if (!as.length) return { ...box };
  let x0 = Math.min(...as.map((a) => a.px)) - 2.6, x1 = Math.max(...as.map((a) => a.px)) + 1.2;
  let y0 = Math.min(...as.map((a) => a.py)) - 1.6, y1 = Math.max(...as.map((a) => a.py)) + 1.25;
  let w = x1 - x0, hh = y1 - y0;
  if (w / hh < ASPECT) { const nw = hh * ASPECT; x0 -= (nw - w) * 0.3; x1 += (nw - w) * 0.7; w = nw; } else { const nh = w / ASPECT; y0 -= (nh - hh) / 2; y1 += (nh - hh) / 2; hh = nh; }
  // keep within the chart, shifting rather than shrinking
  const fit = (a0, a1, b0, b1) => { const L = a1 - a0; if (L >= b1 - b0) return [b0 - (L - (b1 - b0)) / 2, b1 + (L - (b1 - b0)) / 2]; if (a0 < b0) return [b0, b0 + L]; if (a1 > b1) return [b1 - L, b1]; return [a0, a1]; };
  // east of the chart lie Baffin Bay and Greenland: the view may reach there rather than into the fog
  [x0, x1] = fit(x0, x1, box.x0, box.x1 + 4); [y0, y1] = fit(y0, y1, box.y0, box.y1);
  return { x0, x1, y0, y1 };
}
// Boxes already taken by marks and labels ({x0, y0, x1, y1} in map units), so that a
// label takes the first of its candidate places that is free.
let OCC = [];
const free = (b) => !OCC.some((o) => b.x0 < o.x1 && b.x1 > o.x0 && b.y0 < o.y1 && b.y1 > o.y0);
// A label of ``len`` characters (width ``cw`` per character, height ``ch``, in mark units)
// near (x, y): the first free candidate [dx, dy, text-anchor], else the first.
function placeLabel(x, y, len, cw, ch, cands) {
  const w = len * cw * Z, hh = ch * Z;
  const boxOf = ([dx, dy, anchor]) => {
    const bx = x + dx * Z, by = y + dy * Z;
    const x0 = anchor === "start" ? bx : anchor === "end" ? bx - w : bx - w / 2;
    return { x0, x1: x0 + w, y0: by - hh * 0.82, y1: by + hh * 0.22 };
  };
  // the first free place, else the one overlapping least
  const overlap = (b) => OCC.reduce((n, o) => n + Math.max(0, Math.min(b.x1, o.x1) - Math.max(b.x0, o.x0)) * Math.max(0, Math.min(b.y1, o.y1) - Math.max(b.y0, o.y0)), 0);
  let pick = cands.find((c) => free(boxOf(c)));
  if (!pick) pick = cands.reduce((best, c) => (overlap(boxOf(c)) < overlap(boxOf(best)) ? c : best), cands[0]);
  OCC.push(boxOf(pick));
  return pick;
}

// Marks and labels keep about the same size on the screen whatever the zoom.
let Z = 1;
const at = (x, y, cls, ...kids) => s("g", { class: cls, transform: `translate(${r3(x)} ${r3(y)}) scale(${r3(Z)})` }, ...kids);

export function renderMap() {
  const M = MAP(), v = APP.view; if (!M || !v) return s("svg", {});
  const m = v.map;
  const geo = placedGeometry(m.placed);
  const box = viewOf(M, geo), W = box.x1 - box.x0, H = box.y1 - box.y0;
  // in the Action phase the action board is what one plays on: the chart steps back a little
  // (drawn smaller, its marks a little larger for it)
  const compact = v.phase === "action" && !v.over;
  Z = W / (compact ? 12.5 : 15);
  const placedIdx = new Set(m.placed.map((p) => p.index));
  const onBoard = new Set(geo.anchorIds);
  const svg = s("svg", { viewBox: `${r3(box.x0)} ${r3(box.y0)} ${r3(W)} ${r3(H)}`, class: "icemap" + (compact ? " compact" : ""), role: "group",
    "aria-label": mapSummary(m), "data-testid": "ice-map", preserveAspectRatio: "xMidYMid slice" });
  svg.append(defs());
  const full = M.box, FW = full.x1 - full.x0 + 20, FH = full.y1 - full.y0 + 20;
  svg.append(s("rect", { x: full.x0 - 10, y: full.y0 - 10, width: FW, height: FH, fill: "url(#is-sea)" }));
  svg.append(s("rect", { x: full.x0 - 10, y: full.y0 - 10, width: FW, height: FH, fill: "url(#is-floe)" }));
  svg.append(graticule(box));
  // coasts: a pale fringe of shore ice under each land mass, then the land
  const gl = s("g", { class: "is-land", "aria-hidden": "true" });
  for (const l of M.land) gl.append(s("path", { d: smooth(l.pts), class: "is-shore" }));
  for (const l of M.land) gl.append(s("path", { d: smooth(l.pts), class: "is-ground" }));
  svg.append(gl);
  // the sheets: fog over the sections not placed yet, a seam between placed ones
  const gs = s("g", { class: "is-sheets" });
  const dec = v.decision;
  M.sections.forEach((sec, i) => {
    if (placedIdx.has(i)) return;
    gs.append(s("polygon", { points: poly(sec.sheet), class: "is-fog", fill: "url(#is-fog)" }));
    // the section the leader is about to place: outlined in gold
    if (dec && dec.kind === "section" && dec.section === sec.id) gs.append(s("polygon", { points: poly(sec.sheet), class: "is-fog-next", "data-section": sec.id }));
    // only the next section to be placed is named (the others lie beyond it)
    if (!placedIdx.has(i - 1)) return;
    const [x, y] = fogLabelPos(sec, box);
    gs.append(at(x, y, "is-fog-note", s("text", { x: 0, y: 0, class: "is-fog-lbl" }, sectionName(sec.id)),
      s("text", { x: 0, y: 0.32, class: "is-fog-sub" }, t("is_uncharted"))));
  });
  M.cuts.forEach((c) => gs.append(s("line", { x1: r3(c[0][0]), y1: r3(c[0][1]), x2: r3(c[1][0]), y2: r3(c[1][1]), class: "is-seam" })));
  for (const p of m.placed) {
    const sec = M.sections[p.index];
    // over the middle of the side's own anchors (not those it shares with a neighbour)
    const own = (sec.sides[p.side] ? sec.sides[p.side].anchors : []).map(anchorOf).filter((a) => a && !a.edge);
    const mid = own.length ? own.reduce((n, a) => n + a.px, 0) / own.length : (sec.sheet[0][0] + sec.sheet[3][0]) / 2;
    const x = Math.max(box.x0 + 1.5 * Z, Math.min(box.x1 - 1.5 * Z, mid));
    // neighbours' names on two rows, so that narrow sections do not overlap
    gs.append(at(x, box.y0 + (p.index % 2 ? 0.62 : 0.34) * Z, "is-sec", s("text", { x: 0, y: 0, class: "is-sec-lbl", "data-section": sec.id }, `${sectionName(sec.id)} · ${t("is_side")} ${p.side}`)));
  }
  svg.append(gs);
  // the chart's rose and title in its south-west corner (mainland, clear of the passage)
  svg.append(at(box.x0 + 0.75 * Z, box.y1 - 0.8 * Z, "is-rose-at", compassRose(0, 0, 0.42)));
  svg.append(at(box.x0 + 1.45 * Z, box.y1 - 0.45 * Z, "is-title-at", s("text", { x: 0, y: 0, class: "is-title" }, "Nunavut")));
  // regions: a name at the middle of their anchors on the placed sides, a token once mapped
  const regionSlot = s("g", { class: "is-regions-slot" });
  svg.append(regionSlot);
  // every route of the placed sides, faint and one-way
  const gr = s("g", { class: "is-routes", "aria-hidden": "true" });
  const seenRoute = new Set();
  for (const r of geo.routes) {
    const key = `${r.from}>${r.to}`; if (seenRoute.has(key)) continue; seenRoute.add(key);
    const a = anchorOf(r.from), b = anchorOf(r.to); if (!a || !b) continue;
    const [p, q] = shorten(a, b, 0.16 * Z, 0.2 * Z);
    gr.append(s("line", { x1: r3(p[0]), y1: r3(p[1]), x2: r3(q[0]), y2: r3(q[1]), class: "is-route" + (r.extra ? " extra" : "") + (r.kind && r.kind !== "sea" ? ` k-${r.kind}` : ""), "marker-end": "url(#is-head-faint)" }));
    if (r.extra) gr.append(at((p[0] + q[0]) / 2, (p[1] + q[1]) / 2, "is-dyn-at faint", dynamiteStick(0, 0, 0.55)));
  }
  svg.append(gr);
  // the route sailed so far
  const start = startAnchor(m, geo);
  const trail = [start, ...m.sailed].filter(Boolean).map(anchorOf).filter(Boolean);
  if (m.fleet && !m.sailed.includes(m.fleet) && trail.length && trail[trail.length - 1].id !== m.fleet) trail.push(anchorOf(m.fleet));
  if (trail.length > 1) svg.append(s("polyline", { points: poly(trail.map((a) => [a.px, a.py])), class: "is-trail" }));
  // the routes onward from the fleet, each with its dynamite
  svg.append(onwardLayer(m));
  // anchors
  const labels = s("g", { class: "is-anchor-names" });
  OCC = [];
  svg.append(anchorLayer(m, geo, onBoard, labels));
  regionSlot.append(regionLayer(m, geo));
  // the fleet on top
  const fa = anchorOf(m.fleet);
  if (fa) {
    const label = t("is_fleet_at", { anchor: anchorName(m.fleet) });
    const fg = at(fa.px, fa.py, "is-fleet", s("title", {}, label), s("circle", { cx: 0, cy: 0, r: 0.25, class: "is-fleet-ring" }), shipShape(0, 0.02));
    fg.setAttribute("tabindex", "0"); fg.setAttribute("role", "img"); fg.setAttribute("aria-label", label); fg.setAttribute("data-anchor", m.fleet);
    svg.append(fg);
  }
  const creature = creatureTokenLayer(geo.anchorIds.map(anchorOf), Z); if (creature) svg.append(creature);
  const inuit = inukLayer(Z); if (inuit) svg.append(inuit);  // Mysterious Epidemic
  svg.append(labels);
  return svg;
}

function fogLabelPos(sec, box) {
  const xs = sec.sheet.map((p) => p[0]);
  const lo = Math.max(Math.min(...xs), box.x0), hi = Math.min(Math.max(...xs), box.x1);
  return [(lo + hi) / 2, (box.y0 + box.y1) / 2];
}

// The segment from a toward b, cut short at both ends (so it starts and ends outside the markers).
function shorten(a, b, ra, rb) {
  const dx = b.px - a.px, dy = b.py - a.py, L = Math.hypot(dx, dy) || 1;
  return [[a.px + (dx * ra) / L, a.py + (dy * ra) / L], [b.px - (dx * rb) / L, b.py - (dy * rb) / L]];
}

function mapSummary(m) {
  const parts = [t("is_map")];
  if (m.fleet) parts.push(t("is_fleet_at", { anchor: anchorName(m.fleet) }));
  if (m.routes && m.routes.length) parts.push(t("is_onward", { list: m.routes.map((r) => `${anchorName(r.to)} (${t("is_dyn_n", { n: r.dynamite })})`).join(", ") }));
  parts.push(t("is_mapped_n", { n: m.mapped.length }));
  return parts.join(". ");
}

function regionLayer(m, geo) {
  const g = s("g", { class: "is-regions" });
  const reachSet = m.fleet ? reachable(m, geo) : new Set(geo.anchorIds);
  const by = new Map();
  for (const id of geo.anchorIds) { const a = anchorOf(id); if (!a) continue; if (!by.has(a.region)) by.set(a.region, []); by.get(a.region).push(a); }
  const mapped = new Set(m.mapped);
  const prio = new Set((m.scenario && m.scenario.priority) || []);
  const hl = UI.logHl && UI.logHl.regions ? new Set(UI.logHl.regions) : null;
  for (const [rid, as] of by) {
    const reg = MAP().regions[rid] || { species: 0 };
    const name = regionName(rid);
    // a region named like one of its anchors ("Lancaster Sound") is named by that anchor's label
    const same = as.find((a) => a.name === name);
    let cx = as.reduce((n, a) => n + a.px, 0) / as.length, cy = as.reduce((n, a) => n + a.py, 0) / as.length;
    let off = labelOffset(rid), anchorAt = "middle";
    if (same) { cx = same.px; cy = same.py; off = [-0.2, 0.03]; anchorAt = "end"; }
    else {
      const cands = [[off[0], off[1], "middle"], [0, 0.55, "middle"], [0.3, -0.05, "start"], [-0.3, -0.05, "end"], [0, -0.55, "middle"]];
      [off[0], off[1], anchorAt] = placeLabel(cx, cy, name.length, 0.1, 0.22, cands);
    }
    const past = m.fleet && !APP.view.over && !as.some((a) => a.id === m.fleet || reachSet.has(a.id));
    const rg = at(cx + off[0] * Z, cy + off[1] * Z, "is-region" + (past ? " past" : "") + (mapped.has(rid) ? " mapped" : "") + (prio.has(rid) ? " priority" : "") + (hl && hl.has(rid) ? " log-hl" : ""),
      s("title", {}, `${name} — ${t("is_species_n", { n: reg.species })}${mapped.has(rid) ? " · " + t("is_mapped") : ""}${prio.has(rid) ? " · " + t("is_priority") : ""}`));
    rg.setAttribute("data-region", rid);
    chartableRegion(rg, rid);  // Legendary Expeditions: Collinson charts it with a click
    const half = name.length * 0.052;
    if (prio.has(rid)) {
      // a priority region (Lost Expedition): its name on a dashed pink ground
      const w = same ? 0.3 + reg.species * 0.15 : 2 * half + 0.16, x0 = same ? -w : anchorAt === "start" ? -0.08 : anchorAt === "end" ? -w + 0.08 : -w / 2;
      rg.append(s("rect", { x: r3(x0), y: -0.19, width: r3(w), height: 0.27, rx: 0.1, class: "is-prio" }));
    }
    if (!same) rg.append(s("text", { x: 0, y: 0, class: "is-region-lbl", "text-anchor": anchorAt }, name));
    // the species cards this region shows on each visit: small marks under its name
    // (paws right-aligned left of the dot when the anchor names the region; else under the name)
    const pawX = (k) => (same ? -k * 0.15 : anchorAt === "start" ? k * 0.15 + 0.08 : anchorAt === "end" ? -k * 0.15 - 0.08 : -(reg.species - 1) * 0.075 + k * 0.15);
    for (let k = 0; k < reg.species; k++) rg.append(s("path", { d: paw(pawX(k), same ? -0.03 : 0.12), class: "is-sp-mark" }));
    if (mapped.has(rid)) {
      const tx = same ? -(reg.species * 0.15) - 0.1 : anchorAt === "start" ? -0.17 : anchorAt === "end" ? -2 * half - 0.17 : -half - 0.17;
      rg.append(s("g", { class: "is-carto-token" }, s("circle", { cx: r3(tx), cy: -0.06, r: 0.13 }),
        s("path", { d: `M${r3(tx - 0.07)} -0.09 l0.045 -0.03 l0.05 0.03 l0.045 -0.03 v0.09 l-0.045 0.03 l-0.05 -0.03 l-0.045 0.03z` })));
    }
    g.append(rg);
  }
  return g;
}
// A small paw print (three toes over a pad) centred at (x, y).
function paw(x, y) {
  const c = (cx, cy, r) => `M${r3(cx - r)} ${r3(cy)}a${r} ${r} 0 1 0 ${r3(2 * r)} 0a${r} ${r} 0 1 0 ${r3(-2 * r)} 0`;
  return c(x, y + 0.015, 0.03) + c(x - 0.035, y - 0.03, 0.014) + c(x, y - 0.045, 0.014) + c(x + 0.035, y - 0.03, 0.014);
}
// Region labels sit a little off their anchors' middle (under them by default), some
// nudged where a coast or a neighbour is in the way; in units of the marks' scale.
const NUDGE = { devon: [0.1, -0.4], somerset: [-0.1, -0.32] };
function labelOffset(rid) { return NUDGE[rid] || [0, -0.3]; }

function legalDestination(to) {
  return APP.legal.find((a) => (a.type === "destination" || a.type === "compass") && a.to === to) || null;
}

function onwardLayer(m) {
  const g = s("g", { class: "is-onward" });
  const fa = anchorOf(m.fleet), d = APP.view.decision;
  if (!fa || APP.view.over || (d && d.kind === "start")) return g;
  for (const r of m.routes || []) {
    const b = anchorOf(r.to); if (!b) continue;
    const [p, q] = shorten(fa, b, 0.3 * Z, 0.22 * Z);
    const chosen = m.destination === r.to && m.destination !== m.fleet;
    g.append(s("line", { x1: r3(p[0]), y1: r3(p[1]), x2: r3(q[0]), y2: r3(q[1]), class: "is-arrow" + (chosen ? " chosen" : "") + (r.extra ? " extra" : ""), "marker-end": "url(#is-head)" }));
    // the cost: one stick per dynamite, on the arrow's middle
    const w = 0.14 + 0.13 * r.dynamite;
    const badge = at((p[0] + q[0]) / 2, (p[1] + q[1]) / 2, "is-cost" + (r.table_can_pay === false ? " unpayable" : ""),
      s("title", {}, t("is_route_cost", { anchor: anchorName(r.to), n: r.dynamite }) + (r.extra ? ` (${t("is_route_extra")})` : "") + (r.new_section ? ` · ${t("is_new_section")}` : "")),
      s("rect", { x: r3(-w / 2), y: -0.13, width: r3(w), height: 0.26, rx: 0.07 }));
    for (let k = 0; k < r.dynamite; k++) badge.append(dynamiteStick(-w / 2 + 0.135 + k * 0.13, 0, 0.5));
    g.append(badge);
  }
  return g;
}

// The anchors the fleet can still reach along the one-way routes placed so far.
function reachable(m, geo) {
  const out = new Set(), todo = [m.fleet];
  while (todo.length) {
    const a = todo.pop();
    for (const r of geo.routes) if (r.from === a && !out.has(r.to)) { out.add(r.to); todo.push(r.to); }
  }
  return out;
}

function anchorLayer(m, geo, onBoard, labels) {
  const g = s("g", { class: "is-anchors" });
  const sailed = new Set(m.sailed);
  const reach = m.fleet ? reachable(m, geo) : new Set(onBoard);
  const onward = new Map((m.routes || []).map((r) => [r.to, r]));
  const blue = new Set(m.blue_anchors || []);
  const finals = new Map((m.final_anchors || []).map((f) => [f.anchor, f.pp]));
  const cabins = new Map(), shelters = new Map();
  for (const c of m.cabins || []) { if (!cabins.has(c.anchor)) cabins.set(c.anchor, []); cabins.get(c.anchor).push(c.seat); }
  for (const c of m.shelters || []) { if (!shelters.has(c.anchor)) shelters.set(c.anchor, []); shelters.get(c.anchor).push(c.seat); }
  const hl = UI.logHl && UI.logHl.anchors ? new Set(UI.logHl.anchors) : null;
  // every dot takes its place first; then the names, the fleet's and those onward first
  for (const id of onBoard) { const a = anchorOf(id); if (a) OCC.push({ x0: a.px - 0.14 * Z, x1: a.px + 0.14 * Z, y0: a.py - 0.14 * Z, y1: a.py + 0.14 * Z }); }
  for (const f of m.final_anchors || []) { const a = anchorOf(f.anchor); if (a) OCC.push({ x0: a.px, x1: a.px + 0.75 * Z, y0: a.py - 0.62 * Z, y1: a.py - 0.1 * Z }); }
  const fa = anchorOf(m.fleet);
  if (fa) OCC.push({ x0: fa.px - 0.27 * Z, x1: fa.px + 0.27 * Z, y0: fa.py - 0.32 * Z, y1: fa.py + 0.27 * Z });
  const rank = (id) => (id === m.fleet ? 0 : onward.has(id) || legalDestination(id) ? 1 : sailed.has(id) ? 3 : 2);
  for (const id of [...onBoard].sort((p, q) => rank(p) - rank(q))) {
    const a = anchorOf(id); if (!a) continue;
    // any anchor the seat may sail to now: onward routes, a start anchor, a compass move against the arrows
    const isFleet = id === m.fleet, r = onward.get(id), act = legalDestination(id);
    const behind = !isFleet && !sailed.has(id) && !reach.has(id) && !act;
    const cls = ["is-anchor", sailed.has(id) ? "sailed" : behind ? "behind" : "ahead", isFleet ? "fleet" : "", r ? "onward" : "", blue.has(id) ? "blue" : "", finals.has(id) ? "final" : "", a.start ? "start" : "", act ? "pick" : "", hl && hl.has(id) ? "log-hl" : ""].filter(Boolean).join(" ");
    const label = anchorLabel(a, { sailed: sailed.has(id), fleet: isFleet, route: r, blue: blue.has(id), final: finals.get(id), cabins: cabins.get(id), shelters: shelters.get(id) });
    const ag = at(a.px, a.py, cls, s("title", {}, label));
    ag.setAttribute("data-anchor", id);
    if (act) { ag.setAttribute("tabindex", "0"); ag.setAttribute("role", "button"); ag.setAttribute("aria-label", `${t("is_sail_to", { anchor: a.name })} — ${label}`); }
    if (act) ag.append(s("circle", { r: 0.27, class: "is-pick-halo" }));
    if (hl && hl.has(id)) ag.append(s("circle", { r: 0.32, class: "is-hl-ring" }));
    if (blue.has(id)) ag.append(s("circle", { r: 0.19, class: "is-blue-ring" }));
    ag.append(s("circle", { r: 0.115, class: "is-dot" }));
    if (blue.has(id)) ag.append(s("path", { d: star(0, 0, 0.075), class: "is-blue-star" }));
    if (finals.has(id)) {
      ag.append(s("path", { d: "M0 -0.1 V-0.56 l0.3 0.1 l-0.3 0.1", class: "is-flag" }));
      ag.append(s("text", { x: 0.34, y: -0.43, class: "is-final-pp" }, t("is_pp_n", { n: finals.get(id) })));
    }
    if (sailed.has(id)) ag.append(dynamiteStick(0.13, -0.12, 0.42));
    // cabins and shelters stand in a row under the anchor
    const pieces = [...(cabins.get(id) || []).map((st) => ["c", st]), ...(shelters.get(id) || []).map((st) => ["s", st])];
    pieces.forEach(([kind, st], k) => {
      const x = -((pieces.length - 1) * 0.22) / 2 + k * 0.22, y = isFleet ? 0.37 : 0.27;
      ag.append(kind === "c" ? cabinShape(x, y, COLORS[st], 0.7) : shelterShape(x, y, COLORS[st], 0.7));
    });
    // names for the fleet's anchor and those ahead (over everything else); the past is in the tooltip
    if (isFleet || act || (!sailed.has(id) && !behind) || (hl && hl.has(id))) {
      const down = (pieces.length ? 0.5 : 0.32) + (isFleet ? 0.08 : 0);
      const bold = r || isFleet || act;
      const [dx, dy, anchorAt] = placeLabel(a.px, a.py, a.name.length, bold ? 0.1 : 0.09, 0.2,
        [[0, down, "middle"], [0.2, 0.06, "start"], [-0.2, 0.06, "end"], [0, -0.22 - (finals.has(id) ? 0.45 : 0), "middle"],
          [0.16, down, "start"], [-0.16, down, "end"], [0.16, -0.16, "start"], [-0.16, -0.16, "end"]]);
      const lab = at(a.px, a.py, "is-anchor-name" + (r || act ? " onward" : "") + (isFleet ? " fleet" : ""), s("text", { x: r3(dx), y: r3(dy), class: "is-anchor-lbl", "text-anchor": anchorAt }, a.name));
      lab.setAttribute("aria-hidden", "true");
      labels.append(lab);
    }
    if (act) bindActivate(ag, () => sendAction(act));
    g.append(ag);
  }
  return g;
}

function star(cx, cy, r) {
  let d = "";
  for (let i = 0; i < 10; i++) {
    const rr = i % 2 ? r * 0.45 : r, an = (Math.PI / 5) * i - Math.PI / 2;
    d += (i ? "L" : "M") + `${r3(cx + rr * Math.cos(an))} ${r3(cy + rr * Math.sin(an))}`;
  }
  return d + "Z";
}

export function anchorLabel(a, o) {
  const parts = [a.name, regionName(a.region)];
  if (o.fleet) parts.push(t("is_fleet_here"));
  if (o.sailed) parts.push(t("is_sailed"));
  if (o.route) parts.push(t("is_route_cost", { anchor: a.name, n: o.route.dynamite }));
  if (o.blue) parts.push(t("is_blue_anchor"));
  if (o.final) parts.push(t("is_final_anchor", { n: o.final }));
  if (a.start) parts.push(t("is_start_anchor"));
  for (const st of o.cabins || []) parts.push(t("is_cabin_of", { name: seatName(st) }));
  for (const st of o.shelters || []) parts.push(t("is_shelter_of", { name: seatName(st) }));
  return parts.join(" · ");
}

