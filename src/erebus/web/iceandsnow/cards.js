// The cards of Through Ice and Snow drawn as cards: event, hunting, species, upgrade,
// investor and cartography (name, values, effect in the page's language).  Used by
// the dialogs, the action board and the personal boards (board.js, MAP).
//
//   cardEl(kind, id, {small, onPick, selected, note, testid}) -> HTMLElement
// ``onPick`` makes the card a button (click, Enter or Space).

import { h } from "../core/dom.js";
import { t, tr } from "../core/i18n.js";
import { animalCard, cartography, eventCard, investor, M, regionName, upgrade } from "./material.js";
import { resText } from "./words.js";

const KINDS = ["event", "hunting", "species", "upgrade", "investor", "cartography"];

function val(label, v, cls = "") { return h("span", { class: `ic-val ${cls}` }, h("small", {}, label), h("b", {}, String(v))); }

function eventBody(n) {
  const c = eventCard(n);
  if (!c) return { name: `#${n}`, head: t("iact_card_event"), vals: [], text: "" };
  const deck = c.deck === "coastal" ? t("iact_deck_coastal") : c.deck === "walking" ? t("iact_deck_walking") : t("iact_deck_open");
  const crew = (c.crew || []).join("/");
  const kind = c.kind === "action" ? t("iact_event_action", { n: crew || "?" }) : t("iact_event_immediate");
  return { name: c.name, head: `${t("iact_card_event")} ${n} · ${deck}`, vals: [h("span", { class: "ic-tag" + (c.kind === "action" ? " act" : "") }, kind)],
    text: tr(`iact_ev_${n}`, c.text) };
}
function huntingBody(id) {
  const c = animalCard(id);
  if (!c) return { name: id, head: t("iact_card_hunting"), vals: [], text: "" };
  const vals = [val(t("iact_prey"), c.prey), val(t("iact_food"), `+${c.food}`, "food")];
  if (c.health) vals.push(val(t("iact_health"), `+${c.health}`, "health"));
  const flags = [];
  if (c.whale) flags.push(t("iact_whale"));
  if (c.species) flags.push(t("iact_dual"));
  if (c.walrus) flags.push(t("iact_walrus"));
  let text = t("iact_hunt_text", { n: c.prey });
  if (c.whale || c.species) text += ` ${t("iact_needs_boat")}`;
  return { name: c.name, head: [t("iact_card_hunting"), ...flags].join(" · "), vals, text };
}
function speciesBody(id) {
  const c = animalCard(id);
  if (!c) return { name: id, head: t("iact_card_species"), vals: [], text: "" };
  const vals = [val(t("iact_pp"), c.pp, "pp"), val(t("iact_eaten"), `+${c.food}`, "food")];
  if (c.health) vals.push(val(t("iact_health"), `+${c.health}`, "health"));
  const discover = (M() && M().rules && M().rules.discover_pp) || 5;
  let text = t("iact_species_text", { pp: discover });
  if (c.fishing_boat) text += ` ${t("iact_needs_boat")}`;
  return { name: c.name, head: t("iact_card_species"), vals, text };
}
function upgradeBody(n) {
  const c = upgrade(n);
  if (!c) return { name: `#${n}`, head: t("iact_card_upgrade"), vals: [], text: "" };
  return { name: c.name, head: `${t("iact_card_upgrade")} ${n}`, vals: [val(t("iact_cost"), resText("wood", c.cost))], text: tr(`iact_up_${n}`, c.text) };
}
function investorBody(id) {
  const c = investor(id);
  if (!c) return { name: id, head: t("iact_card_investor"), vals: [], text: "" };
  const p = c.params || {};
  let n = p.n;
  if (n == null && Object.keys(p).length) n = Object.keys(p).sort().map((k) => p[k]).join("/") + ` (${Object.keys(p).sort().join("/")} ${t("iact_players")})`;
  const bonus = Object.entries(c.bonus || {}).map(([r, v]) => (["food"].includes(r) ? `${t("iact_food")} +${v}` : r === "inuit" ? `${t("iact_crew_inuit1")} ×${v}` : resText(r, v))).join(", ");
  const goal = tr(`iact_obj_${c.objective}`, c.objective.replace(/_/g, " "));
  return { name: c.name, head: t("iact_card_investor"), vals: [val(t("iact_reward"), `${c.reward} ${t("iact_pp")}`, "pp")],
    text: [t("iact_start_bonus", { b: bonus }), t("iact_objective", { o: goal.replace("{n}", n ?? "") })] };
}
function cartographyBody(id) {
  const c = cartography(id);
  if (!c) return { name: id, head: t("iact_card_cartography"), vals: [], text: "" };
  const pp = (M() && M().rules && M().rules.cartography_pp) || 5;
  return { name: c.regions.map(regionName).join(" · "), head: t("iact_card_cartography"), vals: [], text: t("iact_carto_text", { pp }) };
}
const BODIES = { event: eventBody, hunting: huntingBody, species: speciesBody, upgrade: upgradeBody, investor: investorBody, cartography: cartographyBody };

export function cardEl(kind, id, opts = {}) {
  const body = (BODIES[kind] || ((x) => ({ name: String(x), head: kind, vals: [], text: "" })))(id);
  const texts = Array.isArray(body.text) ? body.text : [body.text];
  const kids = [
    h("div", { class: "ic-head" }, body.head),
    h("div", { class: "ic-name" }, body.name),
    body.vals.length ? h("div", { class: "ic-vals" }, body.vals) : null,
    opts.small ? null : texts.filter(Boolean).map((x) => h("div", { class: "ic-text" }, x)),
    opts.note ? h("div", { class: "ic-note" }, opts.note) : null,
  ].flat();
  const cls = `ice-card k-${KINDS.includes(kind) ? kind : "other"}${opts.small ? " small" : ""}${opts.selected ? " selected" : ""}${opts.onPick ? " pick" : ""}`;
  const title = `${body.name} — ${texts.filter(Boolean).join(" ")}`;
  if (opts.onPick) {
    const b = h("button", { type: "button", class: cls, title, "data-testid": opts.testid || null, "data-card": String(id), "aria-pressed": opts.selected ? "true" : null }, kids);
    b.addEventListener("click", (e) => { e.stopPropagation(); opts.onPick(); });
    return b;
  }
  return h("div", { class: cls, title, "data-testid": opts.testid || null, "data-card": String(id) }, kids);
}
