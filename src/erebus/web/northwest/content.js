// Northwest's printed material, read once: the board, the tiles and their turned and
// flipped faces (northwest-tiles.json, generated from the engine's data files).  What
// is *on* the board comes with each payload (the wire view); this is the box.

const ASSET = (p) => new URL(`../${p}`, import.meta.url).href;

let C = null;

export async function loadContent() {
  if (C) return C;
  const c = await (await fetch(ASSET("northwest-tiles.json"))).json();
  c.tileIndex = Object.fromEntries(c.ids.map((id, i) => [id, i]));
  C = c;
  return c;
}
export const G = () => C;

// The index of a tile id in the content's tables (thumbnails and faces).
export function tileIdx(id) { return C.tileIndex[id]; }
export function tileName(ti) { return C.ids[ti] || `#${ti}`; }
export function isLarge(ti) { return C.tiles[ti].size === 2; }

// A tile's face turned ``rot`` quarter turns, side ``side``: size, corner terrain, symbol.
export function face(tileIdx, side, rot) {
  const sides = Object.keys(C.tiles[tileIdx].sides).sort();
  const o = C.orients_of[tileIdx][sides.indexOf(side) * 4 + rot];
  const [tile, sd, rotation, w, h, terrain, symbol, sym] = C.orientations[o];
  return { tile, side: sd, rot: rotation, w, h, terrain, symbol, sym };
}

// The sun track of the printed board: rows each position freezes, the first round's
// position, the number of rounds.
export function sunTrack() {
  const b = C.board;
  return { frozen: b.sun.frozen_rows, positions: b.sun.positions || 7, start: b.sun.start || 3, rounds: b.rounds || 10 };
}
export function frozenRowsAt(sun) { return C.board.sun.frozen_rows[String(sun)] ?? 0; }
export function arrowSquare(which) { return C.board.arrows[which].square; }

export const TOKENS = ["inuit", "cairn", "franklin", "strait", "cartography"];
export const TOKEN_COLORS = { inuit: "#d9822b", cairn: "#8a8f98", franklin: "#6b3f24", strait: "#2b8fb3", cartography: "#7a5cb0" };
export const TOKEN_GLYPH = { inuit: "I", cairn: "C", franklin: "F", strait: "S", cartography: "K" };
export const ROMAN = ["", "I", "II", "III", "IV", "V", "VI", "VII"];
