// The cards of the round, face up beside the action board: this round's event card
// (with what is in force until the round ends), the revealed hunting and species
// cards, and the decks' sizes — what a player weighs before choosing a space.

import { APP } from "../core/state.js";
import { h } from "../core/dom.js";
import { t } from "../core/i18n.js";
import { cardEl } from "./cards.js";
import { animalCard, isSpeciesCard } from "./material.js";

export function roundCardsEl() {
  const v = APP.view;
  const c = v.cards;
  if (!c || v.round === 0) return null;
  const ev = c.event;
  const groups = [];
  if (ev) {
    const note = ev.kind === "action" ? (ev.taken ? t("iact_why_event_taken") : t("iact_event_take_hint")) : null;
    groups.push(h("div", { class: "rc-group", "data-testid": "round-event" }, h("div", { class: "rc-head" }, t("iact_round_event")),
      h("div", { class: "rc-cards" }, cardEl("event", ev.number, { note }))));
  }
  const hunting = c.hunting || [];
  groups.push(h("div", { class: "rc-group", "data-testid": "round-hunting" }, h("div", { class: "rc-head" }, t("iact_round_hunting", { n: hunting.length })),
    h("div", { class: "rc-cards" }, hunting.length ? hunting.map((id) => cardEl(isSpeciesCard(id) ? "species" : "hunting", id, { small: true })) : h("span", { class: "muted" }, "—"))));
  const species = c.species || [];
  groups.push(h("div", { class: "rc-group", "data-testid": "round-species" }, h("div", { class: "rc-head" }, t("iact_round_species", { n: species.length })),
    h("div", { class: "rc-cards" }, species.length ? species.map((id) => cardEl("species", id, { small: true, note: (c.discovered || []).includes((animalCard(id) || {}).species) ? t("iact_discovered") : null })) : h("span", { class: "muted" }, "—"))));
  const d = v.decks || {};
  const mods = (c.modifiers || []).map((m) => t(`iact_mod_${m}`));
  return h("div", { class: "ice-round-cards", "data-testid": "round-cards" }, groups,
    h("div", { class: "rc-foot muted" },
      mods.length ? h("span", { class: "rc-mods" }, t("iact_in_force", { what: mods.join(", ") })) : null,
      h("span", {}, t("iact_decks", { hu: d.hunting ?? "?", sp: d.species ?? "?", open: d.events_open ?? "?", coastal: d.events_coastal ?? "?" }))));
}
