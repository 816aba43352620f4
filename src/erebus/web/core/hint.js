// The Hint button of the game page (both boards): on the seat's turn, when the game
// allows hints (the host's lobby option, payload options.hints), it asks
// GET /api/games/{id}/hint and shows the hard bot's suggestion in words, and on the
// board where the board can point at it (its optional hintRefs(action): the refs its
// highlight() draws, as for a hovered log line).  The hint belongs to one version of
// the game: the next state takes it away.

import { APP, isMyTurn } from "./state.js";
import { h, $, parseJSON } from "./dom.js";
import { t } from "./i18n.js";
import { errText } from "./connection.js";

const HINT = { version: null, data: null, busy: false, error: null, lit: false };

export function hintsOn() {
  return !!(APP.msg && APP.msg.options && APP.msg.options.hints) && APP.seat != null && APP.token != null;
}

export function hintButton() {
  return h("button", { class: "btn small hintbtn", id: "hintbtn", type: "button", hidden: true,
    title: t("hint_title"), "aria-keyshortcuts": "H", onclick: askHint }, t("hint"));
}

function pct(x) { return Math.round(100 * x); }

// An action of the hint in words: the server's (the game's describe_action, in
// English: the fullest), or in another language the board's own words where it has
// them (its optional hintText(action)), so that a page does not mix two languages.
function actionWords(action, text) {
  const board = APP.board && APP.board.hintText ? APP.board.hintText(action) : null;
  if (APP.lang && APP.lang !== "en" && board) return board;
  return text || board || "";
}

function reasonText(d) {
  if (d.forced) return t("hint_forced");
  const alt = (d.alternatives || [])[0];
  if (!alt) return t("hint_reason_only", { p: pct(d.result) });
  const gain = pct(d.result - alt.result);
  const next = actionWords(alt.action, alt.text);
  if (gain === 0) return t("hint_reason_close", { p: pct(d.result), next });
  return t("hint_reason", { p: pct(d.result), gain: `${gain >= 0 ? "+" : ""}${gain}`, next });
}

// The box under the board: the suggestion, why, and whether the board shows it.
function hintBox() {
  const d = HINT.data;
  if (HINT.error) return h("div", { id: "hintbox", class: "hintbox warn", role: "status" }, HINT.error);
  if (HINT.busy) return h("div", { id: "hintbox", class: "hintbox", role: "status" }, t("hint_thinking"));
  if (!d) return null;
  return h("div", { id: "hintbox", class: "hintbox", role: "status", "data-testid": "hint" },
    h("strong", {}, t("hint"), ": "), h("span", { class: "hint-action" }, actionWords(d.action, d.text)),
    h("div", { class: "hint-reason" }, reasonText(d)),
    HINT.lit ? h("div", { class: "hint-note" }, t("hint_on_board")) : null);
}

// Called on every drawing of the game page (core/table.js): the button's state, the box.
export function renderHint() {
  const btn = $("#hintbtn");
  const show = hintsOn() && !APP.view.over;
  if (btn) { btn.hidden = !show; btn.disabled = !isMyTurn() || HINT.busy; }
  if (HINT.version !== APP.version && (HINT.data || HINT.error)) dropHint();
  const old = $("#hintbox");
  const box = HINT.version === APP.version ? hintBox() : null;
  if (old) old.remove();
  const under = $("#under");
  if (box && under) under.before(box);
  // Elements the board names for this hint (its optional hintSelector(action)).
  const sel = HINT.data && HINT.version === APP.version && APP.board && APP.board.hintSelector
    ? APP.board.hintSelector(HINT.data.action) : null;
  if (sel) for (const el of document.querySelectorAll(sel)) el.classList.add("hinted");
}

function dropHint() {
  const lit = HINT.lit;
  HINT.data = null; HINT.error = null; HINT.lit = false; HINT.version = null;
  if (lit && APP.board && APP.board.highlight) APP.board.highlight(null);
}

export async function askHint() {
  if (!hintsOn() || !isMyTurn() || HINT.busy) return;
  const version = APP.version;
  if (HINT.version === version && HINT.data) { renderHint(); return; }
  HINT.version = version; HINT.busy = true; HINT.error = null; HINT.data = null;
  renderHint();
  try {
    const r = await fetch(`/api/games/${encodeURIComponent(APP.gameId)}/hint?token=${encodeURIComponent(APP.token)}`);
    const txt = await r.text();
    if (!r.ok) throw new Error(errText(txt));
    const d = parseJSON(txt);
    if (APP.version !== version) return; // the game moved on meanwhile
    HINT.data = d;
    const refs = APP.board && APP.board.hintRefs ? APP.board.hintRefs(d.action) : null;
    HINT.lit = !!refs;
    if (refs && APP.board.highlight) APP.board.highlight(refs);
  } catch (e) {
    if (APP.version === version) HINT.error = String(e.message || e);
  } finally {
    HINT.busy = false;
    // The game page redraws (core/table.js): boards mark the buttons the hint names.
    if (HINT.data) document.dispatchEvent(new CustomEvent("erebus-hint"));
    else renderHint();
  }
}

// Whether the current hint's action passes ``pred`` (a board marks its own buttons:
// the display tile, the pile, End turn… that the hint names get the class "hinted").
export function hinted(pred) {
  return !!(HINT.data && HINT.version === APP.version && pred(HINT.data.action));
}
export function sameAction(a, b) {
  if (!a || !b) return false;
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  return [...keys].every((k) => JSON.stringify(a[k]) === JSON.stringify(b[k]));
}

// The "h" key on the game page (core/table.js passes keys the board does not take).
export function hintKey(e) {
  if ((e.key === "h" || e.key === "H") && !e.ctrlKey && !e.metaKey && !e.altKey && hintsOn() && isMyTurn()) {
    e.preventDefault();
    askHint();
    return true;
  }
  return false;
}
