// Placing crew on a space: the sheet that opens at the bottom of the screen when a
// space with legal "take" actions is chosen.  Each field that still varies among the
// legal actions of that space is asked in turn (legal.js STEPS: the hunting/species
// card or upgrade tile, the crew that goes — only the legal compositions —, the food
// lowered, the resource given, the resources collected, the officer role a crew
// member plays, the Survival deposit), then "Place crew".  Each choice made stays on
// the sheet as a chip that can be changed; Escape closes the sheet.

import { APP } from "../core/state.js";
import { h, $ } from "../core/dom.js";
import { t } from "../core/i18n.js";
import { sendAction } from "../core/connection.js";
import { renderGame } from "../core/table.js";
import { M, isSpeciesCard } from "./material.js";
import { cardEl } from "./cards.js";
import { creatureCardEl, mythsSpaceBadge } from "./myths.js";
import { cansText } from "./walking.js";
import { slotText } from "./legends.js";
import { CREW_KINDS, STEPS, nextStep } from "./legal.js";
import { crewPart, crewText, resText, resourcesText, spaceName, spaceNeeds } from "./words.js";

export const PL = { space: null, picks: {}, food: 0 };

function focusSheet() {
  const el = $("#ice-sheet [data-first]") || $("#ice-sheet button");
  if (el) el.focus({ preventScroll: true });
}
export function openPlacement(space) {
  if (PL.space === space) { closePlacement(); return; }
  PL.space = space; PL.picks = {}; PL.food = 0;
  renderGame();
  focusSheet();
}
export function closePlacement(render = true) {
  const had = PL.space;
  PL.space = null; PL.picks = {};
  if (render && had) {
    renderGame();
    const sp = document.querySelector(`.ice-space[data-space="${had}"]`);
    if (sp) sp.focus({ preventScroll: true });
  }
}
function legalOf(space) { return APP.legal.filter((a) => a.type === "take" && a.space === space); }
function pick(field, key) {
  // a new choice forgets the choices after it (they may no longer be legal)
  for (const f of STEPS.slice(STEPS.indexOf(field))) delete PL.picks[f];
  PL.picks[field] = key;
  renderGame();
  focusSheet();
}
function unpick(field) {
  for (const f of STEPS.slice(STEPS.indexOf(field))) delete PL.picks[f];
  renderGame();
  focusSheet();
}

// What a cabin's food lowered scores: the cabin's own PP plus 1 PP per N food.
function cabinPP(food) {
  const r = (M() && M().rules) || {};
  return (r.cabin_pp || 0) + Math.floor(food / (r.cabin_food_per_pp || 1));
}

// A chosen value in words (the chips of the choices already made).
function valueText(field, v) {
  if (field === "card") return v;
  if (field === "tile") return `#${v}`;
  if (field === "food") return PL.space === "build_cabin" ? t("iact_food_lowered_pp", { n: v, pp: cabinPP(v) }) : t("iact_food_lowered", { n: v });
  if (field === "slot") return slotText(v);  // George Back: the upgrade space
  if (field === "cans") return cansText(v);  // Walking on Ice: cans opened for a cabin
  if (field === "resource") return t("iact_give", { res: resText(v) });
  if (field === "take") return t("iact_collect", { res: resourcesText(v) });
  if (field === "proxy") return t("iact_proxy", { role: t(`iact_crew_${v}`) });
  if (field === "deposit") return t("iact_deposit_res", { res: resText(v) });
  return String(v);
}
function cardName(id) {
  const c = M() && M().cardById[id];
  return c ? c.name : id;
}

// A creature card among the cards of the "creature" space (Inuit Myths): a button.
function creaturePick(o) {
  return h("button", { type: "button", class: "btn popt", "data-testid": "opt-card", onclick: () => pick("card", o.key) }, creatureCardEl(o.value, { small: true }));
}

function crewButton(o, first) {
  const pawns = CREW_KINDS.filter((k) => o.value[k]).map((k) => h("span", { class: `pawnword p-${k}` }, crewPart(k, o.value[k])));
  const b = h("button", { type: "button", class: "btn popt crew-opt", "data-crew": o.key, "data-first": first ? "" : null, onclick: () => pick("crew", o.key) },
    pawns.length ? pawns.flatMap((p, i) => (i ? [" + ", p] : [p])) : "—");
  return b;
}

function optionsFor(step) {
  const f = step.field;
  const opts = step.options;
  if (f === "crew") return h("div", { class: "opt-row" }, opts.map((o, i) => crewButton(o, i === 0)));
  if (f === "card") {
    return h("div", { class: "opt-cards" }, opts.map((o, i) => {
      const kind = isSpeciesCard(o.value) ? "species" : "hunting";
      const el = PL.space === "creature" ? creaturePick(o) : cardEl(kind, o.value, { onPick: () => pick("card", o.key), testid: "opt-card" });
      if (!i) el.setAttribute("data-first", "");
      return el;
    }));
  }
  if (f === "tile") {
    return h("div", { class: "opt-cards" }, opts.map((o, i) => {
      const el = cardEl("upgrade", o.value, { onPick: () => pick("tile", o.key), testid: "opt-tile" });
      if (!i) el.setAttribute("data-first", "");
      return el;
    }));
  }
  if (f === "food") {
    const vals = opts.map((o) => o.value ?? 0);
    const lo = Math.min(...vals), hi = Math.max(...vals);
    if (!vals.includes(PL.food)) PL.food = lo;
    const label = h("output", { class: "food-out", "aria-live": "polite" }, valueText("food", PL.food));
    const range = h("input", { type: "range", min: String(lo), max: String(hi), step: "1", value: String(PL.food), "data-first": "",
      "aria-label": t("iact_food_choose"), "data-testid": "food-range" });
    range.addEventListener("input", () => { PL.food = Number(range.value); label.textContent = valueText("food", PL.food); });
    range.addEventListener("keydown", (e) => {
      if (e.key === "Enter") { e.preventDefault(); chooseFood(); }
      else if (e.key === "Escape") { e.preventDefault(); closePlacement(); }
    });
    const chooseFood = () => { const o = opts.find((x) => (x.value ?? 0) === PL.food); if (o) pick("food", o.key); };
    return h("div", { class: "opt-food" }, h("span", { class: "lbl" }, t("iact_food_choose")), range, label,
      h("button", { type: "button", class: "btn primary", "data-testid": "food-ok", onclick: chooseFood }, t("ok")));
  }
  return h("div", { class: "opt-row" }, opts.map((o, i) => h("button", { type: "button", class: "btn popt", "data-first": i ? null : "",
    "data-value": o.key, onclick: () => pick(f, o.key) }, valueText(f, o.value))));
}

const STEP_TITLE = { crew: "iact_step_crew", card: "iact_step_card", tile: "iact_step_tile", food: "iact_step_food", resource: "iact_step_resource",
  take: "iact_step_take", proxy: "iact_step_proxy", slot: "ilg_step_slot", deposit: "iact_step_deposit", cans: "iwk_step_cans" };

export function placementSheet() {
  const space = PL.space;
  const all = legalOf(space);
  const sheet = h("div", { id: "ice-sheet", class: "ice-sheet", role: "dialog", "aria-label": t("iact_place_on", { space: spaceName(space) }), "data-testid": "placement" });
  const head = h("div", { class: "sheet-head" },
    h("strong", {}, t("iact_place_on", { space: spaceName(space) })),
    h("span", { class: "muted" }, spaceNeeds(space)),
    mythsSpaceBadge(space),
    h("button", { type: "button", class: "btn small", "data-testid": "placement-cancel", onclick: () => closePlacement(), title: "Esc" }, t("cancel"), " (Esc)"));
  sheet.append(head);
  const step = nextStep(all, PL.picks);
  if (!step.acts.length) { PL.picks = {}; return placementSheet(); }
  const a = step.acts[0];
  const chips = h("div", { class: "chips" });
  for (const f of STEPS) if (PL.picks[f] !== undefined) chips.append(chip(pickedText(f, a[f]), () => unpick(f)));
  if (chips.childNodes.length) sheet.append(chips);
  if (step.field) {
    sheet.append(h("div", { class: "step", "data-step": step.field },
      h("div", { class: "step-title" }, t(STEP_TITLE[step.field], { n: step.options.length })), optionsFor(step)));
    return sheet;
  }
  // one action left: what it is, in full (the fields that never varied too), and Place crew
  const fixed = STEPS.filter((f) => PL.picks[f] === undefined && a[f] != null);
  const cards = [];
  const words = [];
  for (const f of fixed) {
    if (f === "card") cards.push(space === "creature" ? creatureCardEl(a.card, { small: true }) : cardEl(isSpeciesCard(a.card) ? "species" : "hunting", a.card, { small: true }));
    else if (f === "tile") cards.push(cardEl("upgrade", a.tile, { small: true }));
    else words.push(pickedText(f, a[f]));
  }
  if (cards.length || words.length) sheet.append(h("div", { class: "fixed" }, cards, words.length ? h("span", {}, words.join(" · ")) : null));
  sheet.append(h("div", { class: "row" },
    h("button", { type: "button", class: "btn primary", "data-first": "", "data-testid": "place-crew",
      onclick: () => { closePlacement(false); sendAction(a); } }, t("iact_place_crew"))));
  return sheet;
}

function pickedText(f, v) {
  if (f === "crew") return t("iact_crew_goes", { crew: crewText(v) });
  if (f === "card") return cardName(v);
  if (f === "tile") { const u = M() && M().upgradeByNo[String(v)]; return u ? `${u.name} (${resText("wood", u.cost)})` : `#${v}`; }
  return valueText(f, v);
}

function chip(text, onChange) {
  const c = h("span", { class: "chip" }, "✓ ", text);
  if (onChange) c.append(" ", h("button", { type: "button", class: "btn tiny", "aria-label": `${t("iact_change")}: ${text}`, onclick: onChange }, t("iact_change")));
  return c;
}

