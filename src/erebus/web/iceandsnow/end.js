// Ice and Snow's end screen: the final scoring by category (the wire view's
// final_scoring: species majority, cabins, species on board, health and morale,
// investors, cartography, shelters, the final anchor), the points of the game before
// it, the totals and the score over the rounds; a game the whole table lost says how;
// a solo scenario says whether its objectives were met.

import { APP } from "../core/state.js";
import { h } from "../core/dom.js";
import { t } from "../core/i18n.js";
import { COLORS, seatName } from "../core/seats.js";
import { endLinks, scoreChart } from "../core/end.js";
import { overReason, investorName } from "./events.js";
import { solo2EndObjectives, solo2Text } from "./solo2.js";
import { regionName } from "./mapdata.js";

function chartPoints(n, totals) {
  const rounds = (APP.msg && APP.msg.score_rounds) || [];
  const start = 10;
  const pts = Array.from({ length: n }, () => [[0, start]]);
  for (const r of rounds) for (let i = 0; i < n; i++) pts[i].push([r.round, r.scores[i]]);
  const last = rounds.length ? rounds[rounds.length - 1].round : Math.max(1, APP.view.round);
  for (let i = 0; i < n; i++) pts[i].push([last + 1, totals[i]]);
  return { pts, last };
}

// The end in a few words: who won, a tie, the whole table lost, the solo scenario's
// success or failure; with the class of the end screen ("won", "lost" or "").
export function overHeadline() { return headline().text; }
function headline() {
  const v = APP.view, fs = v.final_scoring, n = v.players;
  const totals = (fs && fs.totals) || v.scores;
  const order = fs && Array.isArray(fs.ranking) && fs.ranking.length === n ? fs.ranking.slice() : [...Array(n).keys()].sort((a, b) => totals[b] - totals[a]);
  const scen = v.options.scenario;
  let text, cls = "";
  if (scen) {
    const won = v.won || (fs && fs.outcome === "won");
    text = won ? t("is_solo_won") : t("is_solo_lost");
    cls = won ? "won" : "lost";
  } else if (v.lost || (fs && fs.outcome === "lost")) {
    text = t("is_table_lost"); cls = "lost";
  } else {
    const tie = order.length > 1 && totals[order[0]] === totals[order[1]];
    text = tie ? t("tie") : t("winner", { name: seatName(order[0]) });
  }
  return { text, cls, order, totals, scen };
}

export function endPanel() {
  const v = APP.view, fs = v.final_scoring, n = v.players;
  const { text, cls, order, totals, scen } = headline();
  const parts = [h("h2", {}, t("game_over"), " — ", text, endLinks())];
  const reason = fs ? fs.reason : v.reason;
  if (cls === "lost" && reason) parts.push(h("p", { class: "is-end-reason", "data-testid": "end-reason" }, overReason(reason)));
  const solo2 = scen ? solo2EndObjectives(v) : null; if (solo2) parts.push(solo2);  // Epidemic, Amundsen
  if (scen && !solo2) {
    const missing = (fs && fs.objectives_missing) || (v.map.scenario && v.map.scenario.objectives_missing) || [];
    parts.push(h("div", { class: "is-objectives" }, h("b", {}, t("is_objectives")), " ",
      missing.length ? h("ul", {}, missing.map((m) => h("li", {}, solo2Text(m) || m))) : h("span", { class: "ok" }, t("is_objectives_met"))));
  }
  const row = h("div", { class: "end-row" });
  if (fs && fs.scored) {
    const cats = fs.categories.filter((c) => c !== "shelters" || (v.options.modes || []).includes("shelters"));
    const sumCats = (i) => cats.reduce((a, c) => a + ((fs.points[c] || [])[i] || 0), 0);
    const tbl = h("table", { class: "breakdown is-breakdown", "data-testid": "final-scoring" },
      h("thead", {}, h("tr", {}, h("th", {}, ""), order.map((i) => h("th", { style: `color:${COLORS[i]}` }, seatName(i))))),
      h("tbody", {},
        h("tr", { class: "is-ingame" }, h("th", {}, t("is_cat_in_game")), order.map((i) => h("td", {}, String(totals[i] - sumCats(i))))),
        cats.map((c) => h("tr", { "data-cat": c }, h("th", {}, t(`is_cat_${c}`)), order.map((i) => h("td", { title: catNote(c, i, fs) }, String((fs.points[c] || [])[i] || 0), catMark(c, i, fs))))),
        h("tr", { class: "total" }, h("th", {}, t("total")), order.map((i) => h("td", {}, String(totals[i]))))));
    row.append(tbl);
  } else if (!scen) {
    row.append(h("p", { class: "muted" }, t("is_no_final_scoring")));
  }
  const { pts, last } = chartPoints(n, totals);
  row.append(scoreChart(pts, last));
  parts.push(row);
  return h("section", { class: "endgame is-end " + cls, "data-testid": "end-panel" }, ...parts);
}

function catMark(c, i, fs) {
  if (c === "investors" && fs.investor_met) return fs.investor_met[i] ? " ✓" : "";
  return "";
}
function catNote(c, i, fs) {
  if (c === "cartography" && fs.cartography_mapped && fs.cartography_mapped[i]) return fs.cartography_mapped[i].map(regionName).join(", ");
  if (c === "species_majority" && fs.species_counts) return t("is_species_n_cards", { n: fs.species_counts[i] });
  if (c === "cabins" && fs.cabins) return t("is_cabins_n", { n: fs.cabins[i] });
  if (c === "shelters" && fs.shelters) return t("is_shelters_n", { n: fs.shelters[i] });
  if (c === "investors" && APP.view.seats[i].investor) return investorName(APP.view.seats[i].investor);
  return "";
}
