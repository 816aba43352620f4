// The map of Nunavut as the board draws it: the box's content (iceandsnow-content.json,
// generated from the engine's data: anchors with their longitude and latitude,
// regions, the four double-sided sections and their routes) and our coastlines
// (coast.json), projected onto the page.  The projection is polar stereographic
// around the passage, so the meridians converge to the north as on a chart of the
// Arctic.  Where each section lies follows from the anchors: two sections meet on the
// line through the edge anchors they share.

import { APP } from "../core/state.js";

const ASSET = (p) => new URL(p, import.meta.url).href;

let C = null;
let CW = null;   // the map of a Walking on Ice game (its two sections swapped in)
let loading = null;

const LON0 = -102;      // the meridian that points straight up
export const PAD = 1.1; // the chart's margin around the outermost anchors

// (longitude east, latitude north) -> page units (1 unit = 1 degree of latitude).
export function project(lon, lat) {
  const r = 90 - lat, d = ((lon - LON0) * Math.PI) / 180;
  return [r * Math.sin(d), r * Math.cos(d)];
}

export function loadMap() {
  if (C) return Promise.resolve(C);
  if (!loading) {
    loading = Promise.all([
      fetch(ASSET("../iceandsnow-content.json")).then((r) => r.json()),
      fetch(ASSET("./coast.json")).then((r) => r.json()),
    ]).then(([content, coast]) => {
      const lg = content.modules && content.modules.legendary_expeditions;  // explorer events 45-54
      if (lg) content.cards = { ...content.cards, events: [...content.cards.events, ...lg.events] };
      C = build(content, coast);
      const wk = content.modules && content.modules.walking_on_ice;
      if (wk) CW = build(walkingContent(content, wk), coast);
      return C;
    });
  }
  return loading;
}
export const MAP = () => (CW && APP.view && APP.view.walking ? CW : C);

// The content of a walking game: the module's sections in place of the base ones of
// the same id, its anchors (every anchor of that map) and regions, its events.
function walkingContent(c, wk) {
  const byId = Object.fromEntries(wk.sections.map((s) => [s.id, s]));
  return { ...c, anchors: wk.anchors, bounds: wk.bounds, regions: [...c.regions, ...wk.regions],
    sections: c.sections.map((s) => byId[s.id] || s), cards: { ...c.cards, events: [...c.cards.events, ...wk.events] } };
}

function build(c, coast) {
  const anchors = {};
  for (const [id, a] of Object.entries(c.anchors)) {
    const [x, y] = project(a.x, a.y);
    anchors[id] = { ...a, id, px: x, py: y };
  }
  const xs = Object.values(anchors).map((a) => a.px), ys = Object.values(anchors).map((a) => a.py);
  const box = { x0: Math.min(...xs) - PAD, x1: Math.max(...xs) + PAD, y0: Math.min(...ys) - PAD - 0.8, y1: Math.max(...ys) + PAD };
  const land = coast.land.map((l) => ({ id: l.id, pts: l.pts.map(([lon, lat]) => project(lon, lat)) }));
  const regions = Object.fromEntries(c.regions.map((r) => [r.id, r]));
  const sections = c.sections.map((s) => ({ ...s }));
  // The line between two neighbouring sections: through their shared edge anchors.
  const cuts = [];
  for (let i = 0; i + 1 < sections.length; i++) {
    const shared = Object.values(anchors).filter((a) => a.edge && a.on.some(([k]) => k === i) && a.on.some(([k]) => k === i + 1));
    shared.sort((p, q) => p.py - q.py);
    const [p, q] = shared.length >= 2 ? [shared[0], shared[shared.length - 1]] : [shared[0], { px: shared[0].px, py: shared[0].py + 1 }];
    cuts.push(lineAcross(p.px, p.py, q.px, q.py, box));
  }
  // Each section's sheet: between its two cuts (the chart's edge beyond the first and last).
  // Sections run east (right) to west (left).
  for (let i = 0; i < sections.length; i++) {
    const east = i === 0 ? [[box.x1, box.y0], [box.x1, box.y1]] : cuts[i - 1];
    const west = i === sections.length - 1 ? [[box.x0, box.y0], [box.x0, box.y1]] : cuts[i];
    sections[i].sheet = [east[0], east[1], west[1], west[0]];
    const cx = (east[0][0] + east[1][0] + west[0][0] + west[1][0]) / 4;
    sections[i].labelX = cx;
  }
  return { content: c, anchors, box, land, regions, sections, cuts, byId: Object.fromEntries(sections.map((s) => [s.id, s])) };
}

// The segment of the line through (x1,y1)-(x2,y2) between the box's top and bottom.
function lineAcross(x1, y1, x2, y2, box) {
  const dx = x2 - x1, dy = y2 - y1 || 1e-9;
  const at = (y) => [x1 + ((y - y1) * dx) / dy, y];
  return [at(box.y0), at(box.y1)];
}

export function anchorOf(id) { return MAP() && MAP().anchors[id]; }
export function anchorName(id) { const a = anchorOf(id); return a ? a.name : String(id || "—").replace(/_/g, " "); }
export function regionOf(id) { return MAP() && MAP().regions[id]; }
export function regionName(id) { const r = regionOf(id); return r ? r.name : String(id).replace(/_/g, " "); }
export function sectionName(id) { const s = MAP() && MAP().byId[id]; return s ? s.name : String(id).replace(/_/g, " "); }
// The anchors and routes of the placed sides ([{section, index, side}]).
export function placedGeometry(placed) {
  const anchorIds = [], seen = new Set(), routes = [];
  for (const p of placed || []) {
    const G = MAP(), sec = G.sections[p.index] || G.byId[p.section];
    if (!sec) continue;
    const side = sec.sides[p.side];
    if (!side) continue;
    for (const a of side.anchors) if (!seen.has(a)) { seen.add(a); anchorIds.push(a); }
    for (const [from, to, extra, kind] of side.routes) routes.push({ from, to, extra, kind });
  }
  return { anchorIds, routes };
}
