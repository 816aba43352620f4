// erebus web client — the replay of a finished game, step by step ("/replay/{id}?step=k").
// Each step is drawn from the server's spectator view at that step, with no legal
// actions, by the game's own board module (the board, the player boards, the supply),
// so a replay looks exactly like the table did.  The URL follows the step, so a link
// opens the same moment of the game.

import { APP } from "./state.js";
import { h, $, parseJSON, toast } from "./dom.js";
import { t, langSwitcher } from "./i18n.js";
import { COLORS, seatName } from "./seats.js";
import { errText } from "./connection.js";
import { replayUrl, seededBadgeEl } from "./mygames.js";
import { loadBoard } from "./boards.js";
import { renderReview, reviewButton } from "./review.js";

const R = { id: null, index: null, step: 0, want: 0, cache: new Map(), pending: new Map() };

function clamp(k) { return Math.max(0, Math.min(R.index.steps, k)); }

async function getJSON(url) {
  const r = await fetch(url);
  const txt = await r.text();
  if (!r.ok) { const e = new Error(errText(txt)); e.status = r.status; throw e; }
  return parseJSON(txt);
}
function fetchStep(k) {
  if (R.cache.has(k)) return Promise.resolve(R.cache.get(k));
  if (!R.pending.has(k)) {
    R.pending.set(k, getJSON(`/api/games/${encodeURIComponent(R.id)}/replay/${k}`)
      .then((st) => { R.cache.set(k, st); return st; })
      .finally(() => R.pending.delete(k)));
  }
  return R.pending.get(k);
}

// The round a step belongs to: the index of the last round starting at or before it.
function roundIdx(k) {
  let i = 0;
  R.index.rounds.forEach((r, j) => { if (r.step <= k) i = j; });
  return i;
}
function prevRoundStep(k) {
  const rs = R.index.rounds, i = roundIdx(k);
  if (k > rs[i].step) return rs[i].step; // back to the start of this round
  return i > 0 ? rs[i - 1].step : 0;
}
function nextRoundStep(k) {
  const r = R.index.rounds.find((x) => x.step > k);
  return r ? r.step : null;
}

async function go(k) {
  k = clamp(k);
  R.want = k;
  let st;
  try { st = await fetchStep(k); } catch (e) { toast(String(e.message || e)); return; }
  if (R.want !== k) return; // a later step was asked for meanwhile
  R.step = k;
  history.replaceState(null, "", replayUrl(R.id, k));
  draw(st);
  if (k < R.index.steps) fetchStep(k + 1).catch(() => { /* fetched again when needed */ });
}

// ⏮ ◀ ▶ ⏭ as small SVG icons (not every font has the media-control characters).
const ICONS = { first: "M2 2h2v12H2zM14 2v12L5 8z", prev: "M12 2v12L3 8z", next: "M4 2v12l9-6z", last: "M12 2h2v12h-2zM2 2v12l9-6z" };
function glyph(name) {
  const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  svg.setAttribute("viewBox", "0 0 16 16"); svg.setAttribute("width", "12"); svg.setAttribute("height", "12");
  svg.setAttribute("aria-hidden", "true"); svg.setAttribute("fill", "currentColor");
  const path = document.createElementNS("http://www.w3.org/2000/svg", "path");
  path.setAttribute("d", ICONS[name]); svg.append(path);
  return svg;
}

function shell() {
  const btn = (id, label, icon, onclick) => h("button", { id, class: "btn small", type: "button", title: label, "aria-label": label, onclick }, icon);
  const slider = h("input", { id: "rp-slider", type: "range", min: 0, max: R.index.steps, value: R.step, step: 1, "aria-label": t("replay_slider") });
  slider.addEventListener("input", () => go(Number(slider.value)));
  document.body.replaceChildren(
    h("header", { class: "topbar wrapbar" },
      h("a", { href: "/", class: "brand" }, "erebus"),
      h("span", { class: "title" }, t("replay")),
      h("span", { id: "roundinfo" }),
      seededBadgeEl(R.index.seeded),
      h("span", { class: "spacer" }),
      h("button", { class: "btn small", id: "helpbtn", type: "button", onclick: () => toast(t("replay_keys")) }, "?"),
      langSwitcher(() => { shell(); const st = R.cache.get(R.step); if (st) draw(st); })),
    h("main", { class: "game replay" },
      h("div", { class: "left" },
        h("nav", { class: "replay-bar", "aria-label": t("replay") },
          h("div", { class: "row" },
            btn("rp-first", t("replay_first"), glyph("first"), () => go(0)),
            btn("rp-prev-round", t("prev_round"), "«", () => go(prevRoundStep(R.step))),
            btn("rp-prev", t("replay_prev"), glyph("prev"), () => go(R.step - 1)),
            btn("rp-next", t("replay_next"), glyph("next"), () => go(R.step + 1)),
            btn("rp-next-round", t("next_round"), "»", () => { const n = nextRoundStep(R.step); go(n == null ? R.index.steps : n); }),
            btn("rp-last", t("replay_last"), glyph("last"), () => go(R.index.steps)),
            reviewButton(R.id, go),
            h("span", { id: "rp-pos", class: "rp-pos", "aria-live": "polite" })),
          slider),
        h("div", { id: "boardwrap", class: "boardwrap" }),
        h("div", { id: "under" })),
      h("aside", { class: "right" }, h("div", { id: "players" }))));
}

function draw(st) {
  const board = APP.board, v = st.view;
  // The game page's renderer, as a spectator with nothing to do.
  APP.msg = st; APP.view = v; APP.legal = []; APP.costs = []; APP.seat = null;
  APP.players = st.players;
  board.onSend();
  board.prepare();
  board.refresh({ glide: false });
  $("#players").replaceChildren(...board.playerBoards());
  $("#roundinfo").textContent = board.roundText();
  $("#rp-pos").textContent = t("replay_step", { k: st.step, n: st.steps });
  const slider = $("#rp-slider");
  if (Number(slider.value) !== st.step) slider.value = String(st.step);
  $("#rp-first").disabled = $("#rp-prev").disabled = $("#rp-prev-round").disabled = st.step === 0;
  $("#rp-last").disabled = $("#rp-next").disabled = $("#rp-next-round").disabled = st.step === st.steps;
  // What this step's move did, in the current language.
  const evs = (st.events || []).map((e) => board.normEvent(e)).filter((e) => !board.LOG_SKIP.has(e.type));
  const who = st.seat != null ? h("span", { class: "swatch", style: `background:${COLORS[st.seat]}` }) : null;
  let head;
  if (st.is_over && board.overHeadline) {
    head = [t("game_over"), " — ", board.overHeadline()];
  } else if (st.is_over) {
    const top = (st.ranking || [])[0];
    head = [t("game_over"), top != null ? ` — ${t("winner", { name: seatName(top) })}` : ""];
  } else if (st.step === 0) head = [t("replay_setup")];
  else head = [who, " ", seatName(st.seat)];
  $("#under").replaceChildren(
    h("section", { class: "actions replay-step", "data-step": st.step },
      h("div", { class: "turn" }, ...head),
      evs.length ? h("ul", { class: "step-events" }, evs.map((e) => h("li", { style: e.seat != null ? `--pc:${COLORS[e.seat]}` : null }, board.eventText(e)))) : null),
    board.supplyPanel());
  document.title = `${t("replay")} ${st.step}/${st.steps} — erebus`;
  renderReview(st.step);
}


function onKey(e) {
  if (!R.index) return;
  const tag = (e.target && e.target.tagName) || "";
  if (tag === "SELECT" || tag === "TEXTAREA" || (tag === "INPUT" && e.target.type !== "range")) return;
  if (e.altKey || e.ctrlKey || e.metaKey) return;
  let k = null;
  if (e.key === "ArrowRight") k = e.shiftKey ? nextRoundStep(R.step) ?? R.index.steps : R.want + 1;
  else if (e.key === "ArrowLeft") k = e.shiftKey ? prevRoundStep(R.step) : R.want - 1;
  else if (e.key === "Home") k = 0;
  else if (e.key === "End") k = R.index.steps;
  if (k == null) return;
  e.preventDefault();
  go(k);
}

export async function startReplay(id) {
  R.id = id;
  document.body.replaceChildren(h("p", { class: "loading" }, t("loading")));
  try {
    R.index = await getJSON(`/api/games/${encodeURIComponent(id)}/replay`);
  } catch (e) {
    const live = e.status === 409;
    document.body.replaceChildren(h("div", { class: "lobby", "data-testid": "replay-error" },
      h("h2", {}, live ? t("replay_in_progress") : t("replay_error")),
      live ? null : h("p", {}, String(e.message || e)),
      h("p", { class: "row" },
        live ? h("a", { class: "btn", href: `/game/${encodeURIComponent(id)}` }, t("watch_live")) : null,
        h("a", { class: "btn", href: "/" }, t("back_lobby")))));
    return;
  }
  try { APP.board = await loadBoard(R.index.web_board ?? R.index.game); } catch (e) {
    document.body.replaceChildren(h("div", { class: "lobby", "data-testid": "replay-error" },
      h("h2", {}, t("replay_error")), h("p", {}, String(e.message || e)), h("a", { class: "btn", href: "/" }, t("back_lobby"))));
    return;
  }
  APP.players = R.index.players;
  const q = new URLSearchParams(location.search).get("step");
  const want = /^\d+$/.test(q || "") ? clamp(Number(q)) : 0;
  R.step = want;
  shell();
  document.addEventListener("keydown", onKey);
  await go(want);
}
