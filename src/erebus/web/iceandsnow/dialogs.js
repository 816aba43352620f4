// Every decision of Through Ice and Snow other than placing crew, as a dialog above
// the map: the set-up investor and cartography choice, the destination, the next map
// section's side, the voyage type, the Mast, the Boiler, discards, the infirmary,
// food shortage and the Damaged Compass.  Each option says what it costs and gives
// (the wire view's ``decision``: docs/iceandsnow-wire.md), each option the rules leave
// out says why; another seat's decision shows as "waiting for X to choose …".

import { APP } from "../core/state.js";
import { h } from "../core/dom.js";
import { t } from "../core/i18n.js";
import { COLORS, seatName } from "../core/seats.js";
import { sendAction, sendUndo } from "../core/connection.js";
import { anchor, anchorName, M, regionName } from "./material.js";
import { cardEl } from "./cards.js";
import { crewText, resText } from "./words.js";
import { crossingBody, walkingBody } from "./walking.js";

let lastKey = null;   // the decision last drawn (its first option is focused when it changes)

function missingWhy(key) { return t(`iact_miss_${key}`); }
function reasonText(r) {
  if (!r) return "";
  const m = /^event (\d+)/.exec(r);
  if (m) return t("iact_r_event", { n: m[1] });
  if (r.startsWith("fuel")) return t("iact_r_fuel");
  if (r === "feeding" || r === "mutiny") return t(`iact_r_${r}`);
  return r;
}

// A choice: a button that sends the option's action.
function choice(o, kids, extra = {}) {
  return h("button", { type: "button", class: "btn choice" + (extra.warn ? " warn" : ""), "data-testid": "choice",
    "data-action": JSON.stringify(o.action), onclick: () => sendAction(o.action) }, kids);
}
function missingEl(text, why) {
  return h("div", { class: "choice missing", "aria-disabled": "true", "data-testid": "missing" }, h("span", { class: "m-what" }, text), h("span", { class: "m-why" }, "✗ ", why));
}
function anchorLine(id, region = true) {
  const a = anchor(id);
  const bits = [h("strong", {}, anchorName(id))];
  if (a && region) bits.push(h("span", { class: "muted" }, regionName(a.region)));
  return bits;
}

function setupBody(d) {
  const kind = d.stage === "cartography" ? "cartography" : "investor";
  return [h("p", {}, t(kind === "investor" ? "iact_setup_investor_help" : "iact_setup_carto_help")),
    h("div", { class: "opt-cards" }, d.options.map((o) => cardEl(kind, o.card, { onPick: () => sendAction(o.action), testid: "choice" })))];
}
// What a section side holds beyond its anchors: the final-round (blue) and final
// anchors, and how many of its routes need extra icebreaking dynamite.
function sideNotes(sectionId, side, anchors) {
  const sec = M() && M().sections.find((s) => s.id === sectionId);
  const routes = (sec && sec.sides[side] && sec.sides[side].routes) || [];
  const notes = [];
  const blue = anchors.filter((a) => (anchor(a) || {}).blue).map(anchorName);
  const fin = anchors.filter((a) => (anchor(a) || {}).final_pp).map((a) => `${anchorName(a)} ${anchor(a).final_pp} PP`);
  if (blue.length) notes.push(`⚓ ${t("iact_dest_blue")}: ${blue.join(", ")}`);
  if (fin.length) notes.push(`⚑ ${fin.join(", ")}`);
  const extra = routes.filter((r) => r[2] > 0).length;
  notes.push(t("iact_side_routes", { n: routes.length, k: extra }));
  return notes.join(" · ");
}
function sectionBody(d) {
  return [h("p", {}, t("iact_section_help", { section: (M() && (M().sections.find((s) => s.id === d.section) || {}).name) || d.section || "" })),
    h("div", { class: "choices" }, d.options.map((o) => choice(o, [h("strong", {}, t("iact_side", { side: o.side })),
      h("span", { class: "muted" }, (o.anchors || []).map(anchorName).join(", ")),
      h("span", { class: "notes" }, sideNotes(d.section, o.side, o.anchors || []))])))];
}
function startBody(d) {
  return [h("p", {}, t("iact_start_help")), h("div", { class: "choices" }, d.options.map((o) => choice(o, anchorLine(o.to))))];
}
function destinationBody(d) {
  const rows = d.options.map((o) => {
    const bits = [...anchorLine(o.to, !o.region)];
    bits.push(h("span", { class: "dcost" }, t("iact_dyn_cost", { n: o.dynamite }), o.extra ? ` (${t("iact_dyn_extra", { n: o.extra })})` : ""));
    const notes = [];
    if (o.new_section) notes.push(t("iact_dest_new_section"));
    if (o.blue) notes.push("⚓ " + t("iact_dest_blue"));
    if (o.final_pp) notes.push("⚑ " + t("iact_dest_final", { pp: o.final_pp }));
    if (o.region) notes.push(o.mapped ? t("iact_dest_mapped", { region: regionName(o.region) }) : t("iact_dest_unmapped", { region: regionName(o.region) }));
    if (o.payers && o.payers.length) notes.push(t("iact_paid_by", { who: o.payers.map((p) => `${seatName(p.seat)} ×${p.dynamite}`).join(", ") }));
    if (!o.payable) notes.push("⚠ " + t("iact_dest_unpayable"));
    bits.push(h("span", { class: "notes" }, notes.join(" · ")));
    return choice(o, bits, { warn: !o.payable });
  });
  return [h("p", {}, t("iact_dest_help", { n: d.dynamite_total ?? "?" })), h("div", { class: "choices" }, rows)];
}
function voyageBody(d) {
  if (d.crossing) return crossingBody(d);  // Walking on Ice: Walk or Forced March
  const kids = d.options.map((o) => {
    const notes = [t("iact_voyage_fuel", { n: o.fuel }), t("iact_voyage_deck", { n: o.deck })];
    if (o.maps_region) notes.push(t("iact_voyage_maps"));
    if (o.towed && o.towed.length) notes.push(t("iact_voyage_towed", { who: o.towed.map(seatName).join(", ") }));
    if (o.boiler && o.boiler.length) notes.push(t("iact_voyage_boiler", { who: o.boiler.map(seatName).join(", ") }));
    if (o.towing_fails) notes.push("⚠ " + t("iact_voyage_fails"));
    return choice(o, [h("strong", {}, t(`iact_voyage_${o.voyage}`)), h("span", { class: "notes" }, notes.join(" · "))], { warn: o.towing_fails });
  });
  for (const m of d.missing || []) kids.push(missingEl(`${t(`iact_voyage_${m.voyage}`)} · ${t("iact_voyage_fuel", { n: m.fuel })}`, missingWhy(m.why)));
  return [h("p", {}, t("iact_voyage_help", { n: d.fuel_total ?? "?" })), h("div", { class: "choices" }, kids)];
}
function mastBody(d) {
  return [h("p", {}, t("iact_mast_help")), h("div", { class: "opt-cards" }, d.options.map((o) => cardEl("event", o.card, { onPick: () => sendAction(o.action), testid: "choice" })))];
}
function boilerBody(d) {
  return [h("p", {}, t("iact_boiler_help", { voyage: t(`iact_voyage_${d.voyage}`) })),
    h("div", { class: "choices" }, d.options.map((o) => choice(o, [h("strong", {}, o.use ? t("iact_boiler_use") : t("iact_boiler_no")),
      h("span", { class: "notes" }, t("iact_boiler_pays", { wood: o.pays.wood, fuel: o.pays.fuel }))])))];
}
function discardBody(d) {
  const kids = d.options.map((o) => choice(o, [h("strong", {}, t("iact_discard_one", { res: resText(o.resource) })), h("span", { class: "notes" }, t("iact_you_have", { n: o.have }))]));
  for (const m of d.missing || []) kids.push(missingEl(t("iact_discard_one", { res: resText(m.resource) }), missingWhy(m.why)));
  return [h("p", {}, t("iact_discard_help", { why: reasonText(d.reason) })), h("div", { class: "choices" }, kids)];
}
function infirmaryBody(d) {
  return [h("p", {}, t(d.allow_inuit ? "iact_infirmary_help" : "iact_infirmary_help_no_inuk", { n: d.count })),
    h("div", { class: "choices" }, d.options.map((o) => choice(o, [h("strong", {}, crewText(o.crew))])))];
}
function eatBody(d) {
  return [h("p", {}, t("iact_eat_help", { need: d.need, food: d.food, short: d.short, why: reasonText(d.reason) })),
    h("div", { class: "opt-cards" }, d.options.map((o) => cardEl("species", o.card, { onPick: () => sendAction(o.action), testid: "choice",
      note: t("iact_eat_note", { food: o.food, health: o.health, pp: o.pp }) })))];
}
function compassBody(d) {
  const kids = d.options.map((o) => choice(o, o.decline ? [h("strong", {}, t("iact_compass_decline", { to: anchorName(d.destination) }))] : anchorLine(o.to)));
  for (const m of d.missing || []) kids.push(missingEl(anchorName(m.to), missingWhy(m.why)));
  return [h("p", {}, t("iact_compass_help", { from: anchorName(d.from) })), h("div", { class: "choices" }, kids)];
}
// Legendary Expeditions: keep one of the two dealt explorers; McClure's food for morale.
function explorerBody(d) {
  return [h("p", {}, t("iact_explorer_help")),
    h("div", { class: "choices" }, d.options.map((o) => choice(o, [h("strong", {}, o.explorer),
      h("span", { class: "muted" }, o.ship),
      h("span", { class: "notes" }, t("iact_explorer_event", { n: o.event, name: o.event_name }))])))];
}
function benevolentBody(d) {
  return [h("p", {}, t("iact_benevolent_help", { food: d.food })),
    h("div", { class: "choices" }, d.options.map((o) => choice(o, [h("strong", {},
      o.use ? t("iact_benevolent_yes", { food: -o.food, morale: o.morale }) : t("iact_benevolent_no"))])))];
}
// Mysterious Epidemic: the set-up's free tile; the 2 crew who fall ill; treatments (free).
function chooseUpgradeBody(d) {
  return [h("p", {}, t("iact_choose_upgrade_help")),
    h("div", { class: "choices" }, d.options.map((o) => choice(o, [h("strong", {}, `${o.tile}. ${o.name}`),
      o.recommended ? h("span", { class: "notes" }, t("iact_choose_upgrade_recommended")) : null].filter(Boolean))))];
}
function fallIllBody(d) {
  return [h("p", {}, t("iact_fall_ill_help", { card: d.card, officer: crewText({ [d.officer]: 1 }) })),
    h("div", { class: "choices" }, d.options.map((o) => choice(o, [h("strong", {}, crewText(o.crew))])))];
}
function treatPanel(d) {
  return h("section", { class: "ice-decision", role: "group", "aria-label": t("iact_title_treat"), "data-testid": "treat-panel" },
    h("h3", {}, t("iact_title_treat")), h("p", {}, t("iact_treat_help")),
    h("div", { class: "choices" }, d.treat.map((o) => choice(o, [h("strong", {}, `${o.card} ${o.name}`),
      h("span", { class: "notes" }, t("iact_treat_heal", { crew: crewText(o.crew) }))]))));
}
const BODIES = { setup: setupBody, section: sectionBody, start: startBody, destination: destinationBody, voyage: voyageBody,
  mast: mastBody, boiler: boilerBody, discard: discardBody, infirmary: infirmaryBody, eat: eatBody, compass: compassBody,
  abandon: (d) => walkingBody("abandon", d), cargo: (d) => walkingBody("cargo", d), drop_upgrade: (d) => walkingBody("drop_upgrade", d), cans: (d) => walkingBody("cans", d),
  explorer: explorerBody, benevolent: benevolentBody, choose_upgrade: chooseUpgradeBody, fall_ill: fallIllBody };

function titleKey(d) { if (d.crossing) return "iact_title_crossing"; return d.kind === "setup" ? `iact_title_setup_${d.stage === "cartography" ? "cartography" : "investor"}` : `iact_title_${d.kind}`; }

// The pending decision (not placing crew): the seat to move's dialog, or whom we wait for.
export function decisionPanel() {
  const v = APP.view;
  const d = v && v.decision;
  if (d && !v.over && d.kind === "action" && d.mine && (d.treat || []).length && APP.legal.length) return treatPanel(d);
  if (!d || v.over || d.kind === "action") { lastKey = null; return null; }
  const who = d.seat;
  if (!d.mine || !BODIES[d.kind] || !APP.legal.length) {
    return h("section", { class: "ice-decision waiting", "data-testid": "decision-waiting", "aria-live": "polite" },
      h("span", { class: "swatch", style: `background:${COLORS[who] || "#999"}` }),
      t("iact_waiting", { name: seatName(who), what: t(titleKey(d)).toLowerCase() }));
  }
  const panel = h("section", { class: "ice-decision", role: "group", "aria-label": t(titleKey(d)), "data-testid": "decision", "data-kind": d.kind },
    h("h3", {}, t(titleKey(d))), ...BODIES[d.kind](d));
  if (APP.msg && APP.msg.can_undo) panel.append(h("div", { class: "row" }, h("button", { class: "btn small", "data-testid": "undo", onclick: sendUndo }, "↶ ", t("undo"))));
  const key = `${APP.version}|${d.kind}`;
  if (key !== lastKey) {
    lastKey = key;
    // focus the first choice once the panel is in the page (the board draws it next)
    // bring a new decision of ours into view and focus its first choice, once the
    // panel is in the page (the board draws it next)
    setTimeout(() => {
      const box = document.querySelector(".ice-decision:not(.waiting)");
      if (!box) return;
      const r = box.getBoundingClientRect();
      if (r.top < 0 || r.top > innerHeight - 80) box.scrollIntoView({ block: "start", behavior: "instant" });
      const first = box.querySelector("[data-testid=choice]");
      const act = document.activeElement;
      if (first && (!act || act === document.body || !act.closest("input, textarea, select"))) first.focus({ preventScroll: true });
    }, 0);
  }
  return panel;
}

export function onKey() { return false; }
