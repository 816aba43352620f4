// Northwest's end screen: the winner (or a tie the rules do not break), each seat's
// points by source and the score over the rounds.

import { APP } from "../core/state.js";
import { h } from "../core/dom.js";
import { t } from "../core/i18n.js";
import { COLORS, seatName } from "../core/seats.js";
import { endLinks, scoreChart } from "../core/end.js";
import { seatOf } from "./ui.js";
import { reasonCategory } from "./events.js";

// A tie the rules do not break: equal top scores and the leader never returned to
// Greenland (returning first is the tie-break, §8.1).
function tiedTop(order, scores) {
  if (order.length < 2 || scores[order[0]] !== scores[order[1]]) return false;
  return !(seatOf(order[0]).returned > 0);
}

export function endPanel() {
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
  const scores = APP.msg.scores || v.seats.map((st) => st.score);
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
