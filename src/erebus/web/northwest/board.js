// Northwest's board for the browser client (web_board "northwest"): the interface
// core/boards.js documents, over this folder's drawing, panels and dialogs.

import { APP } from "../core/state.js";
import { t } from "../core/i18n.js";
import { face, loadContent, ROMAN, tileIdx } from "./content.js";
import { derive } from "./terrain.js";
import { UI, myReserve } from "./ui.js";
import { refresh } from "./draw.js";
import { actionPanel, playerBoard, sunPanel, supplyPanel } from "./panels.js";
import { endPanel } from "./end.js";
import { hideTip } from "./tips.js";
import { onPhoneChange } from "./layout.js";
import { placeOfTo } from "./places.js";
import { cancelSel, flipSel, placeCurrent, rotateSel } from "./selection.js";

export { LOG_SKIP, eventRefs, eventText, normEvent } from "./events.js";
export { refresh, supplyPanel };

export async function load() {
  await loadContent();
  addEventListener("scroll", hideTip, { passive: true });
  onPhoneChange(() => refresh());
}

export function prepare() { UI.D = derive(APP.view); }

export function roundText() {
  const v = APP.view;
  return v.round === 0 ? t("draft_round") : `${t("round_n", { n: v.round, total: v.rounds })} · ${t("sun")} ${ROMAN[v.sun]}`;
}

// The seats' boards in turn order, your own on top (always in view).
export function playerBoards() {
  const v = APP.view;
  let order = v.order && v.order.length ? [...v.order] : [...Array(v.players).keys()];
  for (let i = 0; i < v.players; i++) if (!order.includes(i)) order.push(i);
  if (APP.seat != null) order = [APP.seat, ...order.filter((i) => i !== APP.seat)];
  return order.map((i) => playerBoard(i));
}

export function renderTable({ sun, under, players }) {
  const v = APP.view;
  sun.replaceChildren(sunPanel(v.sun));
  under.replaceChildren(...(v.over ? [endPanel()] : []), actionPanel(), supplyPanel());
  players.replaceChildren(...playerBoards());
}

// A new state: keep a selection only if it is still meaningful.
export function onState() {
  if (UI.sel && UI.sel.mode === "place" && !myReserve().includes(UI.sel.tileIdx)) UI.sel = null;
  if (!APP.legal.length) UI.sel = null;
}
export function onSend() { UI.sel = null; UI.hover = null; }

// What a hovered log line names (null: nothing), drawn over the board.
export function highlight(refs) {
  if (!refs && !UI.logHl) return;
  UI.logHl = refs;
  refresh();
}

// What a hint's action (core/hint.js) names on the board, for highlight(): the squares
// a placement covers, a move's destination, the acting vehicle; null: nothing drawn
// (a draw from the display or a pile, end turn, pass: the words say it).
export function hintRefs(a) {
  if (!a || !UI.D) return null;
  const piece = APP.seat != null && a.vehicle ? { seat: APP.seat, kind: a.vehicle } : null;
  if (a.type === "place") {
    const ti = tileIdx(a.tile);
    if (ti == null) return null;
    const o = face(ti, a.side || "a", a.rotation || 0), squares = [];
    for (let dy = 0; dy < o.h; dy++) for (let dx = 0; dx < o.w; dx++) squares.push([a.x + dx, a.y + dy]);
    return { squares };
  }
  if (a.type === "move") {
    if (a.to === "greenland" || a.to === "northwest") return { arrow: a.to, piece };
    if (Array.isArray(a.to)) {
      const id = UI.D.sqTile.get(`${a.to[0]},${a.to[1]}`);
      return { squares: id != null ? UI.D.tileSquares.get(id) : [a.to], piece };
    }
  }
  if (a.type === "explore" || a.type === "discover" || a.type === "transfer") return piece ? { piece } : null;
  return null;
}

// A hint's action in this board's words (core/hint.js); null: the server's words.
export function hintText(a) {
  if (!a || !APP.view) return null;
  const veh = a.vehicle ? t(a.vehicle) : "";
  if (a.type === "draw" && a.source === "display") {
    const id = APP.view.display[a.index];
    return id != null ? t("hint_nw_draw_display", { veh, tile: id }) : null;
  }
  if (a.type === "draw" && a.source === "pile") return t("hint_nw_draw_pile", { veh, n: a.pile + 1 });
  if (a.type === "place") return t("hint_nw_place", { veh, tile: a.tile });
  if (a.type === "move") return t("hint_nw_move", { veh, place: placeOfTo(Array.isArray(a.to) ? a.to.join(",") : a.to) });
  if (a.type === "end_turn") return t("end_turn");
  if (a.type === "pass") return t("pass");
  if (a.type === "refresh") return `${veh}: ${t("refresh")}`;
  if (a.type === "transfer") return `${veh}: ${t("transfer")}`;
  if (a.type === "explore" || a.type === "discover") return t(`${a.type}_tok`, { tok: t(`tok_${a.token}`), veh });
  return null;
}

export function onKey(e, tag) {
  const k = e.key;
  if (k === "Escape") { if (UI.sel) { cancelSel(); e.preventDefault(); } return; }
  if (!UI.sel || UI.sel.mode !== "place") return;
  if (k === "r" || k === "R") { rotateSel(e.shiftKey ? -1 : 1); e.preventDefault(); }
  else if (k === "f" || k === "F") { flipSel(); e.preventDefault(); }
  else if (k === "ArrowRight" || k === "ArrowDown" || k === "]") { UI.hover = null; UI.placeIdx++; refresh(); e.preventDefault(); }
  else if (k === "ArrowLeft" || k === "ArrowUp" || k === "[") { UI.hover = null; UI.placeIdx--; refresh(); e.preventDefault(); }
  else if (k === "Enter" && (tag !== "BUTTON" || e.target.classList.contains("res-tile"))) { placeCurrent(); e.preventDefault(); }
}
