// Through Ice and Snow in words for ACTIONS' panels: crews, resources, spaces, their
// requirements and effects, in the page's language (i18n keys "iact_…"; the content
// file's English line is the fallback for a text the language files do not have).

import { APP } from "../core/state.js";
import { t, tr } from "../core/i18n.js";
import { M, eventCard, space as spaceOf } from "./material.js";
import { CREW_KINDS } from "./legal.js";

// A crew kind with a count: "captain", "sailor ×2".
export function crewPart(kind, n) { return n > 1 ? `${t(`iact_crew_${kind}`)} ×${n}` : t(`iact_crew_${kind}`); }
// A crew ({captain:1, sailors:2}) in words: "captain + sailor ×2"; nobody: "—".
export function crewText(crew) {
  const parts = CREW_KINDS.filter((k) => crew && crew[k]).map((k) => crewPart(k, crew[k]));
  return parts.length ? parts.join(" + ") : "—";
}
export function resText(res, n = 1) { return n === 1 ? t(`iact_res_${res}`) : `${t(`iact_res_${res}`)} ×${n}`; }
// Resources ({"wood": 2, "dogs": 1}) in words; none: "—".
export function resourcesText(take) {
  const parts = Object.entries(take || {}).filter(([, v]) => v).map(([r, v]) => resText(r, v));
  return parts.length ? parts.join(" + ") : "—";
}

// The numbers a text of the rules may name ({cabin_pp}, {explore_morale} …).
function ruleWords(sp) {
  const r = (M() && M().rules) || {};
  const w = {};
  for (const [k, v] of Object.entries(r)) if (typeof v === "number") w[k] = v;
  w.wood = sp && sp.wood ? sp.wood : 0;
  w.fuel = sp && sp.fuel ? sp.fuel : 0;
  if (r.visit_inuit) { w.visit_dogs = r.visit_inuit.dogs; w.visit_fuel = r.visit_inuit.fuel; }
  if (r.experiment) { w.exp_fuel = r.experiment.fuel; w.exp_dyn = r.experiment.dynamite; }
  if (sp && sp.resource) w.res = t(`iact_res_${sp.resource}`);
  const wh = sp && M() && M().warehouseByCol[sp.column];
  if (wh) w.gives = t(`iact_res_${wh.gives}`);
  return w;
}

export function spaceName(id) {
  const sp = spaceOf(id);
  return tr(`iact_space_${id}`, sp ? sp.name : id.replace(/_/g, " "));
}
// What a space does, in a line.
export function spaceEffect(id) {
  const sp = spaceOf(id);
  const key = `iact_does_${id.replace(/_(captain|carpenter|scientist)$/, "")}`;
  const v = t(key, ruleWords(sp));
  return v === key ? (sp ? sp.text : "") : v;
}
// What a space asks for: the officer (or the alternatives), the crew count, the wood
// or fuel paid (board.json's need / totals / wood / fuel).
export function spaceNeeds(id) {
  const sp = spaceOf(id);
  if (!sp) return "";
  if (id === "event") {  // the round's action event card says how many crew it takes
    const ev = APP.view && APP.view.cards && APP.view.cards.event;
    const card = ev && eventCard(ev.number);
    if (card && card.crew && card.crew.length) return t("iact_need_n", { n: card.crew.join(` ${t("iact_or")} `) });
  }
  const parts = [];
  const need = sp.need || [];
  const totals = sp.totals || [];
  const who = need.map((k) => t(`iact_crew_${k === "inuit" ? "inuit1" : k}`)).join(` ${t("iact_or")} `);
  if (id.startsWith("vow_")) parts.push(t("iact_need_vow", { who }));
  else if (!need.length && !totals.length) parts.push(t("iact_need_any"));
  else if (need.length && !totals.length) parts.push(t("iact_need_officer_more", { who }));
  else if (need.length) {
    const extra = totals.map((n) => n - 1);
    if (extra.length === 1 && extra[0] === 0) parts.push(who);
    else parts.push(t("iact_need_officer_plus", { who, n: extra.join(` ${t("iact_or")} `) }));
  } else parts.push(t("iact_need_n", { n: totals.join(` ${t("iact_or")} `) }));
  if (sp.wood) parts.push(t("iact_pay_wood", { n: sp.wood }));
  if (sp.fuel) parts.push(t("iact_pay_fuel", { n: sp.fuel }));
  if (id === "explore") parts.push(t("iact_need_dog"));
  if (id === "hunt") parts.push(t("iact_need_prey"));
  if (id === "upgrade_ship") parts.push(t("iact_need_tile_wood"));
  return parts.join(" · ");
}
