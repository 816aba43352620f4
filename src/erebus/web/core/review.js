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
const W = 300, H = 110, PAD = 4;

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

// The winning-chance plot: one line per seat, mistakes as red marks, the step as a rule.
function plot(d, step) {
  const ch = d.chances, n = Math.max(1, ch.length - 1);
  const X = (k) => PAD + (W - 2 * PAD) * (k / n), Y = (p) => PAD + (H - 2 * PAD) * (1 - p);
  const svg = s("svg", { viewBox: `0 0 ${W} ${H}`, class: "rv-plot", role: "img", "aria-label": t("review_chances"), "data-testid": "review-plot" });
  svg.append(s("rect", { x: 0, y: 0, width: W, height: H, class: "rv-bg" }));
  svg.append(s("line", { x1: PAD, x2: W - PAD, y1: Y(0.5), y2: Y(0.5), class: "rv-mid" }));
  for (let seat = 0; seat < d.players; seat++) {
    const pts = ch.map((c, k) => `${X(k).toFixed(1)},${Y(c[seat]).toFixed(1)}`).join(" ");
    svg.append(s("polyline", { points: pts, class: "rv-line", stroke: COLORS[seat] }));
  }
  for (const m of d.moves) {
    if (!m.mistake) continue;
    svg.append(s("circle", { cx: X(m.step - 1), cy: Y(m.chances[m.seat]), r: m.blunder ? 3 : 2, class: m.blunder ? "rv-blunder" : "rv-mistake" },
      s("title", {}, `${m.step} · ${seatName(m.seat)} · −${pct(m.loss)}%`)));
  }
  svg.append(s("line", { x1: X(step), x2: X(step), y1: 0, y2: H, class: "rv-cursor" }));
  svg.addEventListener("click", (e) => {
    const r = svg.getBoundingClientRect();
    const k = Math.round(((e.clientX - r.left) / r.width * W - PAD) / (W - 2 * PAD) * n);
    if (V.go) V.go(Math.max(0, Math.min(n, k)));
  });
  return svg;
}

function moveLine(d, step) {
  if (step === 0) return h("p", { class: "rv-move" }, t("replay_setup"));
  const m = d.moves[step - 1];
  if (!m) return null;
  if (m.forced) return h("p", { class: "rv-move" }, t("review_forced", { k: step }));
  if (!m.mistake) return h("p", { class: "rv-move ok", "data-testid": "review-move" }, t("review_move_ok", { k: step, p: pct(m.loss) }));
  return h("div", { class: `rv-move ${m.blunder ? "blunder" : "mistake"}`, "data-testid": "review-move" },
    h("p", {}, (m.blunder ? "✗✗ " : "✗ ") + t("review_move", { k: step, p: pct(m.loss) })),
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
