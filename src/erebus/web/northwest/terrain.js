// The board's terrain as shapes: which tile covers each square (from the wire view's
// placed tiles) and the coast of each square by marching squares over its corners.

import { r3 } from "../core/dom.js";

// Everything the board drawing needs, from the wire view.
export function derive(view) {
  const b = view.board, W = b.width, H = b.height;
  const code = { land: "l", sea: "s" };
  const vert = (x, y) => code[b.vertices[y][x]] ?? null;
  const sqTile = new Map();        // "x,y" -> tile id
  const tileSquares = new Map();   // tile id -> [[x,y]...]
  const tileSymbols = [];          // [{x,y,symbol}]
  for (const tl of view.tiles) {
    const sqs = [];
    for (let dy = 0; dy < tl.h; dy++) for (let dx = 0; dx < tl.w; dx++) sqs.push([tl.x + dx, tl.y + dy]);
    if (tl.symbol) tileSymbols.push({ x: tl.symbol.x, y: tl.symbol.y, symbol: tl.symbol.kind });
    tileSquares.set(tl.id, sqs);
    for (const [x, y] of sqs) sqTile.set(`${x},${y}`, tl.id);
  }
  const tokens = new Map(view.tokens.map((k) => [`${k.x},${k.y}`, k.kind])); // "x,y" -> kind
  return { W, H, vert, sqTile, tileSquares, tileSymbols, tokens, zones: b.zones, frozen: b.frozen_rows };
}

// corners: [nw, ne, se, sw] each "l" | "s"; returns SVG path data for the land part of a unit square at (x,y).
export function landPath(x, y, corners) {
  const P = [[x, y], [x + 1, y], [x + 1, y + 1], [x, y + 1]];
  const M = [[x + 0.5, y], [x + 1, y + 0.5], [x + 0.5, y + 1], [x, y + 0.5]]; // edge i: corner i -> i+1
  const L = corners.map((c) => c === "l");
  const n = L.filter(Boolean).length;
  const cx = x + 0.5, cy = y + 0.5;
  const pt = (p) => `${r3(p[0])} ${r3(p[1])}`;
  if (n === 0) return "";
  if (n === 4) return `M${pt(P[0])}L${pt(P[1])}L${pt(P[2])}L${pt(P[3])}Z`;
  const saddle = n === 2 && L[0] === L[2];
  if (saddle) {
    // Two separate land corners: sea flows across the square (a channel).
    let d = "";
    for (let i = 0; i < 4; i++) if (L[i]) {
      const a = M[(i + 3) % 4], b = M[i];
      const ctl = [P[i][0] * 0.35 + cx * 0.65, P[i][1] * 0.35 + cy * 0.65];
      d += `M${pt(P[i])}L${pt(b)}Q${pt(ctl)} ${pt(a)}Z`;
    }
    return d;
  }
  // Walk the boundary; coast segments are curved.
  let d = "";
  const start = L.findIndex((v, i) => v && !L[(i + 3) % 4]); // first land corner after sea
  let first = true;
  for (let k = 0; k < 4; k++) {
    const i = (start + k) % 4, j = (i + 1) % 4;
    if (L[i]) {
      d += (first ? "M" : "L") + pt(P[i]); first = false;
      if (!L[j]) d += "L" + pt(M[i]);
    } else if (L[j]) {
      // coast from the previous midpoint to M[i], curving around the sea side
      const prev = d.match(/([\d.\-]+) ([\d.\-]+)$/);
      const a = prev ? [parseFloat(prev[1]), parseFloat(prev[2])] : M[i];
      const b = M[i];
      const mid = [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2];
      let ctl;
      if (n === 1) ctl = [mid[0] * 0.3 + cx * 0.7, mid[1] * 0.3 + cy * 0.7];
      else if (n === 3) ctl = [mid[0] * 0.55 + cx * 0.45, mid[1] * 0.55 + cy * 0.45];
      else ctl = [mid[0] + (cy - mid[1]) * 0.0 + (x + y) % 2 * 0.06 - 0.03, mid[1] + 0.06 * (((x * 7 + y * 3) % 3) - 1)];
      d += `Q${pt(ctl)} ${pt(b)}`;
    }
  }
  return d + "Z";
}
