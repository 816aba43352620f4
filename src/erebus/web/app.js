// erebus web client — Expedition: Northwest Passage.
// Plain ES module, no build step, no dependencies.
// Pages: lobby at "/", game at "/game/{id}?token=…" (also "?game={id}&token=…").

const ASSET = (p) => new URL(p, import.meta.url).href;
const LANGS = ["en", "hu", "it", "fr", "uk", "ja"];
const LANG_NAMES = { en: "English", hu: "Magyar", it: "Italiano", fr: "Français", uk: "Українська", ja: "日本語" };
const COLORS = ["#c8412f", "#2f6db5", "#2f8a55", "#c99a1d"];
const TOKENS = ["inuit", "cairn", "franklin", "strait", "cartography"];
const TOKEN_COLORS = { inuit: "#d9822b", cairn: "#8a8f98", franklin: "#6b3f24", strait: "#2b8fb3", cartography: "#7a5cb0" };
const TOKEN_GLYPH = { inuit: "I", cairn: "C", franklin: "F", strait: "S", cartography: "K" };
const BASE_COST = { draw: 1, refresh: 2, place: 1, move: 1, transfer: 1, explore: 3, discover: 2 };
const ROMAN = ["", "I", "II", "III", "IV", "V", "VI", "VII"];
const SVGNS = "http://www.w3.org/2000/svg";
const LOC_GREENLAND = -1, LOC_NORTHWEST = -2, LOC_BOARD = -3, LOC_LOST = -4;

// ------------------------------------------------------------------ helpers

function h(tag, attrs = {}, ...kids) {
  const el = document.createElement(tag);
  setAttrs(el, attrs);
  for (const k of kids.flat()) if (k != null && k !== false) el.append(k instanceof Node ? k : String(k));
  return el;
}
function s(tag, attrs = {}, ...kids) {
  const el = document.createElementNS(SVGNS, tag);
  setAttrs(el, attrs);
  for (const k of kids.flat()) if (k != null && k !== false) el.append(k instanceof Node ? k : String(k));
  return el;
}
function setAttrs(el, attrs) {
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v == null || v === false) continue;
    if (k.startsWith("on") && typeof v === "function") el.addEventListener(k.slice(2), v);
    else if (k === "text") el.textContent = v;
    else el.setAttribute(k, v === true ? "" : v);
  }
}
const $ = (sel, root = document) => root.querySelector(sel);
const r3 = (n) => Math.round(n * 1000) / 1000;

// The server sends integers beyond 2^53 (the land/sea bitboards) as decimal strings,
// so plain JSON.parse reads everything exactly; rewriting the text (as we once did)
// corrupted chat lines that held long digit runs.
function parseJSON(text) { return JSON.parse(text); }
function big(v) {
  if (typeof v === "bigint") return v;
  if (typeof v === "string") return BigInt(v);
  if (typeof v === "number") return BigInt(Math.round(v)); // already lossy: server should send strings
  return 0n;
}

// ------------------------------------------------------------------ i18n

let STR = {}, STR_EN = {};
function pickLang() {
  const saved = localStorage.getItem("erebus.lang");
  if (saved && LANGS.includes(saved)) return saved;
  for (const l of navigator.languages || [navigator.language || "en"]) {
    const base = (l || "").toLowerCase().split("-")[0];
    if (LANGS.includes(base)) return base;
  }
  return "en";
}
async function loadLang(lang) {
  const get = async (l) => { try { const r = await fetch(ASSET(`i18n/${l}.json`)); return r.ok ? await r.json() : {}; } catch { return {}; } };
  STR_EN = await get("en");
  STR = lang === "en" ? STR_EN : await get(lang);
  document.documentElement.lang = lang;
}
function t(key, params = {}) {
  let str = STR[key] ?? STR_EN[key] ?? key;
  return str.replace(/\{(\w+)\}/g, (m, k) => (params[k] != null ? params[k] : m));
}
function langSwitcher(onChange) {
  const sel = h("select", { "aria-label": t("language"), class: "lang" },
    LANGS.map((l) => h("option", { value: l, selected: l === APP.lang }, LANG_NAMES[l])));
  sel.addEventListener("change", async () => {
    APP.lang = sel.value;
    localStorage.setItem("erebus.lang", APP.lang);
    await loadLang(APP.lang);
    onChange();
  });
  return sel;
}

// ------------------------------------------------------------------ app state

const APP = {
  lang: "en",
  content: null,
  gameId: null,
  token: null,
  msg: null, view: null, legal: [], seat: null, version: 0,
  events: [], chat: [], players: null,
  sel: null,          // {mode:"place", reserve:i, tile, rot, side} | {mode:"move", vehicle}
  vehicle: "ship",    // acting vehicle for draw/place/explore/discover
  hover: null,        // {x,y}
  placeIdx: 0,        // keyboard cycling among legal placements
  ws: null, wsOk: false, pollTimer: null, toastTimer: null,
  showLog: true,
  logFilter: "all",   // "all" | "events" | "chat"
  logHl: null,        // {squares:[[x,y]], arrow, piece:{seat,kind}} while a log line is hovered
  prevPos: new Map(), // "seat-kind" -> {x,y}: where each piece was drawn, for the glide
  wasMine: null,      // was it our turn at the last state (turn alerts on the change)
  checks: new Map(),  // "version|action" -> {legal, reason} from POST /check
};

// ------------------------------------------------------------------ content / geometry

async function loadContent() {
  // The board, tiles and orientation table, generated from the engine's data files.
  const c = await (await fetch(ASSET("northwest-tiles.json"))).json();
  const b = c.board;
  c.W = b.width; c.H = b.height; c.S = b.width + 2;
  c.tileIndex = Object.fromEntries(c.ids.map((id, i) => [id, i]));
  c.nTiles = c.tiles.length;
  APP.content = c;
}

const G = () => APP.content;
function sqXY(bit) { const S = G().S; return [bit % S, Math.floor(bit / S)]; }
function orientOf(tileIdx, side, rot) {
  const sides = Object.keys(G().tiles[tileIdx].sides).sort();
  return G().orients_of[tileIdx][sides.indexOf(side) * 4 + rot];
}
function orient(o) {
  const [tile, side, rot, w, h, terrain, symbol, sym] = G().orientations[o];
  return { tile, side, rot, w, h, terrain, symbol, sym };
}
function frozenRows(sun) { return G().board.sun.frozen_rows[String(sun)] ?? 0; }

// Everything the board drawing needs, derived from the view.
function derive(view) {
  const c = G(), { W, H, S } = c;
  const land = big(view.land), sea = big(view.sea);
  const vert = (x, y) => {
    const b = BigInt(x + S * y);
    if ((land >> b) & 1n) return "l";
    if ((sea >> b) & 1n) return "s";
    return null;
  };
  const sqTile = new Map();        // "x,y" -> tile index
  const tileSquares = new Map();   // tile index -> [[x,y]...]
  const tileSymbols = [];          // [{x,y,symbol}]
  for (const [ti, anchor, o] of view.tiles) {
    const [ax, ay] = sqXY(anchor);
    let sqs = [[ax, ay]];
    if (o >= 0) {
      const or = orient(o);
      sqs = [];
      for (let dy = 0; dy < or.h; dy++) for (let dx = 0; dx < or.w; dx++) sqs.push([ax + dx, ay + dy]);
      if (or.symbol && or.sym) tileSymbols.push({ x: ax + or.sym[0], y: ay + or.sym[1], symbol: or.symbol });
    } else if (ti >= c.nTiles) {
      const p = c.board.printed_squares[ti - c.nTiles];
      if (p && p.symbol) tileSymbols.push({ x: ax, y: ay, symbol: p.symbol });
    }
    tileSquares.set(ti, sqs);
    for (const [x, y] of sqs) sqTile.set(`${x},${y}`, ti);
  }
  return { W, H, S, vert, sqTile, tileSquares, tileSymbols, frozen: frozenRows(view.sun) };
}

// ------------------------------------------------------------------ marching squares

// corners: [nw, ne, se, sw] each "l" | "s"; returns SVG path data for the land part of a unit square at (x,y).
function landPath(x, y, corners) {
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

// ------------------------------------------------------------------ networking

function apiUrl(path) { return path; }
function wsUrl() {
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  const q = APP.token ? `?token=${encodeURIComponent(APP.token)}` : "";
  return `${proto}//${location.host}/ws/games/${encodeURIComponent(APP.gameId)}${q}`;
}
async function fetchState() {
  const q = APP.token ? `?token=${encodeURIComponent(APP.token)}` : "";
  const r = await fetch(apiUrl(`/api/games/${encodeURIComponent(APP.gameId)}${q}`));
  if (!r.ok) throw new Error(`${r.status} ${await r.text()}`);
  return parseJSON(await r.text());
}
function connectWS() {
  let ws;
  try { ws = new WebSocket(wsUrl()); } catch { startPolling(); return; }
  APP.ws = ws;
  ws.onopen = () => { APP.wsOk = true; stopPolling(); renderStatusDot(); };
  ws.onmessage = (ev) => {
    let m; try { m = parseJSON(ev.data); } catch { return; }
    onServerMessage(m);
  };
  ws.onclose = () => {
    APP.wsOk = false; APP.ws = null; renderStatusDot();
    startPolling();
    setTimeout(connectWS, 4000);
  };
  ws.onerror = () => { try { ws.close(); } catch { /* */ } };
}
function startPolling() {
  if (APP.pollTimer) return;
  APP.pollTimer = setInterval(async () => { try { onServerMessage(await fetchState()); } catch { /* */ } }, 3000);
}
function stopPolling() { clearInterval(APP.pollTimer); APP.pollTimer = null; }

async function sendAction(action) {
  APP.sel = null; APP.hover = null;
  if (APP.ws && APP.wsOk) {
    APP.ws.send(JSON.stringify({ type: "action", version: APP.version, action }));
    APP.legal = []; renderGame();
    return;
  }
  const q = APP.token ? `?token=${encodeURIComponent(APP.token)}` : "";
  try {
    const r = await fetch(`/api/games/${encodeURIComponent(APP.gameId)}/actions${q}`, {
      method: "POST", headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ version: APP.version, action }),
    });
    const txt = await r.text();
    if (!r.ok) { toast(t("error_action", { msg: errText(txt) })); return; }
    const m = txt ? parseJSON(txt) : null;
    if (m && m.view) onServerMessage(m); else onServerMessage(await fetchState());
  } catch (e) { toast(String(e)); }
}
// Undo (this turn, until a draw from the bag) and the autopilot's hand-back.
async function sendUndo() {
  if (APP.ws && APP.wsOk) { APP.ws.send(JSON.stringify({ type: "undo", version: APP.version })); return; }
  const q = APP.token ? `?token=${encodeURIComponent(APP.token)}` : "";
  try {
    const r = await fetch(`/api/games/${encodeURIComponent(APP.gameId)}/undo${q}`, {
      method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ version: APP.version }),
    });
    const txt = await r.text();
    if (!r.ok) { toast(t("error_action", { msg: errText(txt) })); return; }
    const m = txt ? parseJSON(txt) : null;
    if (m && m.view) onServerMessage(m); else onServerMessage(await fetchState());
  } catch (e) { toast(String(e)); }
}
function sendResume() { if (APP.ws && APP.wsOk) APP.ws.send(JSON.stringify({ type: "resume" })); }
function autopilotBadge(i) {
  const p = APP.players && APP.players[i];
  if (!p || !p.autopilot) return null;
  const b = h("span", { class: "status autopilot", "data-testid": `autopilot-${i}` }, t("autopilot_for", { name: seatName(i) }));
  if (i !== APP.seat) return b;
  return h("span", {}, b, " ", h("button", { class: "btn small", onclick: sendResume }, t("take_back_seat")));
}
function errText(txt) { try { const j = JSON.parse(txt); return j.detail || j.error || j.message || txt; } catch { return txt; } }
const CHAT_MAX = 500; // characters per chat line (the server's limit, erebus.server.service.CHAT_MAX)
function sendChat(text) {
  if (APP.ws && APP.wsOk) APP.ws.send(JSON.stringify({ type: "chat", text }));
  else toast(t("chat_offline"));
}

function onServerMessage(m) {
  if (!m) return;
  if (m.type === "chat") { APP.chat.push(m); APP.chat = APP.chat.slice(-100); renderLog(); return; }
  if (m.type === "chat_history") { APP.chat = m.chat || []; renderLog(); return; }
  if (m.type === "error") { toast(t("error_action", { msg: m.message || m.detail || m.text || "" })); if (m.view) applyState(m); return; }
  if (m.view) applyState(m);
}
function applyState(m) {
  const sameGame = !!(APP.msg && APP.msg.id === m.id);
  APP.msg = m; APP.view = m.view; APP.legal = m.legal_actions || [];
  APP.seat = m.seat ?? m.view.seat ?? null;
  APP.version = m.version ?? APP.version;
  if (m.players) APP.players = m.players;
  if (m.chat) APP.chat = m.chat;
  const evs = m.events || [];
  if (m.events_since == null) {
    if (m.events) {
      // The recent history (HTTP, a new WebSocket, after an undo) replaces ours from its
      // first event on; older ones we kept are the same for everybody.
      const first = evs.length ? evs[0].version : 0;
      const older = sameGame && APP.rawEvents ? APP.rawEvents.filter((e) => e.version < first) : [];
      APP.rawEvents = older.concat(evs); APP.eventsVersion = m.version;
    }
  } else if (APP.rawEvents && APP.eventsVersion != null && m.events_since <= APP.eventsVersion) {
    // Only the events after version events_since: keep ours up to it, append these.
    APP.rawEvents = APP.rawEvents.filter((e) => e.version <= m.events_since).concat(evs);
    APP.eventsVersion = m.version;
  } else {
    // A gap (we never had the events up to events_since): fetch the whole state.
    fetchState().then(onServerMessage).catch(() => { /* the next push or poll will do */ });
  }
  APP.events = (APP.rawEvents || []).map(normEvent);
  // Keep a selection only if it is still meaningful.
  if (APP.sel && APP.sel.mode === "place") {
    const res = myReserve();
    if (!res.includes(APP.sel.tileIdx)) APP.sel = null;
  }
  if (!APP.legal.length) APP.sel = null;
  renderGame();
  // Our turn came (a push may already hold the others' whole turns: then their
  // TurnEnded/Passed events tell us it went round).
  const mine = isMyTurn() && !m.view.over;
  const wentRound = m.events_since != null && evs.some((e) => (e.type === "TurnEnded" || e.type === "Passed") && e.seat !== APP.seat);
  if (mine && (APP.wasMine === false || (APP.wasMine && wentRound))) turnAlert();
  APP.wasMine = mine;
}

// ------------------------------------------------------------------ game helpers

// A seat's name: the one its host typed (named), else our own words for the server's
// default ("Player 1", "Bot 2 (hard)") in the current language.
function seatName(i) {
  const p = APP.players && APP.players[i];
  if (p && p.name && p.named) return p.name;
  if (p && p.kind === "bot") return t("bot_n", { n: i + 1, level: t(`level_${p.level || "medium"}`) });
  return t("player_n", { n: i + 1 });
}
function myReserve() { const v = APP.view; return APP.seat == null ? [] : (v.reserve[APP.seat] || []); }
function crewOf(v, i) { const c = v.crew.slice(5 * i, 5 * i + 5); return { shipA: c[0], shipR: c[1], sledA: c[2], sledR: c[3], lost: c[4] }; }
function locOf(v, i) { return { ship: v.loc[2 * i], sled: v.loc[2 * i + 1] }; }
function ptokOf(v, i) { return v.ptok.slice(5 * i, 5 * i + 5); }
function legalOf(type) { return APP.legal.filter((a) => a.type === type); }
function vehicleFor(type, pred = () => true) {
  const acts = APP.legal.filter((a) => a.type === type && pred(a));
  if (acts.some((a) => a.vehicle === APP.vehicle)) return APP.vehicle;
  return acts.length ? acts[0].vehicle : APP.vehicle;
}
function nextCost(kind) { return (BASE_COST[kind] || 0) + (APP.view.acted > 0 ? 1 : 0); }
function tileName(ti) { return G().ids[ti] || `#${ti}`; }
function locText(l) {
  if (l === LOC_GREENLAND) return t("loc_greenland");
  if (l === LOC_NORTHWEST) return t("loc_northwest");
  if (l === LOC_BOARD) return t("loc_board");
  if (l === LOC_LOST) return t("loc_lost");
  return tileLabel(l);
}
// Names of places from the board data: a printed square's id "board:cairn-east" reads
// "cairn (east)", a tile "tile L17 (×2)" (its zone); never raw ids or coordinates.
function tr(key, fallback) { const v = t(key); return v === key ? fallback : v; }
function printedName(id) {
  const [base, ...quals] = String(id).replace(/^board:/, "").split("-");
  const name = tr(`place_${base}`, base);
  return quals.length ? `${name} (${quals.map((q) => tr(`dir_${q}`, q)).join(", ")})` : name;
}
function zoneOf(x) { return G().board.zones[x] ?? 1; }
function tileLabel(ti) {
  const c = G();
  if (ti >= c.nTiles) { const p = c.board.printed_squares[ti - c.nTiles]; return p ? printedName(p.id) : ""; }
  const sq = APP.D && APP.D.tileSquares.get(ti);
  return sq ? t("place_tile_zone", { tile: tileName(ti), zone: zoneOf(sq[0][0]) }) : tileName(ti);
}
function placeAt(x, y) {
  const ti = APP.D && APP.D.sqTile.get(`${x},${y}`);
  if (ti == null) return t("place_empty", { zone: zoneOf(x) });
  return tileLabel(ti);
}
function placeOfTo(to) {
  if (to === "greenland" || to === LOC_GREENLAND) return t("loc_greenland");
  if (to === "northwest" || to === LOC_NORTHWEST) return t("loc_northwest");
  const m = /^(\d+),(\d+)$/.exec(String(to));
  return m ? placeAt(Number(m[1]), Number(m[2])) : String(to);
}
function placementsFor(sel) {
  if (!sel) return [];
  const id = tileName(sel.tileIdx);
  return APP.legal.filter((a) => a.type === "place" && a.tile === id && a.rotation === sel.rot && (a.side || "a") === sel.side);
}
function isMyTurn() { return APP.legal.length > 0; }

// ------------------------------------------------------------------ rendering: board

const CELL_PAD = 1.5;

function renderBoard() {
  const v = APP.view, c = G(), D = APP.D, { W, H } = D;
  const svg = s("svg", {
    viewBox: `${-CELL_PAD} -0.75 ${W + 2 * CELL_PAD} ${H + 1.05}`, class: "board", role: "img",
    "aria-label": t("board"),
  });
  svg.append(defs());
  // ocean frame
  svg.append(s("rect", { x: -CELL_PAD, y: -0.75, width: W + 2 * CELL_PAD, height: H + 1.05, class: "frame" }));
  // zones backdrop
  const zones = c.board.zones;
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
      class: ti >= c.nTiles ? "tile-outline printed" : "tile-outline" }));
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
  for (const [bit, kind] of Object.entries(v.board_tokens || {})) {
    const [x, y] = sqXY(Number(bit));
    gTok.append(tokenDisc(x + 0.5, y + 0.5, TOKENS[kind - 1], 0.2));
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
  svg.addEventListener("mouseleave", () => { hideTip(); if (APP.hover) { APP.hover = null; refreshBoard(); } });
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
function tokenDisc(cx, cy, kind, r = 0.2, label) {
  return s("g", { class: `token tok-${kind}` },
    s("title", {}, t(`tok_${kind}`)),
    s("circle", { cx, cy, r, fill: TOKEN_COLORS[kind] }),
    s("text", { x: cx, y: cy + r * 0.38, "font-size": r * 1.1, class: "tok-glyph" }, label ?? TOKEN_GLYPH[kind]));
}

function arrowGeom(which) {
  const { W } = APP.D;
  const a = G().board.arrows[which].square;
  if (which === "greenland") return { x: W + 0.08, y: a[1], dir: 1 };
  return { x: -0.08, y: a[1], dir: -1 };
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
  // on a phone the label is larger and hangs from the frame's edge, not past it
  const lx = isPhone() ? (dir > 0 ? APP.D.W + CELL_PAD - 0.05 : -CELL_PAD + 0.05) : x + dir * 0.05;
  g.append(s("text", { x: lx, y: y - 0.22, class: "arrow-label", "text-anchor": (dir > 0) === !isPhone() ? "start" : "end" }, label));
  const left = which === "greenland" ? v.gl_left : v.nw_left;
  const phone = isPhone(), r = phone ? 0.2 : 0.14, step = phone ? 0.42 : 0.3;
  (left || []).forEach((val, i) => {
    const cx = x + dir * (r + 0.08 + (i % 3) * step), cy = y + 1.2 + r + Math.floor(i / 3) * (2 * r + 0.06);
    const tk = tokenDisc(cx, cy, which === "greenland" ? "gl" : "nw", r, String(val));
    tk.querySelector("title").textContent = t(which === "greenland" ? "tokrule_gl" : "tokrule_nw", { n: val });
    g.append(tk);
  });
  return g;
}

// The sun track under the board (HTML, so it stays readable on a phone), with a legend
// of what each position freezes, from the board data.
function sunPanel(sun) {
  const fr = G().board.sun.frozen_rows, n = G().board.sun.positions || 7;
  // the positions of the first and the last round are marked, as on the printed board
  const first = G().board.sun.start || 3, last = ((first - 1 + (G().board.rounds || 10) - 1) % n) + 1;
  const slots = [];
  for (let p = 1; p <= n; p++) {
    const rows = fr[String(p)] ?? 0;
    const mark = p === first || p === last;
    slots.push(h("span", { class: "sun-pos" + (p === sun ? " now" : "") + (mark ? " mark" : ""), "data-pos": p,
      title: sunRowsText(rows) + (p === first ? ` · ${t("round_n", { n: 1, total: G().board.rounds || 10 })}` : "")
        + (p === last ? ` · ${t("round_n", { n: G().board.rounds || 10, total: G().board.rounds || 10 })}` : "") },
      h("span", { class: "sun-roman" }, ROMAN[p]),
      h("span", { class: "sun-gauge", "aria-hidden": "true" }, h("span", { style: `width:${Math.round(100 * rows / APP.D.H)}%` }))));
  }
  // group positions that freeze the same rows: "III, V: top 2 rows"
  const byRows = new Map();
  for (let p = 1; p <= n; p++) { const r = fr[String(p)] ?? 0; if (!byRows.has(r)) byRows.set(r, []); byRows.get(r).push(ROMAN[p]); }
  const legend = [...byRows.entries()].sort((x, y) => x[0] - y[0]).map(([r, ps]) => `${ps.join(", ")}: ${sunRowsText(r)}`).join(" · ");
  return h("div", { class: "sunbar", id: "sunbar" },
    h("span", { class: "lbl" }, t("sun")), h("span", { class: "sun-slots", role: "img", "aria-label": `${t("sun")} ${ROMAN[sun]}: ${sunRowsText(frozenRows(sun))}` }, slots),
    h("span", { class: "sun-now" }, sunRowsText(frozenRows(sun))),
    h("span", { class: "sun-legend", "data-testid": "sun-legend" }, legend, ". ", t("sun_legend_help")));
}
function sunRowsText(rows) { return rows ? t("sun_rows", { n: rows }) : t("sun_rows_none"); }

// Pieces sharing a tile or an arrow stand side by side: a grid over the free part of
// the spot (away from the token, if there is one), as large as fits.
function vehicleLayout() {
  const v = APP.view, D = APP.D, groups = new Map(), out = new Map();
  for (let i = 0; i < v.players; i++) {
    const loc = locOf(v, i);
    for (const kind of ["ship", "sled"]) {
      const l = loc[kind];
      if (l === LOC_BOARD || l === LOC_LOST || l == null) continue;
      if (!groups.has(l)) groups.set(l, []);
      groups.get(l).push({ seat: i, kind });
    }
  }
  const tokenSquares = new Set(Object.keys(v.board_tokens || {}).map((b) => sqXY(Number(b)).join(",")));
  for (const [l, pcs] of groups) {
    let box;
    if (l === LOC_GREENLAND || l === LOC_NORTHWEST) {
      const { x, y, dir } = arrowGeom(l === LOC_GREENLAND ? "greenland" : "northwest");
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
  const hl = APP.logHl && APP.logHl.piece;
  for (let i = 0; i < v.players; i++) {
    for (const kind of ["ship", "sled"]) {
      const key = `${i}-${kind}`, p = layout.get(key);
      if (!p) { APP.prevPos.delete(key); continue; }
      const mine = i === APP.seat;
      const canMove = mine && APP.legal.some((a) => a.type === "move" && a.vehicle === kind);
      const selected = APP.sel && APP.sel.mode === "move" && APP.sel.vehicle === kind && mine;
      const vg = s("g", {
        class: "vehicle" + (canMove ? " movable" : "") + (selected ? " selected" : ""),
        tabindex: canMove ? 0 : null, role: canMove ? "button" : null,
        "aria-label": `${seatName(i)}: ${t(kind)}${canMove ? " — " + t("click_to_move") : ""}`,
        "data-piece": key,
      });
      if (hl && hl.seat === i && (!hl.kind || hl.kind === kind)) vg.append(s("circle", { cx: p.x, cy: p.y - 0.1 * p.k, r: 0.56 * p.k, class: "log-hl-piece" }));
      if (selected || canMove) vg.append(s("circle", { cx: p.x, cy: p.y - 0.04 * p.k, r: 0.48 * p.k, class: "vehicle-halo" }));
      vg.append(kind === "ship" ? shipShape(p.x, p.y, COLORS[i], p.k) : sledShape(p.x, p.y, COLORS[i], p.k));
      const was = APP.prevPos.get(key);
      if (was && (Math.abs(was.x - p.x) > 0.01 || Math.abs(was.y - p.y) > 0.01) && was.loc !== locOf(v, i)[kind]) glides.push([vg, was.x - p.x, was.y - p.y]);
      APP.prevPos.set(key, { x: p.x, y: p.y, loc: locOf(v, i)[kind] });
      if (canMove) {
        const act = () => { APP.sel = selected ? null : { mode: "move", vehicle: kind }; APP.vehicle = kind; renderGame(); };
        vg.addEventListener("click", (e) => { e.stopPropagation(); act(); });
        vg.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); act(); } });
      }
      g.append(vg);
    }
  }
  APP.pendingGlides = glides;
  return g;
}
// A piece that changed place glides from its old spot to the new one (~300 ms), unless
// the person asked for reduced motion.
function runGlides() {
  const list = APP.pendingGlides || []; APP.pendingGlides = [];
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
  const sel = APP.sel, D = APP.D;
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
    const o = orient(orientOf(sel.tileIdx, sel.side, sel.rot));
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
        if (APP.hover && APP.hover.x === x && APP.hover.y === y) return;
        APP.hover = { x, y }; refreshBoard();
        const svg = $("#boardwrap svg.board"); if (svg) boardTip(svg, e); // the old board (and its mousemove) is gone
      });
      hit.addEventListener("click", () => {
        APP.hover = { x, y };
        const p = currentPlacement(opts, o);
        if (p) sendAction(p);
      });
      g.append(hit);
    }
  }
  return g;
}
function logHighlights() {
  const g = s("g", { class: "log-hl-layer" }), hl = APP.logHl;
  if (!hl) return g;
  for (const [x, y] of hl.squares || []) g.append(s("rect", { x: x + 0.03, y: y + 0.03, width: 0.94, height: 0.94, class: "log-hl" }));
  if (hl.arrow) {
    const { x, y, dir } = arrowGeom(hl.arrow);
    g.append(s("rect", { x: dir > 0 ? x : x - 1.3, y: y - 0.12, width: 1.3, height: 1.24, class: "log-hl" }));
  }
  return g;
}
function currentPlacement(opts, o) {
  if (!opts.length) return null;
  const hv = APP.hover;
  if (hv) {
    const inside = opts.filter((a) => hv.x >= a.x && hv.x < a.x + o.w && hv.y >= a.y && hv.y < a.y + o.h);
    if (inside.length) return inside.find((a) => a.x === hv.x && a.y === hv.y) || inside[0];
    return null;
  }
  return opts[((APP.placeIdx % opts.length) + opts.length) % opts.length];
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
function bindActivate(el, fn) {
  el.addEventListener("click", (e) => { e.stopPropagation(); fn(); });
  el.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); fn(); } });
}

// Small standalone SVG of a tile side (reserve, display, place panel).
function tileThumb(tileIdx, side = "a", rot = 0, size = 22) {
  const o = orient(orientOf(tileIdx, side, rot));
  const svg = s("svg", { viewBox: `-0.05 -0.05 ${o.w + 0.1} ${o.h + 0.1}`, width: size * o.w, height: size * o.h, class: "thumb", "aria-hidden": "true" });
  svg.append(tilePreview(o, 0, 0, false));
  return svg;
}
function pileThumb(cls, size = 22) {
  const pats = [["ss", "ss"], ["ls", "ss"], ["ll", "ss"], ["ls", "sl"], ["ll", "ls"], ["ll", "ll"]];
  const T = pats[cls];
  const svg = s("svg", { viewBox: "-0.05 -0.05 1.1 1.1", width: size, height: size, class: "thumb", "aria-hidden": "true" });
  svg.append(s("rect", { x: 0, y: 0, width: 1, height: 1, class: "sea" }));
  const d = landPath(0, 0, [T[0][0], T[0][1], T[1][1], T[1][0]]);
  if (d) svg.append(s("path", { d, class: "land" }));
  svg.append(s("rect", { x: 0, y: 0, width: 1, height: 1, class: "preview-outline" }));
  return svg;
}

// ------------------------------------------------------------------ rendering: panels

function playerBoard(i) {
  const v = APP.view, cr = crewOf(v, i), loc = locOf(v, i), tok = ptokOf(v, i);
  const current = v.current === i && !v.over;
  const status = v.returned && v.returned[i] ? t("returned") : v.passed[i] ? t("passed") : current ? t("playing") : "";
  const col = (kind, av, rest) => h("div", { class: "crew-col" },
    h("div", { class: "crew-head" }, t(kind), h("span", { class: "loc" }, locText(loc[kind]))),
    h("div", { class: "crew-row", title: t("available") }, h("span", { class: "lbl" }, t("available")), dots(av, COLORS[i], true)),
    h("div", { class: "crew-row", title: t("resting") }, h("span", { class: "lbl" }, t("resting")), dots(rest, COLORS[i], false)));
  const tokRow = h("div", { class: "ptoks" },
    TOKENS.map((k, j) => h("span", { class: "ptok", title: tokRule(k) }, miniToken(k), " ", String(tok[j]))),
    v.nw_value[i] != null ? h("span", { class: "ptok", title: t("loc_northwest") }, miniToken("nw", v.nw_value[i])) : null,
    v.gl_value[i] != null ? h("span", { class: "ptok", title: t("loc_greenland") }, miniToken("gl", v.gl_value[i])) : null);
  const res = (v.reserve[i] || []).map((ti, k) => {
    const mine = i === APP.seat;
    const canPlace = mine && APP.legal.some((a) => a.type === "place" && a.tile === tileName(ti));
    const selected = APP.sel && APP.sel.mode === "place" && APP.sel.tileIdx === ti;
    const b = h("button", { id: mine ? `res-${ti}` : null, class: "res-tile" + (selected ? " selected" : ""), disabled: !canPlace, title: `${tileName(ti)}${canPlace ? " — " + t("click_to_place") : ""}`,
      "aria-pressed": selected ? "true" : "false" }, tileThumb(ti, "a", 0, 20));
    if (canPlace) b.addEventListener("click", () => selectTile(ti));
    return b;
  });
  return h("section", { class: "pboard" + (current ? " current" : "") + (i === APP.seat ? " me" : ""), style: `--pc:${COLORS[i]}` },
    h("header", {},
      h("span", { class: "swatch" }),
      h("strong", {}, seatName(i), i === APP.seat ? ` (${t("you")})` : ""),
      h("span", { class: "status" }, status),
      autopilotBadge(i),
      h("span", { class: "score", title: t("score") }, String(v.score[i]))),
    h("div", { class: "crew" }, col("ship", cr.shipA, cr.shipR), col("sled", cr.sledA, cr.sledR),
      cr.lost ? h("div", { class: "lost" }, t("crew_lost", { n: cr.lost })) : null),
    tokRow,
    reserveRow(i, res));
}
// Your reserve is a strip of fixed height that scrolls sideways, however many tiles you
// hold; the others' reserves fold to a count with a toggle.
function reserveRow(i, res) {
  if (i === APP.seat) {
    return h("div", { class: "reserve mine" }, h("span", { class: "lbl" }, t("reserve")),
      h("div", { class: "res-strip", "data-testid": "my-reserve" }, res.length ? res : h("span", { class: "muted" }, "—")));
  }
  // A <details> fold (not a button: a spectator's boards have no controls to press).
  APP.openReserves = APP.openReserves || new Set();
  const open = APP.openReserves.has(i);
  const fold = h("details", { class: "reserve other", open },
    h("summary", { class: "res-toggle", "data-testid": `reserve-toggle-${i}` }, t("reserve_n", { n: res.length })),
    open && res.length ? h("div", { class: "res-strip" }, res) : null);
  fold.addEventListener("toggle", () => {
    if (fold.open === APP.openReserves.has(i)) return;
    if (fold.open) APP.openReserves.add(i); else APP.openReserves.delete(i);
    renderGame();
  });
  return fold;
}
function dots(n, color, filled) {
  const w = Math.max(n, 1) * 11;
  const svg = s("svg", { width: w, height: 12, class: "dots", role: "img", "aria-label": String(n) });
  for (let k = 0; k < n; k++) svg.append(s("circle", { cx: 5.5 + 11 * k, cy: 6, r: 4.3, fill: filled ? color : "none", stroke: color, "stroke-width": 1.6 }));
  return h("span", { class: "dotwrap" }, svg, h("span", { class: "n" }, String(n)));
}
function miniToken(kind, label) {
  const svg = s("svg", { width: 16, height: 16, viewBox: "-1 -1 2 2", "aria-hidden": "true" });
  const colors = { ...TOKEN_COLORS, nw: "#1f3b5a", gl: "#e8e2cf" };
  svg.append(s("circle", { r: 0.95, fill: colors[kind], stroke: "#222", "stroke-width": 0.08 }));
  svg.append(s("text", { y: 0.36, "font-size": 1.05, class: "tok-glyph" + (kind === "gl" ? " dark" : "") }, label != null ? String(label) : TOKEN_GLYPH[kind] || ""));
  return svg;
}

function supplyPanel() {
  const v = APP.view;
  const draft = v.round === 0;
  const disp = v.display.map((ti, idx) => {
    let act = null;
    if (draft) act = APP.legal.find((a) => a.type === "draft" && a.index === idx);
    else {
      const veh = vehicleFor("draw", (a) => a.source === "display" && a.index === idx);
      act = APP.legal.find((a) => a.type === "draw" && a.source === "display" && a.index === idx && a.vehicle === veh);
    }
    const b = h("button", { class: "disp-tile", disabled: !act, title: `${tileName(ti)} — ${draft ? t("draft") : t("draw")}` },
      h("div", { class: "sides" }, tileThumb(ti, "a", 0, 22), tileThumb(ti, "b", 0, 22)), h("small", {}, tileName(ti)));
    if (act) b.addEventListener("click", () => sendAction(act));
    return b;
  });
  const piles = v.piles.map((n, p) => {
    const veh = vehicleFor("draw", (a) => a.source === "pile" && a.pile === p);
    const act = APP.legal.find((a) => a.type === "draw" && a.source === "pile" && a.pile === p && a.vehicle === veh);
    const b = h("button", { class: "pile", disabled: !act, title: `${t("pile")} ${p + 1}: ${n}` }, pileThumb(p, 22), h("small", {}, String(n)));
    if (act) b.addEventListener("click", () => sendAction(act));
    return b;
  });
  const refresh = APP.legal.find((a) => a.type === "refresh" && a.vehicle === vehicleFor("refresh"));
  return h("section", { class: "supply" },
    h("div", { class: "group" }, h("h3", {}, t("display"), " ", h("span", { class: "muted" }, t("bag", { n: v.bag_size ?? "?" }))),
      h("div", { class: "row" }, disp,
        refresh ? h("button", { class: "btn small", onclick: () => sendAction(refresh) }, t("refresh"), costTag("refresh")) : null)),
    h("div", { class: "group" }, h("h3", {}, t("piles")), h("div", { class: "row" }, piles)));
}
function costTag(kind) { return h("span", { class: "cost", title: t("cost") }, String(nextCost(kind))); }

function actionPanel() {
  const v = APP.view;
  const panel = h("section", { class: "actions", "aria-label": t("actions") });
  if (v.over) { panel.append(h("div", { class: "turn" }, t("game_over"))); return panel; }
  const cur = v.current;
  const mine = isMyTurn();
  panel.append(h("div", { class: "turn" + (mine ? " mine" : "") },
    h("span", { class: "swatch", style: `background:${COLORS[cur] || "#999"}` }),
    mine ? t("your_turn") : t("waiting_for", { name: seatName(cur) }),
    " · ", v.round === 0 ? t("draft_round") : t("round_n", { n: v.round, total: G().board.rounds || 10 })));
  if (!mine) return panel;
  if (v.round === 0) { panel.append(h("p", { class: "hint" }, t("hint_draft"))); return panel; }
  // acting vehicle
  const hasVeh = (veh) => APP.legal.some((a) => a.vehicle === veh && a.type !== "move");
  const vs = h("div", { class: "veh-switch", role: "radiogroup", "aria-label": t("acting_vehicle") }, h("span", { class: "lbl" }, t("acting_vehicle")));
  for (const veh of ["ship", "sled"]) {
    const b = h("button", { class: "btn small" + (APP.vehicle === veh ? " on" : ""), role: "radio", "aria-checked": APP.vehicle === veh ? "true" : "false",
      disabled: !hasVeh(veh) }, t(veh));
    b.addEventListener("click", () => { APP.vehicle = veh; renderGame(); });
    vs.append(b);
  }
  // cost line
  panel.append(h("div", { class: "row" }, vs, h("div", { class: "costs" }, h("span", { class: "lbl" }, v.acted > 0 ? t("next_cost_more") : t("next_cost")),
    ["draw", "place", "move", "transfer", "discover", "explore"].map((k) => h("span", { class: "cost-item", title: t("cost_rule", { act: t(`act_${k}`), base: BASE_COST[k], now: nextCost(k) }) }, t(`act_${k}`), " ", costTag(k))))));
  // buttons
  const row = h("div", { class: "row buttons" });
  for (const veh of ["ship", "sled"]) {
    if (APP.legal.some((a) => a.type === "move" && a.vehicle === veh)) {
      row.append(h("button", { class: "btn" + (APP.sel && APP.sel.mode === "move" && APP.sel.vehicle === veh ? " on" : ""),
        onclick: () => { APP.sel = APP.sel && APP.sel.mode === "move" && APP.sel.vehicle === veh ? null : { mode: "move", vehicle: veh }; renderGame(); } },
      t(veh === "ship" ? "move_ship" : "move_sled"), costTag("move")));
    }
  }
  for (const a of APP.legal.filter((a) => a.type === "explore" || a.type === "discover")) {
    row.append(h("button", { class: "btn", onclick: () => sendAction(a) }, t(`${a.type}_tok`, { tok: t(`tok_${a.token}`), veh: t(a.vehicle) }), costTag(a.type)));
  }
  if (legalOf("transfer").length) row.append(h("button", { class: "btn", onclick: openTransfer }, t("transfer"), costTag("transfer")));
  const end = APP.legal.find((a) => a.type === "end_turn");
  if (end) row.append(h("button", { class: "btn", onclick: () => sendAction(end) }, t("end_turn")));
  const pass = APP.legal.find((a) => a.type === "pass");
  if (pass) row.append(h("button", { class: "btn warn", onclick: () => { if (v.acted > 0 || confirm(t("confirm_pass"))) sendAction(pass); } }, t("pass")));
  if (APP.msg && APP.msg.can_undo) row.append(h("button", { class: "btn", "data-testid": "undo", onclick: sendUndo }, "↶ ", t("undo")));
  panel.append(row);
  // place controls
  if (APP.sel && APP.sel.mode === "place") {
    const sel = APP.sel, n = placementsFor(sel).length;
    const large = G().tiles[sel.tileIdx].size === 2;
    panel.append(h("div", { class: "place-ctl" },
      tileThumb(sel.tileIdx, sel.side, sel.rot, 26),
      h("span", {}, `${tileName(sel.tileIdx)}${large ? " · " + t("side") + " " + sel.side.toUpperCase() : ""}`),
      h("button", { id: "btn-rot", class: "btn small", onclick: () => rotateSel(1), title: "R" }, "⟳ ", t("rotate"), " (R)"),
      large ? h("button", { id: "btn-flip", class: "btn small", onclick: flipSel, title: "F" }, "⇋ ", t("flip"), " (F)") : null,
      n ? h("button", { class: "btn small primary", onclick: placeCurrent }, t("place_here"), " (Enter)") : null,
      h("button", { class: "btn small", onclick: cancelSel, title: "Esc" }, t("cancel"), " (Esc)"),
      h("span", { class: n ? "ok" : "warn-text" }, n ? t("n_positions", { n }) : t("no_positions")),
      h("span", { class: "muted" }, t("place_cost", { n: nextCost("place") }))));
  } else if (APP.sel && APP.sel.mode === "move") {
    panel.append(h("p", { class: "hint" }, t("hint_move")));
  } else if (legalOf("place").length) {
    panel.append(h("p", { class: "hint" }, t("hint_place")));
  }
  return panel;
}

// Returning to Greenland ends your expedition (you sit out every later round): ask first.
function sendMove(a) {
  const v = APP.view, ret = v.returned && APP.seat != null ? v.returned[APP.seat] : 0;
  if (a.to === "greenland" && !ret && !confirm(t("confirm_return", { veh: t(a.vehicle) }))) return;
  sendAction(a);
}
function selectTile(ti) {
  if (APP.sel && APP.sel.mode === "place" && APP.sel.tileIdx === ti) { APP.sel = null; renderGame(); return; }
  // start with the first orientation that has a legal position
  const id = tileName(ti);
  const veh = vehicleFor("place", (a) => a.tile === id);
  APP.vehicle = veh;
  const first = APP.legal.find((a) => a.type === "place" && a.tile === id && a.vehicle === veh);
  APP.sel = { mode: "place", tileIdx: ti, rot: first ? first.rotation : 0, side: first ? first.side || "a" : "a" };
  APP.placeIdx = 0; APP.hover = null;
  renderGame();
}
function rotateSel(d) { if (!APP.sel || APP.sel.mode !== "place") return; APP.sel.rot = (APP.sel.rot + d + 4) % 4; APP.placeIdx = 0; renderGame(); }
function flipSel() {
  if (!APP.sel || APP.sel.mode !== "place" || G().tiles[APP.sel.tileIdx].size !== 2) return;
  APP.sel.side = APP.sel.side === "a" ? "b" : "a"; APP.placeIdx = 0; renderGame();
}
function placeCurrent() {
  const sel = APP.sel; if (!sel || sel.mode !== "place") return;
  const p = currentPlacement(placementsFor(sel), orient(orientOf(sel.tileIdx, sel.side, sel.rot)));
  if (p) sendAction(p);
}
function cancelSel() { APP.sel = null; APP.hover = null; renderGame(); }

// The transfer dialog: the two columns side by side, each count with − / + steppers
// (what leaves one column joins the other), the resulting crew as dots; OK sends the
// legal transfer with that split (the engine's reason shows when there is none).
function openTransfer() {
  const opts = legalOf("transfer");
  if (!opts.length) return;
  const v = APP.view, cr = crewOf(v, APP.seat), color = COLORS[APP.seat];
  const cost = nextCost("transfer");
  const totA = cr.shipA + cr.sledA - cost, totR = cr.shipR + cr.sledR + cost;
  const dist = (a) => Math.abs(a.sled.available - cr.sledA) + Math.abs(a.sled.resting - cr.sledR);
  const start = opts.slice().sort((x, y) => dist(x) - dist(y))[0];
  const cur = { sa: start.sled.available, sr: start.sled.resting };
  const find = () => {
    const same = opts.filter((a) => a.sled.available === cur.sa && a.sled.resting === cur.sr);
    return same.find((a) => a.vehicle === APP.vehicle) || same[0] || null;
  };
  const dlg = h("dialog", { class: "dialog transfer", "aria-label": t("transfer") });
  const body = h("div", { class: "tr-cols" });
  const status = h("p", { class: "tr-status", "aria-live": "polite" });
  const ok = h("button", { class: "btn primary", "data-testid": "tr-ok" }, t("ok"));
  const close = () => { dlg.close(); dlg.remove(); };
  const stepper = (field, kind, state) => {
    // field: "sa" (available) or "sr" (resting); the ship column holds the rest
    const max = field === "sa" ? totA : totR;
    const val = kind === "sled" ? cur[field] : max - cur[field];
    const dec = () => { cur[field] += kind === "sled" ? -1 : 1; draw(); };
    const inc = () => { cur[field] += kind === "sled" ? 1 : -1; draw(); };
    return h("div", { class: "tr-row", "data-row": state },
      h("span", { class: "lbl" }, t(state)),
      h("button", { class: "btn step", type: "button", "aria-label": `${t(kind)} ${t(state)} −`, "data-testid": `tr-${kind}-${field}-minus`, disabled: val <= 0, onclick: dec }, "−"),
      dots(val, color, state === "available"),
      h("button", { class: "btn step", type: "button", "aria-label": `${t(kind)} ${t(state)} +`, "data-testid": `tr-${kind}-${field}-plus`, disabled: val >= max, onclick: inc }, "+"));
  };
  const draw = () => {
    body.replaceChildren(...["ship", "sled"].map((kind) => h("div", { class: "tr-col", "data-col": kind },
      h("div", { class: "crew-head" }, t(kind)), stepper("sa", kind, "available"), stepper("sr", kind, "resting"))));
    const a = find();
    ok.disabled = !a;
    if (a) { status.className = "tr-status ok"; status.textContent = t("transfer_pays", { veh: t(a.vehicle), n: cost }); return; }
    status.className = "tr-status warn-text";
    status.textContent = t("transfer_illegal");
    const probe = { type: "transfer", vehicle: APP.vehicle, sled: { available: cur.sa, resting: cur.sr } };
    checkAction(probe).then((r) => { if (r && !r.legal && find() === null && status.isConnected) status.textContent = `${t("transfer_illegal")} ${r.reason}`; });
  };
  ok.addEventListener("click", () => { const a = find(); if (!a) return; close(); sendAction(a); });
  dlg.append(
    h("h3", {}, t("transfer"), " ", costTag("transfer")),
    h("p", {}, t("transfer_help")),
    h("p", { class: "muted" }, t("now_crew", { sa: cr.sledA, sr: cr.sledR, ha: cr.shipA, hr: cr.shipR })),
    body, status,
    h("div", { class: "row" }, ok, h("button", { class: "btn", type: "button", onclick: close }, t("cancel"))));
  draw();
  document.body.append(dlg);
  dlg.addEventListener("cancel", () => dlg.remove());
  dlg.showModal();
  ok.focus();
}

// ------------------------------------------------------------------ event log & end of game

// The server may send events as {version, type, text} only: recover the fields we need from the text.
function normEvent(e) {
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
function eventText(e) {
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
  const key = (STR[placed] || STR_EN[placed]) && e.x != null ? placed : `ev_${e.type}`;
  if (STR[key] || STR_EN[key]) {
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
function reasonCategory(r) {
  if (/^\w+ ×\d$/.test(r)) return "cat_tokens";
  if (/^island/.test(r)) return "cat_islands";
  if (r === "northwest" || r === "greenland") return "cat_arrows";
  if (/majority$/.test(r)) return "cat_majorities";
  if (/sets$/.test(r)) return "cat_sets";
  if (/abandoned/.test(r)) return "cat_abandon";
  return "cat_other";
}
const LOG_SKIP = new Set(["CrewSpent", "DisplayRefilled"]);
// What a log line refers to on the board: squares, an arrow, a piece.
function eventRefs(e) {
  const D = APP.D; if (!D) return null;
  const tileSqs = (id) => { const ti = G().tileIndex[id]; return ti != null ? D.tileSquares.get(ti) || [] : []; };
  const toRefs = (to) => {
    if (to === "greenland" || to === "northwest") return { arrow: to };
    const m = /^(\d+),(\d+)$/.exec(String(to || ""));
    if (!m) return {};
    const ti = D.sqTile.get(`${m[1]},${m[2]}`);
    return { squares: ti != null ? D.tileSquares.get(ti) : [[Number(m[1]), Number(m[2])]] };
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
function chatTime(c) {
  if (!c.time) return null;
  const d = new Date(c.time);
  return isNaN(d) ? null : d.toLocaleTimeString(APP.lang, { hour: "2-digit", minute: "2-digit" });
}
// One feed: the events and the chat in time order (a chat line after the events of
// the version it was posted at; a line without a version at the end), with a filter.
function renderLog() {
  const box = $("#log"); if (!box) return;
  // the hovered line is about to be replaced (and will never see its mouseleave)
  if (APP.logHl) { APP.logHl = null; refreshBoard(); }
  box.replaceChildren();
  const f = APP.logFilter;
  const items = [];
  if (f !== "chat") APP.events.filter((e) => !LOG_SKIP.has(e.type)).slice(-150).forEach((e, k) => items.push({ key: e.version ?? 0, k, e }));
  if (f !== "events") APP.chat.forEach((c, k) => items.push({ key: c.version != null ? c.version + 0.5 : Infinity, k: 1e6 + k, c }));
  items.sort((x, y) => x.key - y.key || x.k - y.k);
  for (const it of items) {
    if (it.c) {
      const c = it.c, tm = chatTime(c);
      box.append(h("li", { class: "chat", style: c.seat != null ? `--pc:${COLORS[c.seat]}` : null },
        tm ? h("time", { class: "muted", datetime: c.time }, tm + " ") : null,
        h("b", {}, (c.name || (c.seat != null ? seatName(c.seat) : t("spectator"))) + ": "), c.text));
      continue;
    }
    const e = it.e, refs = eventRefs(e);
    const li = h("li", { class: `ev ev-${e.type}` + (refs ? " refs" : ""), style: e.seat != null ? `--pc:${COLORS[e.seat]}` : null }, eventText(e));
    if (refs) {
      li.addEventListener("mouseenter", () => { APP.logHl = refs; refreshBoard(); });
      li.addEventListener("mouseleave", () => { APP.logHl = null; refreshBoard(); });
    }
    box.append(li);
  }
  box.scrollTop = box.scrollHeight;
}
function logFilterBar() {
  return h("div", { class: "logfilter", role: "radiogroup", "aria-label": t("log_filter") },
    ["all", "events", "chat"].map((f) => h("button", {
      class: "btn tiny" + (APP.logFilter === f ? " on" : ""), role: "radio", "aria-checked": APP.logFilter === f ? "true" : "false",
      "data-filter": f, onclick: () => { APP.logFilter = f; $(".logfilter").replaceWith(logFilterBar()); renderLog(); },
    }, t(`log_${f}`))));
}

// A tie the rules do not break: equal top scores and the leader never returned to
// Greenland (returning first is the tie-break, §8.1).
function tiedTop(order, scores) {
  if (order.length < 2 || scores[order[0]] !== scores[order[1]]) return false;
  const ret = APP.view.returned || [];
  return !(ret[order[0]] > 0);
}

function endPanel() {
  const v = APP.view, n = v.players;
  const cats = ["cat_tokens", "cat_islands", "cat_arrows", "cat_majorities", "cat_sets", "cat_abandon", "cat_other"];
  const table = Array.from({ length: n }, () => Object.fromEntries(cats.map((c) => [c, 0])));
  // score over rounds
  let round = 0; const series = Array.from({ length: n }, () => [0]); const cum = Array(n).fill(0);
  const points = Array.from({ length: n }, () => [[0, 0]]);
  let final = false;
  for (const e of APP.events) {
    if (e.type === "RoundStarted" && e.round != null) round = e.round;
    if (e.type === "RoundEnded" && e.round != null) { for (let i = 0; i < n; i++) points[i].push([e.round, cum[i]]); }
    if (e.type === "ScoreChanged" && e.seat != null && table[e.seat]) {
      table[e.seat][reasonCategory(e.reason)] += e.delta; cum[e.seat] += e.delta;
      if (/majority|sets|abandoned/.test(e.reason)) final = true;
    }
  }
  // The server sends the whole game's score sources and per-round scores (its
  // event list is only the recent past); prefer them when present.
  const sources = APP.msg.score_sources;
  if (Array.isArray(sources) && sources.length === n) {
    for (let i = 0; i < n; i++) {
      for (const c of cats) table[i][c] = 0;
      for (const [reason, delta] of Object.entries(sources[i])) table[i][reasonCategory(reason)] += delta;
    }
  }
  const rounds = APP.msg.score_rounds;
  if (Array.isArray(rounds) && rounds.length) {
    for (let i = 0; i < n; i++) points[i] = [[0, 0], ...rounds.map((r) => [r.round, r.scores[i]])];
    round = rounds[rounds.length - 1].round;
  }
  const lastRound = Math.max(round, 1);
  for (let i = 0; i < n; i++) {
    if (!points[i].length || points[i][points[i].length - 1][0] < lastRound) points[i].push([lastRound, cum[i] - 0]);
  }
  // final point after end-game scoring
  const scores = APP.msg.scores || v.score;
  for (let i = 0; i < n; i++) points[i].push([lastRound + 1, scores[i]]);
  void series; void final;
  // The server's ranking applies the tie-break (who returned to Greenland first).
  const order = Array.isArray(APP.msg.ranking) && APP.msg.ranking.length === n
    ? APP.msg.ranking.slice()
    : [...Array(n).keys()].sort((a, b) => scores[b] - scores[a]);
  const tbl = h("table", { class: "breakdown" },
    h("thead", {}, h("tr", {}, h("th", {}, ""), order.map((i) => h("th", { style: `color:${COLORS[i]}` }, seatName(i))))),
    h("tbody", {}, cats.filter((c) => order.some((i) => table[i][c] !== 0)).map((c) =>
      h("tr", {}, h("th", {}, t(c)), order.map((i) => h("td", {}, String(table[i][c]))))),
    h("tr", { class: "total" }, h("th", {}, t("total")), order.map((i) => h("td", {}, String(scores[i]))))));
  return h("section", { class: "endgame" },
    h("h2", {}, t("game_over"), " — ", tiedTop(order, scores) ? t("tie") : t("winner", { name: seatName(order[0]) }), endLinks()),
    h("div", { class: "end-row" }, tbl, scoreChart(points, lastRound)));
}
function scoreChart(points, lastRound) {
  const Wc = 420, Hc = 230, pad = 32;
  const all = points.flat().map((p) => p[1]);
  const ymax = Math.max(10, ...all), ymin = Math.min(0, ...all);
  const X = (r) => pad + (r / (lastRound + 1)) * (Wc - pad - 10);
  const Y = (v) => Hc - pad + 8 - ((v - ymin) / (ymax - ymin)) * (Hc - pad - 22);
  const svg = s("svg", { viewBox: `0 0 ${Wc} ${Hc}`, width: Wc, height: Hc, class: "chart", role: "img", "aria-label": t("score_chart") });
  svg.append(s("line", { x1: pad, y1: Y(0), x2: Wc - 6, y2: Y(0), class: "axis" }));
  svg.append(s("line", { x1: pad, y1: 8, x2: pad, y2: Hc - pad + 8, class: "axis" }));
  for (let r = 0; r <= lastRound + 1; r++) svg.append(s("text", { x: X(r), y: Hc - 8, class: "tick" }, r === lastRound + 1 ? t("final_short") : String(r)));
  const step = ymax - ymin > 60 ? 20 : 10;
  for (let yv = Math.ceil(ymin / step) * step; yv <= ymax; yv += step) {
    svg.append(s("text", { x: pad - 5, y: Y(yv) + 3, class: "tick y" }, String(yv)));
    svg.append(s("line", { x1: pad, y1: Y(yv), x2: Wc - 6, y2: Y(yv), class: "grid" }));
  }
  points.forEach((pts, i) => {
    svg.append(s("polyline", { points: pts.map(([r, v]) => `${r3(X(r))},${r3(Y(v))}`).join(" "), fill: "none", stroke: COLORS[i], "stroke-width": 2.5 }));
    const [lr, lv] = pts[pts.length - 1];
    svg.append(s("circle", { cx: X(lr), cy: Y(lv), r: 3.5, fill: COLORS[i] }));
  });
  svg.insertBefore(s("text", { x: Wc / 2, y: 13, class: "chart-title" }, t("score_chart")), svg.firstChild);
  return svg;
}

// ------------------------------------------------------------------ tooltips, checks, turn alerts

const PHONE_MQ = typeof matchMedia === "function" ? matchMedia("(max-width: 600px)") : null;
function isPhone() { return !!(PHONE_MQ && PHONE_MQ.matches); }
if (PHONE_MQ && PHONE_MQ.addEventListener) PHONE_MQ.addEventListener("change", () => refreshBoard());

// What a token is worth and how it is taken (rules §7.F, §7.G), for tooltips.
function tokRule(kind, zone) {
  const tok = t(`tok_${kind}`);
  if (kind === "inuit" || kind === "cairn" || kind === "franklin" || kind === "strait") {
    const act = kind === "inuit" || kind === "cairn" ? "discover" : "explore";
    const mult = act === "discover" ? 2 : 1;
    const base = t(`tokrule_${act}`, { tok, cost: BASE_COST[act], mult });
    return zone ? `${base} ${t("tokrule_here", { pts: mult * zone, zone })}` : base;
  }
  if (kind === "cartography") return t("tokrule_cartography", { tok });
  return tok;
}

// The engine's verdict on an action that is not offered (POST /check), cached per
// game version: the tooltip of a spot that is not lit up says which rule forbids it.
function checkAction(action) {
  if (!APP.token) return Promise.resolve(null);
  const key = `${APP.version}|${JSON.stringify(action)}`;
  if (APP.checks.has(key)) return APP.checks.get(key);
  if (APP.checks.size > 400) APP.checks.clear();
  const q = `?token=${encodeURIComponent(APP.token)}`;
  const pr = fetch(`/api/games/${encodeURIComponent(APP.gameId)}/check${q}`, {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ action }),
  }).then((r) => (r.ok ? r.json() : null)).catch(() => null);
  APP.checks.set(key, pr);
  return pr;
}
// The action a spot of the board would be in the current selection (or null).
function spotAction(spot) {
  const sel = APP.sel; if (!sel || !isMyTurn()) return null;
  if (sel.mode === "place" && spot.sq) {
    return { type: "place", vehicle: APP.vehicle, tile: tileName(sel.tileIdx), x: spot.sq[0], y: spot.sq[1], rotation: sel.rot, side: sel.side };
  }
  if (sel.mode === "move") return { type: "move", vehicle: sel.vehicle, to: spot.arrow || spot.sq };
  return null;
}
function spotIsLit(spot) {
  const sel = APP.sel; if (!sel) return false;
  if (sel.mode === "move") {
    return APP.legal.some((a) => a.type === "move" && a.vehicle === sel.vehicle && (spot.arrow ? a.to === spot.arrow
      : Array.isArray(a.to) && APP.D.sqTile.get(`${a.to[0]},${a.to[1]}`) === APP.D.sqTile.get(spot.sq.join(",")) && APP.D.sqTile.has(spot.sq.join(","))));
  }
  const o = orient(orientOf(sel.tileIdx, sel.side, sel.rot));
  return !!spot.sq && placementsFor(sel).some((a) => spot.sq[0] >= a.x && spot.sq[0] < a.x + o.w && spot.sq[1] >= a.y && spot.sq[1] < a.y + o.h);
}
function tipEl() {
  let el = $("#tip");
  if (!el) { el = h("div", { id: "tip", role: "tooltip" }); document.body.append(el); }
  return el;
}
function hideTip() { const el = $("#tip"); if (el) { el.classList.remove("show"); el.dataset.spot = ""; } clearTimeout(APP.tipTimer); }
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
  const { W, H } = APP.D;
  if (pt.x >= 0 && pt.x < W && pt.y >= 0 && pt.y < H) return { sq: [Math.floor(pt.x), Math.floor(pt.y)] };
  for (const which of ["greenland", "northwest"]) {
    const { x, y, dir } = arrowGeom(which);
    const x0 = dir > 0 ? x : x - 1.3;
    if (pt.x >= x0 && pt.x <= x0 + 1.3 && pt.y >= y - 0.12 && pt.y <= y + 1.12) return { arrow: which };
  }
  return null;
}
function boardTip(svg, ev) {
  const spot = spotAt(svg, ev);
  if (!spot) { hideTip(); return; }
  const key = spot.arrow || spot.sq.join(",");
  const lines = [];
  const v = APP.view, D = APP.D;
  if (spot.arrow) {
    lines.push(h("strong", {}, t(spot.arrow === "greenland" ? "loc_greenland" : "loc_northwest")));
    lines.push(t(spot.arrow === "greenland" ? "arrow_rule_gl" : "arrow_rule_nw"));
  } else {
    const [x, y] = spot.sq;
    lines.push(h("strong", {}, placeAt(x, y)));
    lines.push(t("zone_rule", { zone: zoneOf(x) }));
    if (y < D.frozen) lines.push(t("frozen_here"));
    const bit = x + D.S * y;
    const kind = (v.board_tokens || {})[bit];
    if (kind) lines.push(tokRule(TOKENS[kind - 1], zoneOf(x)));
  }
  const ti = spot.arrow ? (spot.arrow === "greenland" ? LOC_GREENLAND : LOC_NORTHWEST) : D.sqTile.get(spot.sq.join(","));
  if (ti != null) {
    const here = [];
    for (let i = 0; i < v.players; i++) for (const kind of ["ship", "sled"]) if (locOf(v, i)[kind] === ti) here.push(`${seatName(i)}: ${t(kind)}`);
    if (here.length) lines.push(here.join(" · "));
  }
  const act = spotAction(spot);
  if (act && spotIsLit(spot)) lines.push(h("div", { class: "ok" }, t(APP.sel.mode === "move" ? "tip_can_move" : "tip_can_place")));
  else if (act) {
    const why = h("div", { class: "warn-text why", "data-testid": "tip-why" }, t("tip_checking"));
    lines.push(why);
    clearTimeout(APP.tipTimer);
    APP.tipTimer = setTimeout(() => {
      checkAction(act).then((r) => {
        const el = $("#tip");
        if (!el || el.dataset.spot !== key || !why.isConnected) return;
        why.textContent = r ? (r.legal ? t("tip_can_move") : t("tip_not_here", { why: r.reason })) : t("tip_unknown");
      });
    }, 180);
  }
  showTip(lines, ev.clientX, ev.clientY, key);
}

// Turn alerts: a short sound (WebAudio, mutable), a system notification when the tab
// is hidden (permission asked on a click only) and the title.
function soundOn() { return localStorage.getItem("erebus.sound") !== "off"; }
function ensureAudio() {
  if (APP.audio) return APP.audio;
  const AC = window.AudioContext || window.webkitAudioContext;
  if (!AC) return null;
  try { APP.audio = new AC(); } catch { APP.audio = null; }
  return APP.audio;
}
function beep() {
  const ac = ensureAudio(); if (!ac) return;
  try {
    if (ac.state === "suspended") ac.resume();
    const t0 = ac.currentTime;
    [[880, 0], [1175, 0.13]].forEach(([f, d]) => {
      const o = ac.createOscillator(), g = ac.createGain();
      o.frequency.value = f; o.type = "sine";
      g.gain.setValueAtTime(0.0001, t0 + d); g.gain.exponentialRampToValueAtTime(0.18, t0 + d + 0.02);
      g.gain.exponentialRampToValueAtTime(0.0001, t0 + d + 0.12);
      o.connect(g).connect(ac.destination); o.start(t0 + d); o.stop(t0 + d + 0.14);
    });
  } catch { /* no sound then */ }
  const root = document.documentElement;
  root.dataset.beeps = String(Number(root.dataset.beeps || 0) + 1);
}
function turnAlert() {
  const root = document.documentElement;
  root.dataset.turnAlerts = String(Number(root.dataset.turnAlerts || 0) + 1);
  if (soundOn()) beep();
  if (document.hidden && "Notification" in window && Notification.permission === "granted") {
    try { new Notification(t("your_turn"), { body: t("game_title"), tag: "erebus-turn" }); } catch { /* */ }
  }
}
// A bell drawn in SVG (emoji fonts are missing on many Linux desktops).
function bellIcon(muted) {
  return s("svg", { width: 16, height: 16, viewBox: "0 0 16 16", "aria-hidden": "true", class: "bell" },
    s("path", { d: "M8 1.5a1 1 0 0 1 1 1v.6a4.5 4.5 0 0 1 3.5 4.4v3l1.3 1.7H2.2l1.3-1.7v-3A4.5 4.5 0 0 1 7 3.1v-.6a1 1 0 0 1 1-1z", fill: "currentColor" }),
    s("path", { d: "M6.3 13.4a1.8 1.8 0 0 0 3.4 0z", fill: "currentColor" }),
    muted ? s("line", { x1: 2, y1: 14.5, x2: 14, y2: 1.5, stroke: "#c8412f", "stroke-width": 1.8 }) : null);
}
function alertButtons() {
  const on = soundOn();
  const sound = h("button", { class: "btn small", id: "soundbtn", "aria-pressed": on ? "true" : "false",
    title: on ? t("sound_on") : t("sound_off"), "aria-label": on ? t("sound_on") : t("sound_off"),
    onclick: () => { localStorage.setItem("erebus.sound", on ? "off" : "on"); if (!on) ensureAudio(); $("#alertbtns").replaceWith(alertButtons()); } },
  bellIcon(!on));
  const canAsk = "Notification" in window && Notification.permission === "default";
  const notify = canAsk ? h("button", { class: "btn small", id: "notifybtn", title: t("notify_ask"),
    onclick: () => { try { Notification.requestPermission().then(() => $("#alertbtns") && $("#alertbtns").replaceWith(alertButtons())); } catch { /* */ } } }, t("notify_short")) : null;
  return h("span", { id: "alertbtns", class: "alertbtns" }, sound, notify);
}

// ------------------------------------------------------------------ page: game

function toast(msg) {
  let el = $("#toast");
  if (!el) { el = h("div", { id: "toast", role: "status", "aria-live": "polite" }); document.body.append(el); }
  el.textContent = msg; el.classList.add("show");
  clearTimeout(APP.toastTimer); APP.toastTimer = setTimeout(() => el.classList.remove("show"), 4500);
}
function renderStatusDot() {
  const d = $("#conn"); if (!d) return;
  d.className = APP.wsOk ? "conn ok" : "conn";
  d.title = APP.wsOk ? t("connected") : t("offline_polling");
}
function refreshBoard() {
  const wrap = $("#boardwrap"); if (!wrap || !APP.view) return;
  wrap.replaceChildren(renderBoard());
  runGlides();
}

function gameShell() {
  document.body.replaceChildren(
    h("header", { class: "topbar" },
      h("a", { href: "/", class: "brand" }, "erebus"),
      h("span", { class: "title" }, t("game_title")),
      h("span", { id: "roundinfo" }),
      h("span", { class: "spacer" }),
      h("span", { id: "conn", class: "conn" }),
      alertButtons(),
      h("button", { class: "btn small", id: "helpbtn", onclick: () => toast(t("keys_help")) }, "?"),
      langSwitcher(() => { gameShell(); renderGame(); })),
    h("main", { class: "game" },
      h("div", { class: "left" },
        h("div", { id: "boardwrap", class: "boardwrap" }),
        h("div", { id: "sunwrap" }),
        h("div", { id: "under" })),
      h("aside", { class: "right" },
        h("div", { id: "players" }),
        h("div", { class: "logbox" },
          h("div", { class: "loghead" }, h("h3", {}, t("log")), logFilterBar()),
          h("ol", { id: "log", class: "log", "aria-live": "polite" }),
          // Spectators read the chat (its recent history comes on connecting) but do not post.
          APP.token
            ? h("form", { class: "chatform", onsubmit: (e) => { e.preventDefault(); const i = $("#chatin"); if (i.value.trim()) sendChat(i.value.trim()); i.value = ""; } },
              h("input", { id: "chatin", placeholder: t("chat_placeholder"), "aria-label": t("chat_placeholder"), maxlength: CHAT_MAX }),
              h("button", { class: "btn small" }, t("send")))
            : h("p", { class: "chatnote", "data-testid": "chat-spectator" }, t("chat_spectator"))))));
  renderStatusDot();
}

function renderGame() {
  if (!APP.view) return;
  if (!$("#boardwrap")) gameShell();
  const v = APP.view;
  APP.D = derive(v);
  const ri = $("#roundinfo");
  ri.textContent = (v.round === 0 ? t("draft_round") : `${t("round_n", { n: v.round, total: G().board.rounds || 10 })} · ${t("sun")} ${ROMAN[v.sun]}`)
    + (APP.seat == null ? ` · ${t("spectator")}` : "");
  seededBadge(ri);
  const active = document.activeElement && document.activeElement.id;
  refreshBoard();
  $("#sunwrap").replaceChildren(sunPanel(v.sun));
  const under = $("#under");
  under.replaceChildren(...(v.over ? [endPanel()] : []), actionPanel(), supplyPanel());
  let order = v.order && v.order.length ? [...v.order] : [...Array(v.players).keys()];
  for (let i = 0; i < v.players; i++) if (!order.includes(i)) order.push(i);
  if (APP.seat != null) order = [APP.seat, ...order.filter((i) => i !== APP.seat)]; // your board on top, always in view
  $("#players").replaceChildren(...order.map((i) => playerBoard(i)));
  renderLog();
  if (active) { const el = document.getElementById(active); if (el) el.focus(); }
  document.title = isMyTurn() ? `● ${t("your_turn")} — erebus` : `${t("game_title")} — erebus`;
}

function onKey(e) {
  if (!APP.view) return;
  const tag = (e.target && e.target.tagName) || "";
  if (tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT") return;
  const k = e.key;
  if (k === "Escape") { if (APP.sel) { cancelSel(); e.preventDefault(); } return; }
  if (!APP.sel || APP.sel.mode !== "place") return;
  if (k === "r" || k === "R") { rotateSel(e.shiftKey ? -1 : 1); e.preventDefault(); }
  else if (k === "f" || k === "F") { flipSel(); e.preventDefault(); }
  else if (k === "ArrowRight" || k === "ArrowDown" || k === "]") { APP.hover = null; APP.placeIdx++; refreshBoard(); e.preventDefault(); }
  else if (k === "ArrowLeft" || k === "ArrowUp" || k === "[") { APP.hover = null; APP.placeIdx--; refreshBoard(); e.preventDefault(); }
  else if (k === "Enter" && (tag !== "BUTTON" || e.target.classList.contains("res-tile"))) { placeCurrent(); e.preventDefault(); }
}

async function startGame(id, token) {
  APP.gameId = id; APP.token = token;
  document.body.replaceChildren(h("p", { class: "loading" }, t("loading")));
  document.addEventListener("keydown", onKey);
  // Browsers start sound only after a gesture: make the audio context on the first one.
  const unlock = () => { if (soundOn()) { const ac = ensureAudio(); if (ac && ac.state === "suspended") ac.resume(); } };
  document.addEventListener("pointerdown", unlock, { once: true });
  addEventListener("scroll", hideTip, { passive: true });
  document.addEventListener("keydown", unlock, { once: true });
  try {
    const m = await fetchState();
    onServerMessage(m);
  } catch (e) {
    document.body.replaceChildren(h("div", { class: "lobby" }, h("h2", {}, t("error_load")), h("p", {}, String(e.message || e)), h("a", { href: "/" }, t("back_lobby"))));
    return;
  }
  rememberGame({ id, token });
  connectWS();
}

// ------------------------------------------------------------------ page: lobby

function myGames() { try { return JSON.parse(localStorage.getItem("erebus.games") || "[]"); } catch { return []; } }
function saveGames(list) { localStorage.setItem("erebus.games", JSON.stringify(list.slice(0, 30))); }
function rememberGame(g) {
  // On a game page the payload says whether the game is seeded and over.
  if (APP.msg && APP.msg.id === g.id) {
    g = { ...g, ...(APP.msg.seeded != null ? { seeded: !!APP.msg.seeded } : {}), status: APP.msg.is_over ? "over" : "active" };
  }
  const list = myGames();
  const k = list.findIndex((x) => x.id === g.id);
  if (k >= 0) list[k] = { ...list[k], ...g, seen: Date.now() };
  else list.unshift({ ...g, created: Date.now(), seen: Date.now() });
  saveGames(list);
}
const abs = (u) => new URL(u, location.origin).href;
function seatUrl(id, token) { return `/game/${encodeURIComponent(id)}?token=${encodeURIComponent(token)}`; }
function replayUrl(id, step) { return `/replay/${encodeURIComponent(id)}${step != null ? `?step=${step}` : ""}`; }

// The game's options in the lobby: seconds, null = off / none.
const GRACE_CHOICES = [60, 300, 1800, 86400, null];
const CLOCK_CHOICES = [null, 60, 300, 900, 86400];
const NAME_MAX = 24; // characters of a seat's name (the server's limit)
function durText(sec, none) {
  if (sec == null) return t(none);
  return sec >= 86400 ? t("dur_day") : t("dur_min", { n: Math.round(sec / 60) });
}
function lobbyOptions() {
  let o = null;
  try { o = JSON.parse(localStorage.getItem("erebus.lobbyOptions") || "null"); } catch { o = null; }
  o = o && typeof o === "object" ? o : {};
  return {
    takeover_grace_s: GRACE_CHOICES.includes(o.takeover_grace_s) ? o.takeover_grace_s : 300,
    clock_s: CLOCK_CHOICES.includes(o.clock_s) ? o.clock_s : null,
    autopilot_level: ["easy", "medium", "hard"].includes(o.autopilot_level) ? o.autopilot_level : "medium",
    seed: typeof o.seed === "string" ? o.seed : "",
  };
}
function seededBadgeEl(seeded) {
  if (!seeded) return null;
  return h("span", { class: "badge seeded", title: t("seeded_tip"), "data-testid": "seeded" }, t("seeded"));
}
// The game page's header: the "seeded" badge (one call from renderGame).
function seededBadge(after) {
  const old = $("#seeded-badge"); if (old) old.remove();
  const b = seededBadgeEl(APP.msg && APP.msg.seeded);
  if (b && after) { b.id = "seeded-badge"; after.after(b); }
}

// Rematch: the server makes a new game with the same seats and tokens (409 until the
// game is over); we open it with the same token.  Shared by the lobby and the end screen.
async function requestRematch(id, token) {
  try {
    const r = await fetch(`/api/games/${encodeURIComponent(id)}/rematch?token=${encodeURIComponent(token)}`, { method: "POST" });
    const txt = await r.text();
    if (!r.ok) { toast(t("error_rematch", { msg: errText(txt) })); return null; }
    const g = JSON.parse(txt);
    const old = myGames().find((x) => x.id === id) || {};
    const seats = (old.seats || []).map((st) => ({ ...st, url: st.token ? abs(seatUrl(g.id, st.token)) : st.url }));
    rememberGame({ id: g.id, token, seats, spectator_url: abs(g.spectator_url || `/game/${encodeURIComponent(g.id)}`), seeded: false, status: "active" });
    location.href = seatUrl(g.id, token);
    return g;
  } catch (e) { toast(t("error_rematch", { msg: String(e.message || e) })); return null; }
}
// The end screen's links (one call from endPanel): the rematch and the replay.
function endLinks() {
  const id = APP.gameId || (APP.msg && APP.msg.id);
  if (!id) return null;
  return h("span", { class: "end-links" },
    APP.token ? h("button", { class: "btn", "data-testid": "rematch", onclick: () => requestRematch(id, APP.token) }, "↻ ", t("rematch")) : null,
    h("a", { class: "btn", href: replayUrl(id), "data-testid": "replay-link" }, "▶ ", t("replay")));
}

function renderLobby() {
  const seats = JSON.parse(localStorage.getItem("erebus.lobbySeats") || "null") || [
    { kind: "human" }, { kind: "bot", level: "medium" }, { kind: "bot", level: "medium" }];
  const opts = lobbyOptions();
  const form = h("form", { class: "card create", onsubmit: (e) => { e.preventDefault(); createGame(seats, opts); } });
  const seatsBox = h("div", { class: "seats" });
  const countSel = h("select", { id: "nplayers", "aria-label": t("players") }, [2, 3, 4].map((n) => h("option", { value: n, selected: n === seats.length }, String(n))));
  const drawSeats = () => {
    seatsBox.replaceChildren(...seats.map((st, i) => {
      const kind = h("select", { "aria-label": t("seat_n", { n: i + 1 }) },
        h("option", { value: "human", selected: st.kind === "human" }, t("human")),
        h("option", { value: "bot", selected: st.kind === "bot" }, t("bot")));
      const level = h("select", { "aria-label": t("level"), disabled: st.kind !== "bot" },
        ["easy", "medium", "hard"].map((l) => h("option", { value: l, selected: (st.level || "medium") === l }, t(`level_${l}`))));
      kind.addEventListener("change", () => { st.kind = kind.value; if (st.kind === "bot") st.level = st.level || "medium"; else delete st.level; drawSeats(); });
      level.addEventListener("change", () => { st.level = level.value; });
      const name = st.kind === "human"
        ? h("input", { class: "seat-name", maxlength: NAME_MAX, value: st.name || "", placeholder: t("player_n", { n: i + 1 }),
          "aria-label": `${t("seat_n", { n: i + 1 })}: ${t("seat_name")}`, title: t("seat_name"), oninput: (e) => { st.name = e.target.value; } })
        : null;
      // A bot seat keeps its level select; a human seat shows its name field instead.
      return h("div", { class: "seat", style: `--pc:${COLORS[i]}` }, h("span", { class: "swatch" }), h("label", {}, t("seat_n", { n: i + 1 })), kind,
        st.kind === "bot" ? level : name);
    }));
  };
  countSel.addEventListener("change", () => {
    const n = Number(countSel.value);
    while (seats.length < n) seats.push({ kind: "bot", level: "medium" });
    seats.length = n; drawSeats();
  });
  drawSeats();
  const optRow = (id, label, help, control) => h("div", { class: "opt" },
    h("label", { for: id }, label), control, h("p", { class: "opt-help", id: `${id}-help` }, help));
  const choice = (id, values, current, none, onPick) => {
    const sel = h("select", { id, "aria-describedby": `${id}-help` },
      values.map((v) => h("option", { value: v == null ? "" : String(v), selected: v === current }, durText(v, none))));
    sel.addEventListener("change", () => onPick(sel.value === "" ? null : Number(sel.value)));
    return sel;
  };
  const graceSel = choice("opt-grace", GRACE_CHOICES, opts.takeover_grace_s, "dur_off", (v) => { opts.takeover_grace_s = v; });
  const clockSel = choice("opt-clock", CLOCK_CHOICES, opts.clock_s, "dur_none", (v) => { opts.clock_s = v; });
  const apSel = h("select", { id: "opt-autopilot", "aria-describedby": "opt-autopilot-help" },
    ["easy", "medium", "hard"].map((l) => h("option", { value: l, selected: opts.autopilot_level === l }, t(`level_${l}`))));
  apSel.addEventListener("change", () => { opts.autopilot_level = apSel.value; });
  const seedIn = h("input", { id: "opt-seed", inputmode: "numeric", maxlength: 19, value: opts.seed, placeholder: t("seed_random"),
    "aria-describedby": "opt-seed-help", oninput: (e) => { opts.seed = e.target.value.trim(); } });
  const advanced = h("details", { class: "advanced", open: opts.seed ? true : null },
    h("summary", {}, t("advanced")),
    optRow("opt-seed", t("opt_seed"), t("opt_seed_help"), seedIn));
  form.append(h("h2", {}, t("new_game")), h("label", { class: "inline" }, t("players"), " ", countSel),
    seatsBox, h("p", { class: "opt-help" }, t("seats_help")),
    h("fieldset", { class: "options" }, h("legend", {}, t("options")),
      optRow("opt-grace", t("opt_grace"), t("opt_grace_help"), graceSel),
      optRow("opt-clock", t("opt_clock"), t("opt_clock_help"), clockSel),
      optRow("opt-autopilot", t("opt_autopilot"), t("opt_autopilot_help"), apSel),
      advanced),
    h("button", { class: "btn primary", type: "submit" }, t("create")));
  const result = h("div", { id: "created" });
  const list = h("section", { class: "card", id: "mygames" });
  document.body.replaceChildren(
    h("header", { class: "topbar wrapbar" }, h("a", { href: "/", class: "brand" }, "erebus"), h("span", { class: "title" }, t("game_title")),
      h("span", { class: "spacer" }), langSwitcher(renderLobby)),
    h("main", { class: "lobby" }, h("p", { class: "intro" }, t("intro")), form, result, list));
  renderMyGames();
  refreshMyGames();
}

// Ask the server which of my games are over (tokens: one call; games without a token of
// mine, e.g. bots only: the spectator payload), then draw the list again.
let myGamesStatus = {};
async function refreshMyGames() {
  const games = myGames();
  const tokens = [...new Set(games.flatMap((g) => [g.token, ...(g.seats || []).map((st) => st.token)]).filter(Boolean))].slice(0, 50);
  const found = {};
  try {
    if (tokens.length) {
      const r = await fetch(`/api/games?tokens=${tokens.map(encodeURIComponent).join(",")}`);
      if (r.ok) for (const g of (await r.json()).games || []) found[g.id] = { status: g.status, rematch: g.rematch };
    }
    await Promise.all(games.filter((g) => !found[g.id] && !(g.seats || []).some((st) => st.token) && !g.token).slice(0, 10).map(async (g) => {
      const r = await fetch(`/api/games/${encodeURIComponent(g.id)}`);
      if (r.ok) { const m = parseJSON(await r.text()); found[g.id] = { status: m.is_over ? "over" : "active", seeded: m.seeded }; }
    }));
  } catch { /* offline: the list stays as stored */ }
  myGamesStatus = found;
  renderMyGames();
}
function renderMyGames() {
  const box = $("#mygames"); if (!box) return;
  const games = myGames();
  box.replaceChildren(h("h2", {}, t("my_games")),
    games.length ? h("ul", { class: "games" }, games.map((g) => {
      const st = { ...g, ...(myGamesStatus[g.id] || {}) };
      const over = st.status === "over";
      const token = g.token || ((g.seats || []).find((x) => x.token) || {}).token;
      return h("li", { "data-game": g.id },
        h("code", {}, g.id), " ",
        h("small", { class: "muted" }, new Date(g.created || g.seen || Date.now()).toLocaleString(APP.lang)), " ",
        st.status ? h("span", { class: `badge status-${over ? "over" : "active"}` }, t(over ? "status_over" : "status_active")) : null,
        seededBadgeEl(st.seeded),
        (g.seats || []).length
          ? (g.seats || []).filter((x) => x.human !== false).map((x) => h("a", { href: x.url || seatUrl(g.id, x.token), class: "pill" }, x.name || t("seat_n", { n: x.seat + 1 })))
          : h("a", { href: seatUrl(g.id, g.token), class: "pill" }, t("open")),
        g.spectator_url ? h("a", { href: g.spectator_url, class: "pill" }, t("spectate")) : null,
        over ? h("a", { href: replayUrl(g.id), class: "pill", "data-testid": "replay-link" }, t("replay")) : null,
        over && token ? h("button", { class: "btn tiny", type: "button", "data-testid": "rematch", onclick: () => requestRematch(g.id, token) }, "↻ ", t("rematch")) : null,
        h("button", { class: "btn tiny", onclick: () => { saveGames(myGames().filter((x) => x.id !== g.id)); renderMyGames(); }, "aria-label": t("forget"), title: t("forget") }, "×"));
    }))
      : h("p", { class: "muted" }, t("no_games")));
}

async function createGame(seats, opts) {
  localStorage.setItem("erebus.lobbySeats", JSON.stringify(seats));
  localStorage.setItem("erebus.lobbyOptions", JSON.stringify({ ...opts, seed: "" })); // a seed is for one game
  const box = $("#created");
  const seed = (opts.seed || "").trim();
  // The seed travels as JSON digits (it may exceed 2^53, which a JS number would round).
  if (seed && (!/^\d{1,19}$/.test(seed) || BigInt(seed) >= 2n ** 63n)) {
    box.replaceChildren(h("p", { class: "warn-text", role: "alert" }, t("seed_invalid")));
    return;
  }
  const body = {
    game: "northwest", players: seats.length,
    seats: seats.map((st) => {
      if (st.kind === "bot") return { kind: "bot", level: st.level || "medium" };
      const name = (st.name || "").trim().slice(0, NAME_MAX);
      return name ? { kind: "human", name } : { kind: "human" };
    }),
    options: { takeover_grace_s: opts.takeover_grace_s, clock_s: opts.clock_s, autopilot_level: opts.autopilot_level },
  };
  let json = JSON.stringify(body);
  if (seed) json = json.slice(0, -1) + `,"seed":${seed}}`;
  box.replaceChildren(h("p", {}, t("creating")));
  try {
    const r = await fetch("/api/games", { method: "POST", headers: { "Content-Type": "application/json" }, body: json });
    if (!r.ok) throw new Error(errText(await r.text()));
    const g = await r.json();
    const seeded = g.seeded != null ? !!g.seeded : !!seed;
    const seatsOut = (g.seats || []).map((st) => ({ seat: st.seat, token: st.token, human: !seats[st.seat] || seats[st.seat].kind === "human",
      name: body.seats[st.seat] && body.seats[st.seat].name, url: st.url ? abs(st.url) : abs(seatUrl(g.id, st.token)) }));
    const spec = g.spectator_url ? abs(g.spectator_url) : abs(`/game/${encodeURIComponent(g.id)}`);
    const list = myGames().filter((x) => x.id !== g.id);
    const humanSeat = seatsOut.find((st) => seats[st.seat] && seats[st.seat].kind === "human");
    list.unshift({ id: g.id, created: Date.now(), seats: seatsOut, spectator_url: spec, token: humanSeat && humanSeat.token, seeded, status: "active" });
    saveGames(list);
    const linkRow = (label, url, who) => h("div", { class: "linkrow" }, h("span", { class: "lbl" }, label),
      who ? h("span", { class: "who" }, who) : null,
      h("input", { value: url, readonly: true, "aria-label": label, onfocus: (e) => e.target.select() }),
      h("button", { class: "btn small", type: "button", onclick: () => navigator.clipboard && navigator.clipboard.writeText(url).then(() => toast(t("copied"))) }, t("copy")),
      h("a", { href: url, class: "btn small" }, t("open")));
    box.replaceChildren(h("section", { class: "card" }, h("h2", {}, t("game_created"), " ", seededBadgeEl(seeded)), h("p", { class: "muted" }, t("invite_help")),
      seatsOut.filter((st) => !seats[st.seat] || seats[st.seat].kind === "human").map((st) => linkRow(t("seat_n", { n: st.seat + 1 }), st.url, st.name)),
      linkRow(t("spectator"), spec)));
    renderMyGames();
  } catch (e) {
    box.replaceChildren(h("p", { class: "warn-text" }, t("error_create", { msg: e.message || e })));
  }
}

// The replay page (replay.js) draws with the game page's own functions.
function replayKit() {
  return { APP, h, s, t, $, G, COLORS, ROMAN, LOG_SKIP, langSwitcher, parseJSON, derive, renderBoard, playerBoard, supplyPanel,
    seatName, eventText, normEvent, errText, toast, seededBadgeEl, replayUrl };
}

// ------------------------------------------------------------------ boot

async function main() {
  APP.lang = pickLang();
  await loadLang(APP.lang);
  const params = new URLSearchParams(location.search);
  const rp = /^\/replay\/([^/?#]+)/.exec(location.pathname);
  if (rp) {
    await loadContent();
    const { startReplay } = await import("./replay.js");
    await startReplay(decodeURIComponent(rp[1]), replayKit());
    return;
  }
  const m = /\/game\/([^/?#]+)/.exec(location.pathname);
  const id = m ? decodeURIComponent(m[1]) : params.get("game");
  if (id) {
    await loadContent();
    await startGame(id, params.get("token"));
  } else {
    renderLobby();
  }
}
main();

export { landPath, parseJSON, derive };
