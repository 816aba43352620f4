// Northwest's board as SVG: the terrain, the tiles, the ice, the arrows, the tokens and
// the pieces, with what the current selection lights up; thumbnails of tiles.

import { APP } from "../core/state.js";
import { s, $, r3, bindActivate } from "../core/dom.js";
import { t } from "../core/i18n.js";
import { COLORS, seatName } from "../core/seats.js";
import { sendAction } from "../core/connection.js";
import { renderGame } from "../core/table.js";
import { face, TOKEN_COLORS, TOKEN_GLYPH } from "./content.js";
import { CELL_PAD, arrowGeom, isPhone } from "./layout.js";
import { landPath } from "./terrain.js";
import { UI, posKey, seatOf } from "./ui.js";
import { boardTip, hideTip } from "./tips.js";
import { currentPlacement, placementsFor, sendMove } from "./selection.js";

// The board again (a hover, a selection, the phone's layout), pieces gliding to where
// they moved unless told not to (a replay's step).
export function refresh({ glide = true } = {}) {
  const wrap = $("#boardwrap"); if (!wrap || !APP.view) return;
  wrap.replaceChildren(renderBoard());
  if (glide) runGlides(); else UI.pendingGlides = [];
}

export function renderBoard() {
  const v = APP.view, D = UI.D, { W, H } = D;
  const svg = s("svg", {
    viewBox: `${-CELL_PAD} -0.75 ${W + 2 * CELL_PAD} ${H + 1.05}`, class: "board", role: "img",
    "aria-label": t("board"),
  });
  svg.append(defs());
  // ocean frame
  svg.append(s("rect", { x: -CELL_PAD, y: -0.75, width: W + 2 * CELL_PAD, height: H + 1.05, class: "frame" }));
  // zones backdrop
  const zones = D.zones;
  let zx = 0;
  while (zx < W) {
    let e = zx; while (e < W && zones[e] === zones[zx]) e++;
    svg.append(s("text", { x: (zx + e) / 2, y: -0.25, class: "zone-label" }, `×${zones[zx]}`));
    if (zx > 0) svg.append(s("line", { x1: zx, y1: -0.5, x2: zx, y2: H + 0.15, class: "zone-line" }));
    zx = e;
  }
  // squares
  const gSq = s("g", {});
  for (let y = 0; y < H; y++) for (let x = 0; x < W; x++) {
    const corners = [D.vert(x, y), D.vert(x + 1, y), D.vert(x + 1, y + 1), D.vert(x, y + 1)];
    const placed = D.sqTile.has(`${x},${y}`);
    if (placed) {
      gSq.append(s("rect", { x, y, width: 1, height: 1, class: "sea" }));
      const d = landPath(x, y, corners);
      if (d) gSq.append(s("path", { d, class: "land" }));
    } else {
      gSq.append(s("rect", { x, y, width: 1, height: 1, class: "empty" }));
    }
  }
  svg.append(gSq);
  // fixed vertices of empty squares: small dots (what a neighbour must match)
  const gV = s("g", {});
  for (let y = 0; y <= H; y++) for (let x = 0; x <= W; x++) {
    const val = D.vert(x, y); if (!val) continue;
    const touchesEmpty = [[x - 1, y - 1], [x, y - 1], [x - 1, y], [x, y]].some(([a, b]) => a >= 0 && b >= 0 && a < W && b < H && !D.sqTile.has(`${a},${b}`));
    if (touchesEmpty) gV.append(s("circle", { cx: x, cy: y, r: 0.07, class: val === "l" ? "vdot land-dot" : "vdot sea-dot" }));
  }
  // tile outlines
  const gT = s("g", {});
  for (const [ti, sqs] of D.tileSquares) {
    const xs = sqs.map((q) => q[0]), ys = sqs.map((q) => q[1]);
    const x0 = Math.min(...xs), y0 = Math.min(...ys);
    gT.append(s("rect", { x: x0, y: y0, width: Math.max(...xs) - x0 + 1, height: Math.max(...ys) - y0 + 1,
      class: String(ti).startsWith("board:") ? "tile-outline printed" : "tile-outline" }));
  }
  svg.append(gT);
  // ice
  const fr = D.frozen;
  if (fr > 0) {
    svg.append(s("rect", { x: 0, y: 0, width: W, height: fr, class: "ice", fill: "url(#icehatch)" }));
    svg.append(s("line", { x1: -0.3, y1: fr, x2: W + 0.3, y2: fr, class: "ice-line" }));
  }
  svg.append(gV);
  // printed symbols and tokens
  const gTok = s("g", {});
  for (const sym of D.tileSymbols) gTok.append(symbolMark(sym.x + 0.5, sym.y + 0.5, sym.symbol, false));
  for (const [xy, kind] of D.tokens) {
    const [x, y] = xy.split(",").map(Number);
    gTok.append(tokenDisc(x + 0.5, y + 0.5, kind, 0.2));
  }
  svg.append(gTok);
  // arrows
  svg.append(arrow("greenland", v));
  svg.append(arrow("northwest", v));
  // highlights
  svg.append(highlights());
  // the squares and pieces a hovered log line names
  svg.append(logHighlights());
  // vehicles
  svg.append(vehicles());
  // board border
  svg.append(s("rect", { x: 0, y: 0, width: W, height: H, class: "board-border" }));
  svg.addEventListener("mouseleave", () => { hideTip(); if (UI.hover) { UI.hover = null; refresh(); } });
  svg.addEventListener("mousemove", (e) => boardTip(svg, e));
  return svg;
}

function defs() {
  return s("defs", {},
    s("pattern", { id: "icehatch", width: 0.25, height: 0.25, patternUnits: "userSpaceOnUse", patternTransform: "rotate(35)" },
      s("rect", { width: 0.25, height: 0.25, fill: "rgba(225,240,255,0.22)" }),
      s("line", { x1: 0, y1: 0, x2: 0, y2: 0.25, stroke: "rgba(255,255,255,0.45)", "stroke-width": 0.035 })),
    s("radialGradient", { id: "sungrad" },
      s("stop", { offset: "0%", "stop-color": "#fff6c2" }), s("stop", { offset: "100%", "stop-color": "#f0a800" })));
}

function symbolMark(cx, cy, kind, _filled) {
  // faint printed symbol (the token may be taken)
  return s("circle", { cx, cy, r: 0.26, class: `symbol-mark sym-${kind}` });
}
export function tokenDisc(cx, cy, kind, r = 0.2, label) {
  return s("g", { class: `token tok-${kind}` },
    s("title", {}, t(`tok_${kind}`)),
    s("circle", { cx, cy, r, fill: TOKEN_COLORS[kind] }),
    s("text", { x: cx, y: cy + r * 0.38, "font-size": r * 1.1, class: "tok-glyph" }, label ?? TOKEN_GLYPH[kind]));
}

function arrow(which, v) {
  const { x, y, dir } = arrowGeom(which);
  const L = 1.3;
  const pts = dir > 0
    ? [[x, y + 0.15], [x + L - 0.45, y + 0.15], [x + L - 0.45, y - 0.1], [x + L, y + 0.5], [x + L - 0.45, y + 1.1], [x + L - 0.45, y + 0.85], [x, y + 0.85]]
    : [[x, y + 0.15], [x - L + 0.45, y + 0.15], [x - L + 0.45, y - 0.1], [x - L, y + 0.5], [x - L + 0.45, y + 1.1], [x - L + 0.45, y + 0.85], [x, y + 0.85]];
  const g = s("g", { class: `arrow arrow-${which}`, "data-arrow": which },
    s("title", {}, t(which === "greenland" ? "loc_greenland" : "loc_northwest")),
    s("polygon", { points: pts.map((p) => p.map(r3).join(",")).join(" ") }));
  const label = t(which === "greenland" ? "greenland_short" : "northwest_short");
  // the label hangs inward from the drawing's edge, so no width of the board cuts it off
  const lx = dir > 0 ? UI.D.W + CELL_PAD - 0.05 : -CELL_PAD + 0.05;
  g.append(s("text", { x: lx, y: y - 0.22, class: "arrow-label", "text-anchor": dir > 0 ? "end" : "start" }, label));
  const left = v.arrows[which];
  const phone = isPhone(), r = phone ? 0.2 : 0.14, step = phone ? 0.42 : 0.3;
  (left || []).forEach((val, i) => {
    const cx = x + dir * (r + 0.08 + (i % 3) * step), cy = y + 1.2 + r + Math.floor(i / 3) * (2 * r + 0.06);
    const tk = tokenDisc(cx, cy, which === "greenland" ? "gl" : "nw", r, String(val));
    tk.querySelector("title").textContent = t(which === "greenland" ? "tokrule_gl" : "tokrule_nw", { n: val });
    g.append(tk);
  });
  return g;
}

// Pieces sharing a tile or an arrow stand side by side: a grid over the free part of
// the spot (away from the token, if there is one), as large as fits.
function vehicleLayout() {
  const v = APP.view, D = UI.D, groups = new Map(), out = new Map();
  for (let i = 0; i < v.players; i++) {
    for (const kind of ["ship", "sled"]) {
      const l = posKey(seatOf(i)[kind]);
      if (l == null) continue;
      if (!groups.has(l)) groups.set(l, []);
      groups.get(l).push({ seat: i, kind });
    }
  }
  const tokenSquares = D.tokens;
  for (const [l, pcs] of groups) {
    let box;
    if (l === "greenland" || l === "northwest") {
      const { x, y, dir } = arrowGeom(l);
      box = { x0: dir > 0 ? x + 0.02 : x - 1.22, y0: y + 0.02, w: 1.2, h: 0.96 };
    } else {
      const sqs = D.tileSquares.get(l); if (!sqs) continue;
      const xs = sqs.map((q) => q[0]), ys = sqs.map((q) => q[1]);
      const x0 = Math.min(...xs), y0 = Math.min(...ys), w = Math.max(...xs) - x0 + 1, hh = Math.max(...ys) - y0 + 1;
      box = { x0: x0 + 0.06, y0: y0 + 0.1, w: w - 0.12, h: hh - 0.16 };
      const tok = sqs.find((q) => tokenSquares.has(q.join(",")));
      if (tok) {
        // keep clear of the token: the half of the tile (rows, or columns) without it
        if (hh > 1) { const top = tok[1] === y0; box.h = box.h / 2; if (top) box.y0 += box.h; }
        else if (w > 1) { const left = tok[0] === x0; box.w = box.w / 2; if (left) box.x0 += box.w; }
        else { box.y0 += 0.42; box.h -= 0.42; }
      }
    }
    const n = pcs.length;
    let best = { cols: 1, rows: n, cell: 0 };
    for (let cols = 1; cols <= n; cols++) {
      const rows = Math.ceil(n / cols), cell = Math.min(box.w / cols, box.h / rows / 0.8);
      if (cell > best.cell) best = { cols, rows, cell };
    }
    const k = Math.min(0.5, best.cell / 1.05); // a piece is ~0.9 units wide at scale 1
    const cw = box.w / best.cols, ch = box.h / best.rows;
    pcs.forEach((pc, j) => {
      const col = j % best.cols, row = Math.floor(j / best.cols);
      out.set(`${pc.seat}-${pc.kind}`, { x: box.x0 + (col + 0.5) * cw, y: box.y0 + (row + 0.5) * ch + 0.1 * k, k });
    });
  }
  return out;
}
function shipShape(x, y, color, k = 0.5) {
  return s("g", { transform: `translate(${r3(x)} ${r3(y)}) scale(${k})` },
    s("path", { d: "M-0.42 0.05 L0.42 0.05 L0.3 0.25 L-0.3 0.25 Z", fill: color, stroke: "#1b1b1b", "stroke-width": 0.05 }),
    s("line", { x1: 0, y1: 0.05, x2: 0, y2: -0.45, stroke: "#1b1b1b", "stroke-width": 0.05 }),
    s("path", { d: "M0.03 -0.42 L0.3 -0.05 L0.03 -0.05 Z", fill: "#fbf7ea", stroke: "#1b1b1b", "stroke-width": 0.03 }),
    s("path", { d: "M-0.03 -0.36 L-0.25 -0.05 L-0.03 -0.05 Z", fill: "#fbf7ea", stroke: "#1b1b1b", "stroke-width": 0.03 }));
}
function sledShape(x, y, color, k = 0.5) {
  return s("g", { transform: `translate(${r3(x)} ${r3(y)}) scale(${k})` },
    s("rect", { x: -0.32, y: -0.2, width: 0.56, height: 0.24, rx: 0.04, fill: color, stroke: "#1b1b1b", "stroke-width": 0.05 }),
    s("path", { d: "M-0.4 0.12 L0.3 0.12 Q0.45 0.12 0.42 -0.05", fill: "none", stroke: "#1b1b1b", "stroke-width": 0.06 }));
}
function vehicles() {
  const v = APP.view, g = s("g", { class: "vehicles" });
  const layout = vehicleLayout(), glides = [];
  const hl = UI.logHl && UI.logHl.piece;
  for (let i = 0; i < v.players; i++) {
    for (const kind of ["ship", "sled"]) {
      const key = `${i}-${kind}`, p = layout.get(key);
      if (!p) { UI.prevPos.delete(key); continue; }
      const mine = i === APP.seat;
      const canMove = mine && APP.legal.some((a) => a.type === "move" && a.vehicle === kind);
      const selected = UI.sel && UI.sel.mode === "move" && UI.sel.vehicle === kind && mine;
      const vg = s("g", {
        class: "vehicle" + (canMove ? " movable" : "") + (selected ? " selected" : ""),
        tabindex: canMove ? 0 : null, role: canMove ? "button" : null,
        "aria-label": `${seatName(i)}: ${t(kind)}${canMove ? " — " + t("click_to_move") : ""}`,
        "data-piece": key,
      });
      if (hl && hl.seat === i && (!hl.kind || hl.kind === kind)) vg.append(s("circle", { cx: p.x, cy: p.y - 0.1 * p.k, r: 0.56 * p.k, class: "log-hl-piece" }));
      if (selected || canMove) vg.append(s("circle", { cx: p.x, cy: p.y - 0.04 * p.k, r: 0.48 * p.k, class: "vehicle-halo" }));
      vg.append(kind === "ship" ? shipShape(p.x, p.y, COLORS[i], p.k) : sledShape(p.x, p.y, COLORS[i], p.k));
      const was = UI.prevPos.get(key);
      if (was && (Math.abs(was.x - p.x) > 0.01 || Math.abs(was.y - p.y) > 0.01) && was.loc !== posKey(seatOf(i)[kind])) glides.push([vg, was.x - p.x, was.y - p.y]);
      UI.prevPos.set(key, { x: p.x, y: p.y, loc: posKey(seatOf(i)[kind]) });
      if (canMove) {
        const act = () => { UI.sel = selected ? null : { mode: "move", vehicle: kind }; UI.vehicle = kind; renderGame(); };
        vg.addEventListener("click", (e) => { e.stopPropagation(); act(); });
        vg.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); act(); } });
      }
      g.append(vg);
    }
  }
  UI.pendingGlides = glides;
  return g;
}
// A piece that changed place glides from its old spot to the new one (~300 ms), unless
// the person asked for reduced motion.
function runGlides() {
  const list = UI.pendingGlides || []; UI.pendingGlides = [];
  if (!list.length || matchMedia("(prefers-reduced-motion: reduce)").matches) return;
  for (const [el, dx, dy] of list) {
    if (!el.animate) continue;
    el.animate([{ transform: `translate(${r3(dx)}px, ${r3(dy)}px)` }, { transform: "translate(0px, 0px)" }],
      { duration: 300, easing: "ease-out" });
    const root = document.documentElement;
    root.dataset.glides = String(Number(root.dataset.glides || 0) + 1);
  }
}

function highlights() {
  const g = s("g", { class: "highlights" });
  const sel = UI.sel, D = UI.D;
  if (!sel) return g;
  if (sel.mode === "move") {
    for (const a of APP.legal.filter((a) => a.type === "move" && a.vehicle === sel.vehicle)) {
      if (typeof a.to === "string") {
        const { x, y, dir } = arrowGeom(a.to);
        const r = s("rect", { x: dir > 0 ? x : x - 1.3, y: y - 0.12, width: 1.3, height: 1.24, class: "dest", tabindex: 0, role: "button",
          "data-to": a.to, "aria-label": t("move_to", { to: t(a.to === "greenland" ? "loc_greenland" : "loc_northwest") }) });
        bindActivate(r, () => sendMove(a));
        g.append(r);
        continue;
      }
      const [tx, ty] = a.to;
      const ti = D.sqTile.get(`${tx},${ty}`);
      const sqs = ti != null ? D.tileSquares.get(ti) : [[tx, ty]];
      const xs = sqs.map((q) => q[0]), ys = sqs.map((q) => q[1]);
      const x0 = Math.min(...xs), y0 = Math.min(...ys);
      const r = s("rect", { x: x0 + 0.04, y: y0 + 0.04, width: Math.max(...xs) - x0 + 0.92, height: Math.max(...ys) - y0 + 0.92,
        class: "dest", tabindex: 0, role: "button", "data-to": `${tx},${ty}`, "aria-label": t("move_to", { to: `${tx},${ty}` }) });
      bindActivate(r, () => sendMove(a));
      g.append(r);
    }
    return g;
  }
  if (sel.mode === "place") {
    const opts = placementsFor(sel);
    const cover = new Set();
    const o = face(sel.tileIdx, sel.side, sel.rot);
    for (const a of opts) for (let dy = 0; dy < o.h; dy++) for (let dx = 0; dx < o.w; dx++) cover.add(`${a.x + dx},${a.y + dy}`);
    for (const k of cover) {
      const [x, y] = k.split(",").map(Number);
      g.append(s("rect", { x, y, width: 1, height: 1, class: "legal-sq" }));
    }
    for (const a of opts) g.append(s("circle", { cx: a.x + 0.5, cy: a.y + 0.5, r: 0.06, class: "anchor-dot" }));
    // preview
    const cur = currentPlacement(opts, o);
    if (cur) g.append(tilePreview(o, cur.x, cur.y, true));
    // hit targets: each legal square
    for (const k of cover) {
      const [x, y] = k.split(",").map(Number);
      const hit = s("rect", { x, y, width: 1, height: 1, class: "hit" });
      hit.addEventListener("mouseenter", (e) => {
        if (UI.hover && UI.hover.x === x && UI.hover.y === y) return;
        UI.hover = { x, y }; refresh();
        const svg = $("#boardwrap svg.board"); if (svg) boardTip(svg, e); // the old board (and its mousemove) is gone
      });
      hit.addEventListener("click", () => {
        UI.hover = { x, y };
        const p = currentPlacement(opts, o);
        if (p) sendAction(p);
      });
      g.append(hit);
    }
  }
  return g;
}
function logHighlights() {
  const g = s("g", { class: "log-hl-layer" }), hl = UI.logHl;
  if (!hl) return g;
  for (const [x, y] of hl.squares || []) g.append(s("rect", { x: x + 0.03, y: y + 0.03, width: 0.94, height: 0.94, class: "log-hl" }));
  if (hl.arrow) {
    const { x, y, dir } = arrowGeom(hl.arrow);
    g.append(s("rect", { x: dir > 0 ? x : x - 1.3, y: y - 0.12, width: 1.3, height: 1.24, class: "log-hl" }));
  }
  return g;
}
function tilePreview(o, x, y, ghost) {
  const g = s("g", { class: ghost ? "preview" : "" });
  for (let dy = 0; dy < o.h; dy++) for (let dx = 0; dx < o.w; dx++) {
    const T = o.terrain;
    const corners = [T[dy][dx], T[dy][dx + 1], T[dy + 1][dx + 1], T[dy + 1][dx]];
    g.append(s("rect", { x: x + dx, y: y + dy, width: 1, height: 1, class: "sea" }));
    const d = landPath(x + dx, y + dy, corners);
    if (d) g.append(s("path", { d, class: "land" }));
  }
  if (o.symbol && o.sym) g.append(tokenDisc(x + o.sym[0] + 0.5, y + o.sym[1] + 0.5, o.symbol, 0.2));
  g.append(s("rect", { x, y, width: o.w, height: o.h, class: "preview-outline" }));
  return g;
}

// Small standalone SVG of a tile side (reserve, display, place panel).
export function tileThumb(tileIdx, side = "a", rot = 0, size = 22) {
  const o = face(tileIdx, side, rot);
  const svg = s("svg", { viewBox: `-0.05 -0.05 ${o.w + 0.1} ${o.h + 0.1}`, width: size * o.w, height: size * o.h, class: "thumb", "aria-hidden": "true" });
  svg.append(tilePreview(o, 0, 0, false));
  return svg;
}
export function pileThumb(cls, size = 22) {
  const pats = [["ss", "ss"], ["ls", "ss"], ["ll", "ss"], ["ls", "sl"], ["ll", "ls"], ["ll", "ll"]];
  const T = pats[cls];
  const svg = s("svg", { viewBox: "-0.05 -0.05 1.1 1.1", width: size, height: size, class: "thumb", "aria-hidden": "true" });
  svg.append(s("rect", { x: 0, y: 0, width: 1, height: 1, class: "sea" }));
  const d = landPath(0, 0, [T[0][0], T[0][1], T[1][1], T[1][0]]);
  if (d) svg.append(s("path", { d, class: "land" }));
  svg.append(s("rect", { x: 0, y: 0, width: 1, height: 1, class: "preview-outline" }));
  return svg;
}
