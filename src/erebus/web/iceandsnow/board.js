// Through Ice and Snow's board for the browser client (web_board "iceandsnow"): the
// interface core/boards.js documents, over this folder's map, personal boards, log
// texts and end screen, with ACTIONS' action board and decision dialogs (ext.js)
// placed around the map: the pending decision above it, the action board under it.

import { APP } from "../core/state.js";
import { h, s, $ } from "../core/dom.js";
import { t } from "../core/i18n.js";
import { COLORS, seatName } from "../core/seats.js";
import { anchorName, loadMap, regionName } from "./mapdata.js";
import { crewText, spaceName } from "./words.js";
import { renderMap } from "./map.js";
import { playerBoard } from "./pboard.js";
import { endPanel, overHeadline } from "./end.js";
import { UI, actingSeat } from "./ui.js";
import { EXT, loadExt } from "./ext.js";
import { isPhone, onPhoneChange } from "./layout.js";
import { solo2Info } from "./solo2.js";

export { LOG_SKIP, eventRefs, eventText, normEvent } from "./events.js";

export async function load() {
  const css = new URL("./board.css", import.meta.url).href;
  if (!document.querySelector(`link[href="${css}"]`)) document.head.append(h("link", { rel: "stylesheet", href: css }));
  await Promise.all([loadMap(), loadExt()]);
  onPhoneChange(() => { if (APP.view) refresh(); });
}

// The game's own name and keys, for the page's title bar and its help (core/table.js).
export function title() { return t("is_game_title"); }
export function keysHelp() { return t("is_keys_help"); }

export function prepare() { /* the map derives what it needs from APP.view on each drawing */ }

const PHASES = { setup: "is_ph_setup", section: "is_ph_section", start: "is_ph_start", destination: "is_ph_destination", voyage: "is_ph_voyage",
  action: "is_ph_action", boarding: "is_ph_boarding", over: "is_ph_over",
  explorer: "ilg_ph_explorer", benevolent: "ilg_ph_benevolent", despot: "ilg_ph_despot",
  choose_upgrade: "is2_ph_choose_upgrade", fall_ill: "is2_ph_fall_ill" };
export function phaseText(v) {
  const kind = v.over ? "over" : (v.decision && v.decision.kind) || v.phase;
  return t(PHASES[kind] || PHASES[v.phase] || "is_ph_action");
}
export function roundText() {
  const v = APP.view, R = (v.rules && v.rules.rounds) || { min: 7, max: 12 };
  // "of 7–12" while the game can still end in that span; the final voyage may make it one more
  const long = v.over || v.final_voyage || v.round > R.max;
  const parts = [v.round === 0 ? t("is_setup_round") : long ? t("is_round_n", { n: v.round }) : t("is_round_of", { n: v.round, min: R.min, max: R.max })];
  if (v.final_voyage && !v.over) parts.push(t("is_final_voyage"));
  else if (v.final_round && !v.over) parts.push(t("is_final_round"));
  parts.push(phaseText(v));
  if (v.leader != null && v.players > 1) parts.push(`⎈ ${seatName(v.leader)}`);
  return parts.join(" · ");
}

// The map, with a slot above it for the pending decision (renderTable fills it).
export function refresh() {
  const wrap = $("#boardwrap"); if (!wrap || !APP.view) return;
  wrap.classList.add("is-wrap");
  let slot = $("#is-decision", wrap), box = $("#is-mapbox", wrap);
  if (!box) {
    slot = h("div", { id: "is-decision" });
    box = h("div", { id: "is-mapbox", class: "is-mapbox" });
    wrap.replaceChildren(slot, box);
  }
  const old = box.querySelector(".is-mapscroll");
  const keep = old ? old.scrollLeft : null;
  const scroller = h("div", { class: "is-mapscroll" }, renderMap());
  box.replaceChildren(scroller);
  // On a phone the chart is wider than the screen: keep the fleet in view.
  if (isPhone()) {
    const fleet = APP.view.map.fleet;
    requestAnimationFrame(() => {
      if (UI.scrolledTo === fleet && keep != null) { scroller.scrollLeft = keep; return; }
      const el = scroller.querySelector(".is-fleet");
      if (el) { const r = el.getBoundingClientRect(), sr = scroller.getBoundingClientRect(); scroller.scrollLeft += r.left - sr.left - sr.width / 2; }
      UI.scrolledTo = fleet;
    });
  }
}

// The seats' boards, your own first, then in seat order from yours.
export function playerBoards() {
  const n = APP.view.players;
  const me = APP.seat;
  const order = me == null ? [...Array(n).keys()] : [...Array(n).keys()].map((k) => (me + k) % n);
  return order.map((i) => playerBoard(i));
}

// What the round shows besides the map: who acts, the solo scenario's progress, the legend.
function infoStrip() {
  const v = APP.view;
  const who = actingSeat();
  const turn = v.over ? null : h("div", { class: "is-turn" + (who === APP.seat && who != null ? " mine" : ""), "data-testid": "ice-turn" },
    who != null ? h("span", { class: "swatch", style: `background:${COLORS[who]}` }) : null,
    who == null ? phaseText(v) : who === APP.seat ? t("is_you_decide", { what: expecting(v) }) : t("is_waiting", { name: seatName(who), what: expecting(v) }));
  return h("div", { class: "is-info" }, turn, scenarioPanel(v), legend());
}
const expecting = (v) => phaseText(v);

function scenarioPanel(v) {
  const sc = v.map.scenario; if (!sc) return null;
  const solo = solo2Info(v); if (solo) return solo;  // Mysterious Epidemic, Amundsen's Voyage
  if (sc.id === "lost-expedition") {
    const boxes = [];
    for (let k = 1; k <= sc.progress_max; k++) boxes.push(h("span", { class: "is-pbox" + (k <= sc.progress ? " on" : "") }, String(k)));
    return h("div", { class: "is-scen", "data-testid": "scenario" },
      h("b", {}, t("is_scen_lost")), " ",
      sc.found ? h("span", { class: "ok" }, "✓ ", t("is_le_found")) : h("span", { class: "is-ptrack", title: t("is_le_progress") }, h("span", { class: "lbl" }, t("is_le_progress")), boxes),
      h("span", {}, t("is_le_search_left", { n: sc.search_left })),
      h("span", {}, t("is_priority"), ": ", (sc.priority || []).map(regionName).join(", ") || "—"),
      h("span", { class: sc.cabin_met ? "ok" : "muted" }, (sc.cabin_met ? "✓ " : "○ ") + t("is_le_cabin")));
  }
  const top = sc.compass_discard && sc.compass_discard.length ? sc.compass_discard[sc.compass_discard.length - 1] : null;
  return h("div", { class: "is-scen", "data-testid": "scenario" },
    h("b", {}, t("is_scen_pole")), " ",
    sc.pole_found ? h("span", { class: "ok" }, "✓ ", t("is_pole_found")) : h("span", {}, t("is_pole_not_found")),
    h("span", {}, sc.magnetised ? t("is_magnetised") : t("is_not_magnetised")),
    h("span", {}, t("is_compass_left", { n: sc.compass_left })),
    top ? h("span", {}, t("is_compass_top", { dir: t(`is_compass_${{ N: "north", S: "south", W: "west", E: "east" }[top] || "pole"}`) })) : null,
    sc.best_explore ? h("span", { class: "muted" }, t("is_pole_best", { pp: sc.best_explore, food: sc.best_cabin_food ?? "—" })) : null);
}

function legend() {
  const sym = (kids, vb = "-0.5 -0.5 1 1") => s("svg", { viewBox: vb, width: 16, height: 16, "aria-hidden": "true" }, ...kids);
  const item = (icon, text) => h("span", { class: "is-leg" }, icon, text);
  return h("details", { class: "is-legend" }, h("summary", {}, t("is_legend")),
    h("div", { class: "is-legs" },
      item(sym([s("path", { d: "M-0.4 0.05 L0.4 0.05 L0.3 0.25 L-0.3 0.25Z M-0.05 0.05 V-0.4 L0.25 0 H-0.05", fill: "#222" })]), t("is_leg_fleet")),
      item(sym([s("line", { x1: -0.45, y1: 0, x2: 0.3, y2: 0, stroke: "#c79a1e", "stroke-width": 0.12 }), s("path", { d: "M0.2 -0.2 L0.48 0 L0.2 0.2Z", fill: "#c79a1e" })]), t("is_leg_onward")),
      item(sym([s("rect", { x: -0.08, y: -0.3, width: 0.16, height: 0.55, rx: 0.04, fill: "#c0392b", transform: "rotate(-28)" })]), t("is_leg_dynamite")),
      item(sym([s("circle", { r: 0.3, fill: "none", stroke: "#2f6db5", "stroke-width": 0.1 }), s("circle", { r: 0.16, fill: "#fff", stroke: "#223", "stroke-width": 0.06 })]), t("is_leg_blue")),
      item(sym([s("path", { d: "M-0.2 0.45 V-0.45 l0.5 0.17 l-0.5 0.17", fill: "#d4a017", stroke: "#333", "stroke-width": 0.06 })]), t("is_leg_final")),
      item(sym([s("path", { d: "M-0.3 0.3 V-0.05 L0 -0.35 L0.3 -0.05 V0.3Z", fill: "#888", stroke: "#222", "stroke-width": 0.05 })]), t("is_leg_cabin")),
      item(sym([s("path", { d: "M-0.35 0.2 A0.35 0.4 0 0 1 0.35 0.2Z", fill: "#888", stroke: "#222", "stroke-width": 0.05 })]), t("is_leg_shelter")),
      item(sym([s("circle", { r: 0.35, fill: "#f3e3b5", stroke: "#6b4e12", "stroke-width": 0.06 })]), t("is_leg_mapped")),
      item(sym([s("rect", { x: -0.45, y: -0.45, width: 0.9, height: 0.9, fill: "url(#none)", stroke: "#999", "stroke-dasharray": "0.1 0.08", "stroke-width": 0.06 })]), t("is_leg_fog"))));
}

export function supplyPanel() {
  const ab = EXT.ab && EXT.ab.actionBoardPanel ? EXT.ab.actionBoardPanel() : null;
  return h("div", { class: "is-under" }, infoStrip(), ab);
}

export function renderTable({ sun, under, players }) {
  const v = APP.view;
  const slot = $("#is-decision");
  const dec = !v.over && EXT.dlg && EXT.dlg.decisionPanel ? EXT.dlg.decisionPanel() : null;
  if (slot) slot.replaceChildren(...(dec ? [dec] : []));
  sun.replaceChildren(infoStrip());
  const ab = EXT.ab && EXT.ab.actionBoardPanel ? EXT.ab.actionBoardPanel() : null;
  under.replaceChildren(...(v.over ? [endPanel()] : []), ...(ab ? [ab] : []));
  players.replaceChildren(...playerBoards());
}

export function onState() {
  if (EXT.ab && EXT.ab.onState) EXT.ab.onState();
  if (EXT.dlg && EXT.dlg.onState) EXT.dlg.onState();
}
export function onSend() {
  if (EXT.ab && EXT.ab.onSend) EXT.ab.onSend();
  if (EXT.dlg && EXT.dlg.onSend) EXT.dlg.onSend();
}

export function highlight(refs) {
  if (!refs && !UI.logHl) return;
  UI.logHl = refs;
  refresh();
}

// What a hint's action (core/hint.js) names on the map, for highlight(): a destination's
// anchor; null for the rest (hintSelector marks the action board's space instead).
export function hintRefs(a) {
  if (a && a.type === "destination" && a.to) return { anchors: [a.to] };
  return null;
}
// The elements a hint names off the map (core/hint.js adds the class "hinted").
export function hintSelector(a) {
  if (a && a.type === "take" && typeof a.space === "string") return `.ice-space[data-space="${CSS.escape(a.space)}"]`;
  if (a && a.type === "pass") return "[data-testid=ice-pass]";
  return null;
}
// A hint's action in this board's words; null: the engine's.
export function hintText(a) {
  if (!a) return null;
  if (a.type === "take" && typeof a.space === "string") return `${spaceName(a.space)} — ${crewText(a.crew)}`;
  if (a.type === "infirmary") return `${t("is_hint_infirmary")} — ${crewText(a.crew)}`;
  if (a.type === "destination" && a.to) return `${t("is_hint_destination")} ${anchorName(a.to)}`;
  return null;
}

export function onKey(e, tag) {
  if (EXT.dlg && EXT.dlg.onKey && EXT.dlg.onKey(e, tag)) return;
  if (EXT.ab && EXT.ab.onKey && EXT.ab.onKey(e, tag)) return;
  // "m": to the map's first destination (or the fleet), for the keyboard.
  if ((e.key === "m" || e.key === "M") && !e.ctrlKey && !e.metaKey && !e.altKey) {
    const el = document.querySelector(".icemap .is-anchor.pick") || document.querySelector(".icemap .is-fleet");
    if (el) { el.focus(); e.preventDefault(); }
  }
}

export { overHeadline };
