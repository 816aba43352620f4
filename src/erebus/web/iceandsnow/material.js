// The printed material of Through Ice and Snow as the action board, the dialogs and
// the cards read it: iceandsnow-content.json (generated from the engine's data by
// tools/gen_web_assets.py), loaded once and indexed by id.  What is *on* the table
// comes with each payload (the wire view); this is the box.

const ASSET = (p) => new URL(`../${p}`, import.meta.url).href;

let C = null;
let loading = null;

export function loadMaterial() {
  if (C) return Promise.resolve(C);
  if (!loading) {
    loading = fetch(ASSET("iceandsnow-content.json")).then((r) => r.json()).then((c) => {
      const byId = (list, key = "id") => Object.fromEntries((list || []).map((x) => [String(x[key]), x]));
      // Walking on Ice: its action tiles, events and new anchors and regions (ids of its own)
      const wk = (c.modules && c.modules.walking_on_ice) || null;
      // Legendary Expeditions: the explorer events 45-54 are event cards too
      const lg = (c.modules && c.modules.legendary_expeditions) || null;
      if (lg) c.cards.events = [...c.cards.events, ...lg.events];
      if (wk) { c.cards.events = [...c.cards.events, ...wk.events]; c.regions = [...c.regions, ...wk.regions]; c.anchors = { ...wk.anchors, ...c.anchors }; }
      c.spaceById = byId([...c.board.spaces, ...(c.board.extra_spaces || []), ...((wk && wk.tiles) || [])]);
      c.cardById = byId([...c.cards.species, ...c.cards.hunting, ...c.cards.whales, ...c.cards.dual]);
      c.speciesIds = new Set([...c.cards.species.map((x) => x.id)]);
      c.eventByNo = byId(c.cards.events, "number");
      c.upgradeByNo = byId(c.cards.upgrades, "number");
      c.investorById = byId(c.cards.investors);
      c.cartoById = byId(c.cards.cartography);
      c.regionById = byId(c.regions);
      c.warehouseByCol = byId(c.board.warehouses, "column");
      C = c;
      return c;
    });
  }
  return loading;
}
export const M = () => C;

export function space(id) { return C && C.spaceById[id]; }
export function eventCard(n) { return C && C.eventByNo[String(n)]; }
export function upgrade(n) { return C && C.upgradeByNo[String(n)]; }
export function investor(id) { return C && C.investorById[id]; }
export function cartography(id) { return C && C.cartoById[id]; }
export function anchor(id) { return C && C.anchors[id]; }
export function anchorName(id) { const a = anchor(id); return a ? a.name : String(id).replace(/_/g, " "); }
export function regionName(id) { const r = C && C.regionById[id]; return r ? r.name : String(id).replace(/_/g, " "); }
// A species, hunting, whale or dual species card; ``kind`` "species" or "hunting".
export function animalCard(id) { return C && C.cardById[id]; }
export function isSpeciesCard(id) { return !!(C && C.speciesIds.has(id)); }
