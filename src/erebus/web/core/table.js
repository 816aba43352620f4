// The game page: its frame (top bar, board area, players, log and chat), the payloads
// it receives, and its drawing, which the game's board module (APP.board) fills in.

import { APP, isMyTurn } from "./state.js";
import { h, $, toast } from "./dom.js";
import { t, langSwitcher } from "./i18n.js";
import { connectWS, fetchState, listen, onServerMessage } from "./connection.js";
import { chatForm, receiveChat } from "./chat.js";
import { logFilterBar, renderLog } from "./log.js";
import { alertButtons, turnAlert, unlockAudioOnGesture } from "./notify.js";
import { rememberGame, seededBadgeEl } from "./mygames.js";
import { loadBoard } from "./boards.js";
import { hintButton, hintKey, renderHint } from "./hint.js";

function applyState(m) {
  const sameGame = !!(APP.msg && APP.msg.id === m.id);
  APP.msg = m; APP.view = m.view; APP.legal = m.legal_actions || [];
  APP.costs = Array.isArray(m.legal_costs) && m.legal_costs.length === APP.legal.length ? m.legal_costs : [];
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
  APP.events = (APP.rawEvents || []).map((e) => APP.board.normEvent(e));
  APP.board.onState();
  renderGame();
  // Our turn came (a push may already hold the others' whole turns: then their
  // TurnEnded/Passed events tell us it went round).
  const mine = isMyTurn() && !m.view.over;
  const wentRound = m.events_since != null && evs.some((e) => (e.type === "TurnEnded" || e.type === "Passed") && e.seat !== APP.seat);
  if (mine && (APP.wasMine === false || (APP.wasMine && wentRound))) turnAlert();
  APP.wasMine = mine;
}

function renderStatusDot() {
  const d = $("#conn"); if (!d) return;
  d.className = APP.wsOk ? "conn ok" : "conn";
  d.title = APP.wsOk ? t("connected") : t("offline_polling");
}

// The game's own name and key help (the board's, else Northwest's words).
export function gameTitle() { return APP.board && APP.board.title ? APP.board.title() : t("game_title"); }
function keysHelp() { return APP.board && APP.board.keysHelp ? APP.board.keysHelp() : t("keys_help"); }

function gameShell() {
  document.body.replaceChildren(
    h("header", { class: "topbar" },
      h("a", { href: "/", class: "brand" }, "erebus"),
      h("span", { class: "title" }, gameTitle()),
      h("span", { id: "roundinfo" }),
      h("span", { class: "spacer" }),
      h("span", { id: "conn", class: "conn" }),
      alertButtons(),
      hintButton(),
      h("button", { class: "btn small", id: "helpbtn", onclick: () => toast(keysHelp()) }, "?"),
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
          chatForm()))));
  renderStatusDot();
}

// The game page's header: the "seeded" badge.
function seededBadge(after) {
  const old = $("#seeded-badge"); if (old) old.remove();
  const b = seededBadgeEl(APP.msg && APP.msg.seeded);
  if (b && after) { b.id = "seeded-badge"; after.after(b); }
}

export function renderGame() {
  const board = APP.board;
  if (!APP.view || !board) return;
  if (!$("#boardwrap")) gameShell();
  board.prepare();
  const ri = $("#roundinfo");
  ri.textContent = board.roundText() + (APP.seat == null ? ` · ${t("spectator")}` : "");
  seededBadge(ri);
  const active = document.activeElement && document.activeElement.id;
  board.refresh();
  board.renderTable({ sun: $("#sunwrap"), under: $("#under"), players: $("#players") });
  renderLog();
  renderHint();
  if (active) { const el = document.getElementById(active); if (el) el.focus(); }
  document.title = isMyTurn() ? `● ${t("your_turn")} — erebus` : `${gameTitle()} — erebus`;
}

function onKey(e) {
  if (!APP.view || !APP.board) return;
  const tag = (e.target && e.target.tagName) || "";
  if (tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT") return;
  if (hintKey(e)) return;
  APP.board.onKey(e, tag);
}

function loadError(e) {
  document.body.replaceChildren(h("div", { class: "lobby" }, h("h2", {}, t("error_load")), h("p", {}, String(e.message || e)), h("a", { href: "/" }, t("back_lobby"))));
}

export async function startGame(id, token) {
  APP.gameId = id; APP.token = token;
  document.body.replaceChildren(h("p", { class: "loading" }, t("loading")));
  document.addEventListener("keydown", onKey);
  document.addEventListener("erebus-hint", () => renderGame());
  unlockAudioOnGesture();
  listen({ state: applyState, chat: receiveChat, status: renderStatusDot, sent: renderGame });
  try {
    const m = await fetchState();
    APP.board = await loadBoard(m.web_board ?? m.game);
    onServerMessage(m);
  } catch (e) { loadError(e); return; }
  rememberGame({ id, token });
  connectWS();
}
