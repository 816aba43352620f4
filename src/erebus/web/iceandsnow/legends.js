// Legendary Expeditions at the browser table (the wire view's "legends" field and the
// module's decisions, docs/iceandsnow-wire.md): each seat's explorer and ship drawn as
// printed cards beside its personal board (name, the ability in words, the ship's
// reward on Upgrade the Ship, the explorer event it brought), the kept explorer events'
// powers, Belcher's uses left, Ross's Inuk this round, Kellett's look (the card for him
// alone); the dialogs of the explorer choice, McClure's Boarding trade and Belcher's
// forced route; the free actions (Kellett's look, Collinson's chart — also by clicking
// a region on the map); George Back's upgrade space in the placement sheet; the
// module's log lines.  Nothing here is drawn when the module is off.

import { APP, isMyTurn } from "../core/state.js";
import { h } from "../core/dom.js";
import { t, tr } from "../core/i18n.js";
import { seatName } from "../core/seats.js";
import { sendAction } from "../core/connection.js";
import { M, anchorName, animalCard, eventCard, regionName } from "./material.js";
import { spaceName } from "./words.js";

let cssLoaded = false;
function loadCss() {
  if (cssLoaded || typeof document === "undefined") return;
  cssLoaded = true;
  const href = new URL("./legends.css", import.meta.url).href;
  if (!document.querySelector(`link[href="${href}"]`)) document.head.append(h("link", { rel: "stylesheet", href }));
}

export const legends = (v = APP.view) => (v && v.legends) || null;
const mod = () => (M() && M().modules && M().modules.legendary_expeditions) || null;
export function setData(k) { const m = mod(); return (m && m.sets.find((s) => s.set === k)) || null; }

function word(k) { const w = tr(`ilg_g_${k}`, null); return w != null ? w : tr(`is_res_${k}`, k); }
export function gainsText(g) { return Object.entries(g || {}).map(([k, v]) => `${word(k)} +${v}`).join(", "); }
// An ability in words: its i18n key with the set's parameters (the content file's English as the fallback).
export function abilityText(s) { if (!s) return ""; const out = t(`ilg_ab_${s.ability}`, s.params || {}); return out === `ilg_ab_${s.ability}` ? s.text || "" : out; }

// -- a set drawn as its printed cards -------------------------------------------------------------

// The explorer card and its ship card; ``opts``: {small, onPick, testid, note}.
export function explorerCardEl(k, opts = {}) {
  loadCss();
  const s = setData(k) || { set: k, explorer: k, ship: "", ship_rewards: {}, event: null };
  const ev = s.event != null ? eventCard(s.event) : null;
  const kids = [
    h("div", { class: "ic-head" }, `${t("ilg_explorer")} · ${t("ilg_set", { k })}`),
    h("div", { class: "ic-name" }, s.explorer),
    h("div", { class: "ic-text ilg-ability" }, abilityText(s)),
    h("div", { class: "ilg-ship" }, h("span", { class: "ilg-ship-name" }, "⚓ ", s.ship),
      " ", h("span", { class: "muted" }, t("ilg_ship_reward", { gains: gainsText(s.ship_rewards) }))),
    opts.small || !ev ? null : h("div", { class: "ic-note muted" }, t("ilg_brings_event", { n: s.event, name: ev.name })),
    opts.note ? h("div", { class: "ic-note" }, opts.note) : null,
  ];
  const cls = `ice-card k-explorer${opts.small ? " small" : ""}${opts.onPick ? " pick" : ""}`;
  const title = `${s.explorer} — ${abilityText(s)} · ${s.ship}: ${t("ilg_ship_reward", { gains: gainsText(s.ship_rewards) })}`;
  if (opts.onPick) {
    const b = h("button", { type: "button", class: cls, title, "data-testid": opts.testid || "explorer-card", "data-set": k }, kids);
    b.addEventListener("click", (e) => { e.stopPropagation(); opts.onPick(); });
    return b;
  }
  return h("div", { class: cls, title, "data-testid": opts.testid || "explorer-card", "data-set": k }, kids);
}

// -- the personal board --------------------------------------------------------------------------

function cardWord(deck, id) {
  const c = id ? animalCard(id) : null;
  return c ? c.name : id || "?";
}

export function legendsSeatLine(i) {
  const lg = legends(); if (!lg) return null;
  loadCss();
  const me = lg.seats[i]; if (!me) return null;
  if (!me.set) {
    const what = me.choosing ? (i === APP.seat ? t("ilg_choose_now") : t("ilg_choosing")) : t("ilg_none");
    return h("div", { class: "is-line ilg-seat", "data-testid": "explorer-line" }, h("span", { class: "lbl" }, t("ilg_explorer")), h("span", { class: "muted" }, what));
  }
  const chips = [];
  for (const p of me.powers) chips.push(h("span", { class: "is-chip ilg-power", title: tr(`ilg_power_${p.power}`, p.power), "data-testid": "explorer-power" }, `#${p.event} `, (eventCard(p.event) || {}).name || p.power, ": ", tr(`ilg_power_${p.power}`, p.power)));
  for (const p of me.powers_due) chips.push(h("span", { class: "is-chip muted" }, t("ilg_power_due", { name: (eventCard(p.event) || {}).name || p.power })));
  if (me.despot_uses_left != null) chips.push(h("span", { class: "is-chip", "data-testid": "despot-left" }, t("ilg_despot_left", { n: me.despot_uses_left })));
  if (me.apprentice_used != null) chips.push(h("span", { class: "is-chip" + (me.apprentice_used ? " muted" : ""), "data-testid": "apprentice" }, me.apprentice_used ? t("ilg_apprentice_used") : t("ilg_apprentice_ready")));
  for (const l of me.looked || []) {
    const deck = t(`ilg_deck_${l.deck}`);
    const txt = l.card ? t("ilg_looked_own", { deck, card: cardWord(l.deck, l.card) }) : t("ilg_looked", { deck });
    chips.push(h("span", { class: "is-chip ilg-look", "data-testid": "kellett-look" }, "◉ ", txt, l.space ? ` · ${t("ilg_must_take", { space: spaceName(l.space) })}` : ""));
  }
  return h("div", { class: "is-line ilg-seat", "data-testid": "explorer-line" },
    explorerCardEl(me.set, { small: true, testid: "seat-explorer" }),
    chips.length ? h("span", { class: "is-chips" }, chips) : null);
}

// -- free actions: Kellett's look, Collinson's chart ------------------------------------------------

function freeButton(f) {
  if (f.kind === "track") {
    return h("button", { type: "button", class: "btn small", "data-testid": "free-track", "data-space": f.space, title: t("ilg_track_help"),
      onclick: () => sendAction(f.action) }, "◉ ", t("ilg_track", { deck: t(`ilg_deck_${f.deck}`) }));
  }
  const pay = Object.entries(f.pays).map(([k, v]) => `${word(k)} −${v}`).join(", ");
  return h("button", { type: "button", class: "btn small", "data-testid": "free-chart", "data-region": f.region, title: t("ilg_chart_help"),
    onclick: () => sendAction(f.action) }, "✎ ", t("ilg_chart", { region: regionName(f.region), pays: pay, pp: f.pp }));
}
// The module's free actions of the decision shown (none: null).
export function legendsFreeRow(d) {
  const fr = ((d && d.free) || []).filter((f) => f.kind === "track" || f.kind === "chart");
  if (!fr.length || !d.mine) return null;
  loadCss();
  return h("div", { class: "ilg-free", "data-testid": "legends-free" }, h("span", { class: "lbl" }, t("ilg_free")), fr.map(freeButton));
}
// A region Collinson may chart now (a click on the map sends it): the free action, or null.
export function chartOf(region) {
  const d = APP.view && APP.view.decision;
  if (!d || !d.mine || !isMyTurn()) return null;
  return ((d.free || []).find((f) => f.kind === "chart" && f.region === region)) || null;
}
export function sendChart(region) { const f = chartOf(region); if (f) sendAction(f.action); return !!f; }

// Above the action board: the free actions and what Belcher decided this round.
export function legendsPanel() {
  const lg = legends(); if (!lg) return null;
  loadCss();
  const v = APP.view;
  const bits = [];
  if (lg.forbidden_route) bits.push(h("span", {}, t("ilg_forbidden", { to: anchorName(lg.forbidden_route) })));
  if (lg.voyage_chooser != null) bits.push(h("span", {}, t("ilg_voyage_by", { player: seatName(lg.voyage_chooser) })));
  if (lg.sailors_aside) bits.push(h("span", { class: "muted" }, t("ilg_sailors_aside", { n: lg.sailors_aside })));
  const d = v.decision;
  const free = d && d.kind === "action" && isMyTurn() ? legendsFreeRow(d) : null;
  if (!bits.length && !free) return null;
  return h("div", { class: "ilg-panel", "data-testid": "legends-panel" }, bits.length ? h("div", { class: "ilg-status" }, bits) : null, free);
}

// -- dialogs -----------------------------------------------------------------------------------------

function choice(o, kids, extra = {}) {
  return h("button", { type: "button", class: "btn choice" + (extra.warn ? " warn" : ""), "data-testid": "choice",
    "data-action": JSON.stringify(o.action), onclick: () => sendAction(o.action) }, kids);
}
const notes = (list) => h("span", { class: "notes" }, list.filter(Boolean).join(" · "));

function explorerBody(d) {
  return [h("p", {}, t("ilg_choose_help")),
    h("div", { class: "opt-cards ilg-choice" }, d.options.map((o) => explorerCardEl(o.card, { onPick: () => sendAction(o.action), testid: "choice" })))];
}
function benevolentBody(d) {
  const kids = d.options.map((o) => (o.use
    ? choice(o, [h("strong", {}, t("ilg_trade", { food: -o.food, morale: o.morale })), notes([t("ilg_you_have", { food: d.food, morale: d.morale, max: d.morale_max })])])
    : choice(o, [h("strong", {}, t("ilg_trade_stop"))])));
  return [h("p", {}, t("ilg_benevolent_help")), h("div", { class: "choices" }, kids)];
}
function despotBody(d) {
  const kids = d.options.map((o) => (o.use
    ? choice(o, [h("strong", {}, t("ilg_despot_yes", { to: anchorName(d.to) })), notes([t("ilg_despot_then", { others: d.others.map(anchorName).join(", ") }), t("ilg_despot_left", { n: o.uses_left })])], { warn: true })
    : choice(o, [h("strong", {}, t("ilg_despot_no", { to: anchorName(d.to) })), notes([t("ilg_despot_left", { n: o.uses_left })])])));
  return [h("p", {}, t("ilg_despot_help", { leader: seatName(d.leader), to: anchorName(d.to) })), h("div", { class: "choices" }, kids)];
}
export const LEGENDS_BODIES = { explorer: explorerBody, benevolent: benevolentBody, despot: despotBody };
// A note in the Destination / Voyage dialog: the route Belcher forbade, who chooses the voyage.
export function legendsNote(d) {
  const bits = [];
  if (d.forbidden_route) bits.push(t("ilg_forbidden", { to: anchorName(d.forbidden_route) }));
  if (d.voyage_chooser != null && d.kind === "voyage") bits.push(t("ilg_voyage_by", { player: seatName(d.voyage_chooser) }));
  return bits.length ? h("p", { class: "ilg-note", "data-testid": "legends-note" }, bits.join(" · ")) : null;
}

// -- George Back's upgrade space (the placement sheet's "slot" step) ---------------------------------

export function slotText(v) {
  const lg = legends(); const me = lg && APP.seat != null ? lg.seats[APP.seat] : null;
  const spaces = (me && me.upgrade_spaces) || [];
  const free = spaces.filter((s) => !s.filled);
  const n = v == null ? (free[0] && free[0].space) : v;
  const sp = spaces.find((s) => s.space === n);
  const bonus = sp && Object.keys(sp.bonus).length ? gainsText(sp.bonus) : t("ilg_no_bonus");
  return v == null ? t("ilg_slot_left", { n: n ?? "?", bonus }) : t("ilg_slot", { n, bonus });
}

// -- the log --------------------------------------------------------------------------------------------

export function legendsEventText(e, k) {
  switch (e.type) {
    case "TopCardLooked": return k(e.type, { deck: t(`ilg_deck_${e.deck}`) });
    case "RouteForced": return k(e.type, { to: anchorName(e.to) });
    default: return e.text || e.type;
  }
}

// A region label of the map that Collinson may chart now: clickable (and by the keyboard).
export function chartableRegion(el, region) {
  const f = chartOf(region); if (!f) return;
  loadCss();
  const pay = Object.entries(f.pays).map(([k, v]) => `${word(k)} −${v}`).join(", ");
  el.classList.add("ilg-chartable");
  el.setAttribute("tabindex", "0");
  el.setAttribute("role", "button");
  el.setAttribute("data-testid", "chart-region");
  el.setAttribute("aria-label", t("ilg_chart", { region: regionName(region), pays: pay, pp: f.pp }));
  el.addEventListener("click", (e) => { e.stopPropagation(); sendChart(region); });
  el.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); sendChart(region); } });
}

// A folded board's (phone) reminder of the seat's explorer: the name only.
export function legendsTag(i) {
  const lg = legends(); const me = lg && lg.seats[i];
  if (!me || !me.set) return null;
  const s = setData(me.set);
  return h("span", { class: "ilg-tag", title: s ? abilityText(s) : "" }, " · ", s ? s.explorer : me.set);
}
