// The review of a finished game in the replay (core/replay.js): every move rated by the
// hard bot (GET /api/games/{id}/review, computed once by the server; 202 with its
// progress meanwhile), shown beside the board: each seat's estimated winning chance
// over the game as an SVG plot (the mistakes marked, the current step as a line; a
// click goes to that move), the current move's loss against the bot's best choice,
// a summary per seat and the biggest mistakes, each a link to its step.

import { h, s, $, parseJSON } from "./dom.js";
import { t } from "./i18n.js";
import { COLORS, seatName } from "./seats.js";
import { errText } from "./connection.js";

const V = { id: null, on: false, data: null, progress: null, error: null, timer: null, go: null, step: 0 };
const POLL_MS = 1000;
// The plot's box in SVG units: margins for the axes' ticks and titles (left: the
// winning chance 0–100 %, bottom: the move number).
const W = 320, H = 150, ML = 36, MR = 8, MT = 6, MB = 30;
const TICK_STEPS = [1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000];

function pct(x) { return Math.round(100 * x); }

export function reviewButton(id, go) {
  V.id = id; V.go = go;
  const btn = h("button", { id: "rp-review", class: "btn small", type: "button", "aria-pressed": String(V.on), onclick: toggle }, t("review"));
  return btn;
}

function toggle() {
  V.on = !V.on;
  const btn = $("#rp-review"); if (btn) btn.setAttribute("aria-pressed", String(V.on));
  if (V.on && !V.data) load();
  renderReview(V.step);
}

async function load() {
  clearTimeout(V.timer);
  try {
    const r = await fetch(`/api/games/${encodeURIComponent(V.id)}/review`);
    const txt = await r.text();
    if (!r.ok) throw new Error(errText(txt));
    const d = parseJSON(txt);
    if (r.status === 202) {
      V.progress = d;
      V.timer = setTimeout(load, POLL_MS);
    } else {
      V.data = d; V.progress = null;
    }
    V.error = null;
  } catch (e) {
    V.error = String(e.message || e);
  }
  renderReview(V.step);
}

// Move numbers to label on the x axis: a round step, at most ``most`` of them.
function xTicks(n, most = 6) {
  const step = TICK_STEPS.find((k) => n / k <= most) || Math.ceil(n / most);
  const out = [];
  for (let k = 0; k <= n; k += step) out.push(k);
  return out;
}

// The winning-chance plot: one line per seat, mistakes as red marks, the step as a rule,
// the axes labelled (x: the move, y: the winning chance in %).
function plot(d, step) {
  const ch = d.chances, n = Math.max(1, ch.length - 1);
  const X = (k) => ML + (W - ML - MR) * (k / n), Y = (p) => MT + (H - MT - MB) * (1 - p);
  const svg = s("svg", { viewBox: `0 0 ${W} ${H}`, class: "rv-plot", role: "img", "aria-label": t("review_chances"), "data-testid": "review-plot" });
  svg.append(s("rect", { x: ML, y: MT, width: W - ML - MR, height: H - MT - MB, class: "rv-bg" }));
  for (const p of [0, 0.5, 1]) {
    svg.append(s("line", { x1: ML, x2: W - MR, y1: Y(p), y2: Y(p), class: p === 0.5 ? "rv-mid" : "rv-grid" }));
    svg.append(s("text", { x: ML - 4, y: Y(p) + 3, class: "rv-tick", "text-anchor": "end" }, `${pct(p)}%`));
  }
  for (const k of xTicks(n)) {
    svg.append(s("line", { x1: X(k), x2: X(k), y1: H - MB, y2: H - MB + 3, class: "rv-grid" }));
    svg.append(s("text", { x: X(k), y: H - MB + 12, class: "rv-tick", "text-anchor": "middle" }, String(k)));
  }
  svg.append(s("text", { x: ML + (W - ML - MR) / 2, y: H - 3, class: "rv-axis", "text-anchor": "middle", "data-testid": "review-axis-x" }, t("review_axis_move")));
  const yMid = MT + (H - MT - MB) / 2;
  svg.append(s("text", { x: 10, y: yMid, class: "rv-axis", "text-anchor": "middle", transform: `rotate(-90 10 ${yMid})`, "data-testid": "review-axis-y" }, t("review_axis_chance")));
  for (let seat = 0; seat < d.players; seat++) {
    const pts = ch.map((c, k) => `${X(k).toFixed(1)},${Y(c[seat]).toFixed(1)}`).join(" ");
    svg.append(s("polyline", { points: pts, class: "rv-line", stroke: COLORS[seat] }));
  }
  for (const m of d.moves) {
    if (!m.mistake) continue;
    svg.append(s("circle", { cx: X(m.step - 1), cy: Y(m.chances[m.seat]), r: m.blunder ? 3 : 2, class: m.blunder ? "rv-blunder" : "rv-mistake" },
      s("title", {}, `${m.step} · ${seatName(m.seat)} · −${pct(m.loss)}% · ${m.text}`)));
  }
  svg.append(s("line", { x1: X(step), x2: X(step), y1: MT, y2: H - MB, class: "rv-cursor" }));
  svg.addEventListener("click", (e) => {
    const r = svg.getBoundingClientRect();
    const k = Math.round(((e.clientX - r.left) / r.width * W - ML) / (W - ML - MR) * n);
    if (V.go) V.go(Math.max(0, Math.min(n, k)));
  });
  return svg;
}

function moveLine(d, step) {
  if (step === 0) return h("p", { class: "rv-move" }, t("replay_setup"));
  const m = d.moves[step - 1];
  if (!m) return null;
  // What was played, in the game's words (the review's ``text``).
  const played = m.text ? h("p", { class: "rv-played", "data-testid": "review-played" }, t("review_played", { action: m.text })) : null;
  if (m.forced) return h("div", { class: "rv-move" }, h("p", {}, t("review_forced", { k: step })), played);
  if (!m.mistake) return h("div", { class: "rv-move ok", "data-testid": "review-move" }, h("p", {}, t("review_move_ok", { k: step, p: pct(m.loss) })), played);
  return h("div", { class: `rv-move ${m.blunder ? "blunder" : "mistake"}`, "data-testid": "review-move" },
    h("p", {}, (m.blunder ? "✗✗ " : "✗ ") + t("review_move", { k: step, p: pct(m.loss) })),
    played,
    h("p", { class: "rv-best" }, t("review_best", { action: m.best_text })));
}

function seatsTable(d) {
  return h("ul", { class: "rv-seats" }, d.seats.map((x) => h("li", { style: `--pc:${COLORS[x.seat]}` },
    h("span", { class: "swatch", style: `background:${COLORS[x.seat]}` }), " ",
    t("review_seat_row", { name: seatName(x.seat), m: x.mistakes, b: x.blunders, p: (100 * x.mean_loss).toFixed(1) }))));
}

function worstList(d) {
  const worst = d.moves.filter((m) => m.mistake).sort((a, b) => b.loss - a.loss).slice(0, 8);
  if (!worst.length) return h("p", { class: "rv-none" }, t("review_none"));
  return h("ol", { class: "rv-worst" }, worst.map((m) => h("li", {},
    h("button", { class: "linkbtn", type: "button", onclick: () => V.go && V.go(m.step) },
      `${m.step} · ${seatName(m.seat)} · ${m.text} (−${pct(m.loss)}%)`))));
}

// Called by the replay after each step is drawn (and when the review arrives).
export function renderReview(step) {
  V.step = step;
  const old = $("#review");
  if (!V.on) { if (old) old.remove(); return; }
  let body;
  if (V.error) body = [h("p", { class: "warn-text", role: "alert" }, t("review_error", { msg: V.error }))];
  else if (!V.data) {
    const p = V.progress || { done: 0, total: 0 };
    body = [h("p", { role: "status" }, t("review_running", { k: p.done, n: p.total })),
      h("progress", { max: Math.max(1, p.total), value: p.done, "aria-label": t("review") })];
  } else {
    const d = V.data;
    body = [h("h4", {}, t("review_chances")), plot(d, step), moveLine(d, step), seatsTable(d),
      h("h4", {}, t("review_mistakes")), worstList(d)];
  }
  const box = h("section", { id: "review", class: "card review", "aria-label": t("review_title"), "data-testid": "review" },
    h("h3", {}, t("review_title")), ...body);
  if (old) old.replaceWith(box);
  else { const aside = $("aside.right"); if (aside) aside.prepend(box); }
}
