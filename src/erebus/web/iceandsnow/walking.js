// Walking on Ice at the browser table (the wire view's "walking" field and each seat's
// "sled_board", docs/iceandsnow-wire.md): the sled board on each personal board
// (maintenance, food cap, cargo, cans, guilt, the sick sailor), the module's status and
// the free actions of the Action phase (open a food can, leave the sick sailor) above
// the action board, the dialogs of its decisions (abandon the ships, the cargo, the
// upgrade tile returned, a can in a food shortage, Walk or Forced March) and its log
// lines.  Each choice says what it costs; a missing one says why.  Nothing here is
// drawn when the module is off.

import { APP, isMyTurn } from "../core/state.js";
import { h } from "../core/dom.js";
import { t, tr } from "../core/i18n.js";
import { seatName } from "../core/seats.js";
import { sendAction } from "../core/connection.js";
import { M, regionName, upgrade } from "./material.js";

let cssLoaded = false;
function loadCss() {
  if (cssLoaded || typeof document === "undefined") return;
  cssLoaded = true;
  const href = new URL("./walking.css", import.meta.url).href;
  if (!document.querySelector(`link[href="${href}"]`)) document.head.append(h("link", { rel: "stylesheet", href }));
}

const walking = () => (APP.view && APP.view.walking) || null;

// Build a Cabin's food cans (the take's ``cans``): how many and the food they count as.
export function cansText(n) {
  const wk = M() && M().modules && M().modules.walking_on_ice;
  const per = (wk && wk.cans && wk.cans.cabin_food) || 0;
  return n ? t("iwk_cabin_cans", { n, food: n * per }) : t("iwk_cabin_no_cans");
}

// The engine's reason texts of the module (events.js words them with "is_r_" keys).
export const WALKING_REASONS = ["abandoning ship", "abandoning the ships", "fuel left on the ship", "the sled's maintenance",
  "forced march", "walk (feeding)", "march (feeding)", "food can", "opened", "over the sled's cargo", "sick sailor left to die",
  "left to die", "towing a sled", "tin refining", "sled maintenance", "revisit the Inuit", "Inuit customs (event 36)",
  "document the sled's condition"];

// -- the log ------------------------------------------------------------------------------------

export function walkingEventText(e, k) {
  switch (e.type) {
    case "ShipsAbandoned": return k(e.type, { how: t(`iwk_how_${e.how === "forced" ? "forced" : "voluntary"}`) });
    case "UpgradeDropped": { const u = upgrade(e.tile); return k(e.type, { upgrade: u ? u.name : `#${e.tile}` }); }
    case "CanOpened": return k(e.type);
    case "SickSailor": return k(e.carried ? "SickSailor" : "SickSailor_gone");
    default: return e.text || e.type;
  }
}

// -- the personal board ---------------------------------------------------------------------------

export function walkingSeatLine(i) {
  const w = walking(); if (!w) return null;
  loadCss();
  const me = APP.view.seats[i]; const sb = me && me.sled_board; if (!sb) return null;
  const parts = [];
  if (!sb.on_sled) {
    parts.push(h("span", { class: "is-chip" }, t("iwk_on_ships")));
  } else {
    parts.push(h("span", { class: "is-chip", "data-testid": "sled-maint" }, t("iwk_maint", { v: sb.maintenance, max: sb.maintenance_max })));
    parts.push(h("span", { class: "is-chip" + (me.food >= sb.food_cap ? " warn-text" : "") }, t("iwk_food_cap", { n: sb.food_cap })));
    parts.push(h("span", { class: "is-chip" + (sb.cargo_used > sb.cargo_cap ? " warn-text" : ""), "data-testid": "sled-cargo" }, t("iwk_cargo", { used: sb.cargo_used, cap: sb.cargo_cap })));
  }
  parts.push(h("span", { class: "is-chip", "data-testid": "sled-cans" }, t("iwk_cans", { n: sb.cans })));
  parts.push(h("span", { class: "is-chip" + (sb.guilt ? " is-guilt" : ""), "data-testid": "sled-guilt" }, t("iwk_guilt", { n: sb.guilt })));
  if (sb.sick_sailor) parts.push(h("span", { class: "is-chip warn-text" }, t("iwk_sick")));
  if (sb.inuit_customs) parts.push(h("span", { class: "is-chip" }, t("iwk_customs")));
  return h("div", { class: "is-line is-sled", "data-testid": "sled-board" }, h("span", { class: "lbl" }, t("iwk_sled")), h("span", { class: "is-chips" }, parts));
}

// -- above the action board: the module's status and the free actions -------------------------------

export function walkingPanel() {
  const w = walking(); if (!w) return null;
  loadCss();
  const v = APP.view;
  const status = w.abandoned ? t("iwk_status_sled", { how: t(`iwk_how_${w.abandoned}`) }) : t("iwk_status_ships");
  const bits = [h("strong", {}, status)];
  if (w.abandoned) bits.push(h("span", { class: "muted" }, " · ", t("iwk_walk_deck", { n: w.walking_deck })));
  bits.push(h("span", { class: "muted" }, " · ", t("iwk_box", { n: w.cans_box })));
  if (!w.abandoned) bits.push(h("span", { class: "muted" }, " · ", t("iwk_abandon_forced", { n: w.forced_below_fuel })));
  const row = [h("div", { class: "iwk-status" }, bits)];
  const d = v.decision;
  if (d && d.kind === "action" && d.mine && isMyTurn() && (d.free || []).length) {
    row.push(h("div", { class: "iwk-free" }, d.free.map((f) => h("button", { type: "button", class: "btn small", "data-testid": `free-${f.kind}`,
      title: t("iwk_free"), onclick: () => sendAction(f.action) },
    f.kind === "open_can" ? t("iwk_open_can", { food: f.food, health: f.health }) : t("iwk_release", { pp: f.pp })))));
  }
  return h("div", { class: "iwk-panel", "data-testid": "walking-panel" }, row);
}

// -- dialogs ----------------------------------------------------------------------------------------

function choice(o, kids, extra = {}) {
  return h("button", { type: "button", class: "btn choice" + (extra.warn ? " warn" : ""), "data-testid": "choice",
    "data-action": JSON.stringify(o.action), onclick: () => sendAction(o.action) }, kids);
}
function missingEl(text, why) {
  return h("div", { class: "choice missing", "aria-disabled": "true", "data-testid": "missing" }, h("span", { class: "m-what" }, text), h("span", { class: "m-why" }, "✗ ", why));
}
const notes = (list) => h("span", { class: "notes" }, list.filter(Boolean).join(" · "));

function abandonBody(d) {
  const kids = d.options.map((o) => {
    if (!o.use) return choice(o, [h("strong", {}, t("iwk_abandon_no"))]);
    const lines = o.seats.map((s) => t("iwk_abandon_gets", { player: seatName(s.seat), wood: s.wood, cans: s.cans, m: s.maintenance }));
    for (const s of o.seats) if (s.drops_upgrades) lines.push(t("iwk_abandon_drops", { player: seatName(s.seat), n: s.drops_upgrades }));
    if (o.guilt) lines.push("⚠ " + t("iwk_abandon_guilt", { n: o.guilt }));
    return choice(o, [h("strong", {}, t("iwk_abandon_yes")), notes(lines)], { warn: o.guilt > 0 });
  });
  return [h("p", {}, t("iwk_abandon_forced", { n: d.forced_below_fuel })), h("div", { class: "choices" }, kids)];
}
function cargoBody(d) {
  const res = (r) => tr(`iact_res_${r}`, r);
  const kids = d.options.map((o) => choice(o, [h("strong", {}, t("iact_discard_one", { res: res(o.resource) })), notes([t("iact_you_have", { n: o.have })])]));
  for (const m of d.missing || []) kids.push(missingEl(t("iact_discard_one", { res: res(m.resource) }), t(`iact_miss_${m.why}`)));
  return [h("p", {}, t("iwk_cargo_full", { used: d.cargo_used, cap: d.cargo_cap })), h("div", { class: "choices" }, kids)];
}
function dropBody(d) {
  const kids = d.options.map((o) => { const u = upgrade(o.tile); return choice(o, [h("strong", {}, u ? u.name : `#${o.tile}`), notes([u && u.text])]); });
  return [h("p", {}, t("iwk_keep", { n: d.keep })), h("div", { class: "choices" }, kids)];
}
function cansBody(d) {
  const kids = d.options.map((o) => choice(o, [h("strong", {}, o.open ? t("iwk_open_can", { food: o.food, health: o.health }) : t("iwk_go_on"))], { warn: !o.open }));
  return [h("p", {}, t("iwk_short", { food: d.food, need: d.need, short: d.short, cans: d.cans })), h("div", { class: "choices" }, kids)];
}
export function crossingBody(d) {
  const kids = d.options.map((o) => {
    const n = [];
    if (o.feeds) n.push(t("iwk_feeds"));
    if (o.maps_region) n.push(t("iwk_maps") + (d.region ? ` (${regionName(d.region)})` : ""));
    if (o.lowers_maintenance) n.push(t("iwk_lowers"));
    if (o.towed && o.towed.length) n.push("⚠ " + t("iwk_towed", { players: o.towed.map(seatName).join(", ") }));
    n.push(t("iwk_walk_deck", { n: o.deck }));
    return choice(o, [h("strong", {}, t(`iwk_${o.voyage}`)), notes(n)], { warn: o.towed && o.towed.length > 0 });
  });
  for (const m of d.missing || []) kids.push(missingEl(t(`iwk_${m.voyage}`), t(`iact_miss_${m.why}`, { needs: m.needs, has: m.has })));
  return [h("p", {}, t("iwk_crossing")), h("div", { class: "choices" }, kids)];
}

const BODIES = { abandon: abandonBody, cargo: cargoBody, drop_upgrade: dropBody, cans: cansBody };
export function walkingBody(kind, d) { loadCss(); return BODIES[kind](d); }
