// ACTIONS' modules as the board places them (the interface of docs in
// notes/ice12.md): the action board, the decision dialogs and the cards.  Loaded
// once by board.js; a module that fails to load leaves its part out rather than
// the whole board.

export const EXT = { ab: null, dlg: null, cardEl: null };

async function tryImport(path) {
  try { return await import(path); } catch (e) { console.warn(`iceandsnow: ${path} did not load`, e); return null; }
}

export async function loadExt() {
  const [ab, dlg, cards] = await Promise.all([tryImport("./actionboard.js"), tryImport("./dialogs.js"), tryImport("./cards.js")]);
  EXT.ab = ab; EXT.dlg = dlg; EXT.cardEl = cards && cards.cardEl ? cards.cardEl : null;
  if (ab && ab.loadMaterial) await ab.loadMaterial();
}
