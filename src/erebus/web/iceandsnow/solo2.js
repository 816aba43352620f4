// The Myths & Legends solo scenarios at the browser table (the wire view's
// map.scenario for "mysterious-epidemic" and "amundsens-voyage", docs/iceandsnow-wire.md):
// Mysterious Epidemic — the settlement card and the Inuk pawns on the map, the disease
// cards beside the board with the crew on each, the treatment cards with their two
// requirements (met now or not) and the treatments as free actions, the decks' sizes,
// the set-up's free upgrade and the "who falls ill" dialog; Amundsen's Voyage — the
// black cylinders on the health and morale tracks and what removes them, Gjøa Haven,
// the open sea refused.  Both: the objectives, the log lines and the end's reasons.
// Nothing here is drawn in another game.

import { APP, isMyTurn } from "../core/state.js";
import { h, s } from "../core/dom.js";
import { t, tr } from "../core/i18n.js";
import { sendAction } from "../core/connection.js";
import { MAP, anchorOf, anchorName } from "./mapdata.js";
import { crewText } from "./words.js";

let cssLoaded = false;
function loadCss() {
  if (cssLoaded || typeof document === "undefined") return;
  cssLoaded = true;
  const href = new URL("./solo2.css", import.meta.url).href;
  if (!document.querySelector(`link[href="${href}"]`)) document.head.append(h("link", { rel: "stylesheet", href }));
}

const EPIDEMIC = "mysterious-epidemic", AMUNDSEN = "amundsens-voyage";
export function solo2(v = APP.view) {
  const sc = v && v.map && v.map.scenario;
  return sc && (sc.id === EPIDEMIC || sc.id === AMUNDSEN) ? sc : null;
}
function scenData(id) { const M = MAP(); return (M && M.content.scenarios && M.content.scenarios[id]) || {}; }
function card(kind, id) { return ((scenData(EPIDEMIC)[kind]) || []).find((c) => c.id === id) || { id, name: id }; }
const diseaseName = (id) => tr(`is2_dis_${id}`, card("diseases", id).name);
const treatmentName = (id) => tr(`is2_tr_${id}`, card("treatments", id).name);
const officerWord = (o) => t(`is_crew1_${o}`);
function speciesWord(sp) {
  const M = MAP(); const c = M && [...M.content.cards.species, ...(M.content.cards.dual || [])].find((x) => x.species === sp);
  return c ? c.name : String(sp).replace(/_/g, " ");
}
function speciesCard(id) { const M = MAP(); const c = M && M.content.cards.species.find((x) => x.id === id); return c ? c.name : id; }

// -- words -------------------------------------------------------------------------------------

// A treatment requirement (the wire's {kind, met, value, best} / {kind, met, species, discards}).
export function requirementText(r) {
  if (r.kind === "explore") return t("is2_req_explore", { n: r.value, best: r.best });
  if (r.kind === "cabin_food") return t("is2_req_cabin", { n: r.value, best: r.best });
  return t("is2_req_species", { species: (r.species || []).map(speciesWord).join(" + ") });
}
const OBJ = { healthy_crew: "is2_obj_healthy_crew", passage: "is2_obj_passage", haven: "is2_obj_haven" };
function objectivesEl(sc) {
  return h("span", { class: "is2-objs", "data-testid": "objectives" }, (sc.objectives || []).map((o) =>
    h("span", { class: "is2-obj " + (o.met ? "ok" : "muted"), "data-objective": o.id, "data-met": String(o.met) },
      (o.met ? "✓ " : "○ ") + t(OBJ[o.id] || o.id) + (o.id === "healthy_crew" ? ` (${o.value})` : ""))));
}

// -- the info strip (board.js's scenario panel) ---------------------------------------------------

export function solo2Info(v) {
  const sc = solo2(v); if (!sc) return null;
  loadCss();
  if (sc.id === EPIDEMIC) {
    const ill = crewText(sc.ill);
    return h("div", { class: "is-scen is2", "data-testid": "scenario" },
      h("b", {}, t("is2_epidemic")), " ", objectivesEl(sc),
      h("span", {}, t("is2_settlement", { card: settlementNo(sc.settlement) })),
      h("span", {}, t("is2_inuit_waiting", { n: (sc.inuit || []).length })),
      h("span", { class: sc.diseases.length ? "warn-text" : "muted" }, t("is2_ill", { crew: ill })));
  }
  const c = sc.cylinders, left = [c.health, c.morale_right, c.morale_left].filter(Boolean).length;
  return h("div", { class: "is-scen is2", "data-testid": "scenario" },
    h("b", {}, t("is2_amundsen")), " ", objectivesEl(sc),
    h("span", {}, left ? t("is2_cyl_left", { n: left }) : t("is2_cyl_gone")),
    h("span", { class: sc.haven.this_round ? "warn-text" : "" }, havenText(sc)));
}
function settlementNo(id) { const m = /(\d+)$/.exec(id || ""); return m ? m[1] : id || "—"; }
function havenText(sc) {
  const hv = sc.haven;
  if (hv.founded) return t("is2_haven_founded");
  if (hv.this_round) return t("is2_haven_now", { n: hv.food_needed });
  if (hv.revealed_round) return t("is2_haven_missed", { n: hv.revealed_round });
  return t("is2_haven_not");
}

// The end screen's objectives: each met or not (the engine's objectives_missing names
// only what its own end check needs).
export function solo2EndObjectives(v) {
  const sc = solo2(v); if (!sc) return null;
  loadCss();
  return h("div", { class: "is-objectives", "data-testid": "end-objectives" }, h("b", {}, t("is2_objectives")), " ",
    h("ul", {}, (sc.objectives || []).map((o) => h("li", { class: o.met ? "ok" : "", "data-objective": o.id, "data-met": String(o.met) },
      (o.met ? "✓ " : "✗ ") + t(OBJ[o.id] || o.id)))));
}

// -- beside the action board: the cards, the cylinders, the free treatments -------------------------

function diseaseEl(d) {
  return h("div", { class: "ice-card k-disease", "data-testid": "disease-card", "data-card": d.card, title: diseaseName(d.card) },
    h("div", { class: "ic-head" }, `${t("is2_disease")} · ${d.card}`),
    h("div", { class: "ic-name" }, diseaseName(d.card)),
    h("div", { class: "ic-text" }, t("is2_officer_falls", { officer: officerWord(d.officer) })),
    h("div", { class: "ic-note warn-text" }, t("is2_on_card", { crew: crewText(d.crew) })));
}
function reqEl(n, r) {
  return h("div", { class: "ic-text is2-req" + (r.met ? " met" : ""), "data-met": String(r.met) },
    h("span", { class: "ic-tag" }, t("is2_heal_n", { n })), " ", requirementText(r), " ",
    h("b", {}, r.met ? "✓ " + t("is2_req_met") : "✗ " + t("is2_req_not_met")));
}
function treatmentEl(tc) {
  return h("div", { class: "ice-card k-treatment", "data-testid": "treatment-card", "data-card": tc.card, title: treatmentName(tc.card) },
    h("div", { class: "ic-head" }, `${t("is2_treatment")} · ${tc.card}`),
    h("div", { class: "ic-name" }, treatmentName(tc.card)),
    reqEl(1, tc.heal_1), reqEl(2, tc.heal_2));
}
function treatButtons() {
  const v = APP.view, d = v.decision;
  if (!d || d.kind !== "action" || !d.mine || !isMyTurn()) return null;
  const free = (d.free || []).filter((f) => f.kind === "treat");
  if (!free.length) return null;
  return h("div", { class: "is2-free", role: "group", "aria-label": t("is2_free_treat_title") }, free.map((f) =>
    h("button", { type: "button", class: "btn small", "data-testid": "free-treat", "data-action": JSON.stringify(f.action), title: t("is2_free_treat_title"),
      onclick: () => sendAction(f.action) },
    t("is2_treat", { name: treatmentName(f.card), crew: crewText(f.crew) }),
    f.discards && f.discards.length ? h("span", { class: "muted" }, " · ", t("is2_gives", { cards: f.discards.map(speciesCard).join(", ") })) : null)));
}

export function solo2Panel() {
  const sc = solo2(); if (!sc) return null;
  loadCss();
  if (sc.id === EPIDEMIC) {
    const discard = (ids, name) => (ids.length ? t("is2_discard", { cards: ids.map(name).join(", ") }) : "");
    const head = h("div", { class: "is2-head" },
      h("strong", {}, t("is2_epidemic")),
      h("span", { class: "muted" }, t("is2_disease_deck", { n: sc.disease_deck }), " ", discard(sc.disease_discard, diseaseName)),
      h("span", { class: "muted" }, t("is2_treatment_deck", { n: sc.treatment_deck }), " ", discard(sc.treatment_discard, treatmentName)));
    const cards = [...sc.diseases.map(diseaseEl), ...sc.treatments.map(treatmentEl)];
    return h("div", { class: "is2-panel", "data-testid": "epidemic-panel" }, head,
      h("div", { class: "is2-cards" }, cards.length ? cards : h("span", { class: "muted" }, t("is2_no_cards"))),
      treatButtons());
  }
  const c = sc.cylinders, rm = sc.removal;
  const lines = [];
  lines.push(h("span", { class: "is-chip" + (c.health ? "" : " done"), "data-cylinder": "health" },
    c.health ? "⬤ " + t("is2_cyl_health", { n: sc.health_limit }) : "✓ " + t("is2_cyl_health_gone"),
    c.health ? h("small", { class: "muted" }, " — ", t("is2_remove_health", { species: rm.health.eaten_species.map(speciesWord).join(", ") || "—" })) : null));
  lines.push(h("span", { class: "is-chip" + (c.morale_right || c.morale_left ? "" : " done"), "data-cylinder": "morale" },
    c.morale_right || c.morale_left ? "⬤ " + t("is2_cyl_morale", { n: sc.morale_limit }) : "✓ " + t("is2_cyl_morale_gone"),
    c.morale_right || c.morale_left ? h("small", { class: "muted" }, " — ",
      [c.morale_right ? t("is2_remove_right", { n: rm.morale_right.explore_pp }) : null, c.morale_left ? t("is2_remove_left", { n: rm.morale_left.explore_pp }) : null].filter(Boolean).join("; ")) : null));
  return h("div", { class: "is2-panel", "data-testid": "amundsen-panel" },
    h("div", { class: "is2-head" }, h("strong", {}, t("is2_amundsen")), h("span", { class: "muted" }, t("is2_explorer"))),
    h("div", { class: "is2-cyls" }, lines),
    h("div", { class: "is2-haven" + (sc.haven.this_round ? " now" : ""), "data-testid": "haven" }, havenText(sc)));
}

// -- the map: the Inuk pawns on the settlement anchors ----------------------------------------------

export function inukLayer(z) {
  const sc = solo2(); if (!sc || sc.id !== EPIDEMIC || !(sc.inuit || []).length) return null;
  loadCss();
  const g = s("g", { class: "is2-inuit" });
  for (const id of sc.inuit) {
    const a = anchorOf(id); if (!a) continue;
    const label = t("is2_inuk_at", { anchor: anchorName(id) });
    const k = 0.16 * z;  // a small pawn standing up-right of the anchor's dot
    g.append(s("g", { class: "is2-inuk", transform: `translate(${(a.px + 0.17 * z).toFixed(3)} ${(a.py - 0.2 * z).toFixed(3)}) scale(${k.toFixed(3)})`,
      "data-testid": "inuk-pawn", "data-anchor": id, role: "img", "aria-label": label, tabindex: "0" },
    s("title", {}, label),
    s("circle", { cx: 0, cy: -0.45, r: 0.32, class: "is2-inuk-b" }),
    s("path", { d: "M-0.6 0.8 Q-0.6 -0.15 0 -0.15 Q0.6 -0.15 0.6 0.8Z", class: "is2-inuk-b" })));
  }
  return g;
}

// -- the personal board: the black cylinders on the tracks, the ill crew --------------------------

// The track marks of seat ``i``'s board ({value, cls, title}) for pboard.js's track().
export function cylinderMarks(i, track) {
  const me = APP.view && APP.view.seats[i];
  const tr_ = me && me[track];
  if (!tr_ || !tr_.cylinders || !tr_.cylinders.length) return [];
  loadCss();
  return tr_.cylinders.map((v) => ({ value: v, cls: "is2-cyl-cell", title: t("is2_cyl_title") }));
}

// -- dialogs -----------------------------------------------------------------------------------------

function choice(o, kids) {
  return h("button", { type: "button", class: "btn choice", "data-testid": "choice", "data-action": JSON.stringify(o.action), onclick: () => sendAction(o.action) }, kids);
}
function chooseUpgradeBody(d, cardEl) {
  loadCss();
  return [h("p", {}, t("iact_choose_upgrade_help")),
    h("div", { class: "opt-cards" }, d.options.map((o) => cardEl("upgrade", o.tile, { onPick: () => sendAction(o.action), testid: "choice",
      note: o.recommended ? "★ " + t("is2_recommended") : null })))];
}
function fallIllBody(d) {
  loadCss();
  return [h("p", {}, t("iact_fall_ill_help", { name: diseaseName(d.card), officer: officerWord(d.officer), n: d.count })),
    h("div", { class: "choices" }, d.options.map((o) => choice(o, [h("strong", {}, crewText(o.crew))])))];
}
// Decision kind → (d, cardEl) → the dialog's body (dialogs.js merges them).
export const SOLO2_BODIES = { choose_upgrade: chooseUpgradeBody, fall_ill: fallIllBody };

// -- the log -------------------------------------------------------------------------------------------

export function solo2EventText(e, k) {
  switch (e.type) {
    case "DiseaseRevealed": return k(e.type, { name: diseaseName(e.card), officer: officerWord(e.officer) });
    case "TreatmentRevealed": return k(e.type, { name: treatmentName(e.card) });
    case "CrewIll": return k(e.ill ? "CrewIll" : "CrewIll_healed", { crew: crewText(Object.fromEntries(["captain", "carpenter", "scientist", "sailors", "inuit"].map((c, i) => [c, (e.crew || [])[i] || 0]))), name: /^T/.test(e.card) ? treatmentName(e.card) : diseaseName(e.card) });
    case "InuitSettled": return k(e.type, { anchors: (e.anchors || []).map(anchorName).join(", ") });
    default: return e.text || e.type;
  }
}
const CYL = { "health": "health", "right morale": "right", "left morale": "left" };
// A ScenarioProgress of the two scenarios in words (null: not one of theirs).
export function solo2Progress(e, k) {
  const w = String(e.what || "");
  let m;
  if ((m = /^Inuit settlement card (.+)$/.exec(w))) return k("ScenarioProgress_settlement", { card: settlementNo(m[1]) });
  if (w === "an Inuk joins the crew") return k("ScenarioProgress_inuk");
  if ((m = /^species card (.+) given for a treatment$/.exec(w))) return k("ScenarioProgress_given", { card: speciesCard(m[1]) });
  if ((m = /^the (.+) black cylinder is removed \((.+)\)$/.exec(w))) {
    const why = /^an Explore of (\d+) PP$/.exec(m[2]);
    return k(`ScenarioProgress_cyl_${CYL[m[1]] || "health"}`, { why: why ? t("is2_why_explore", { n: why[1] }) : t("is2_why_diet") });
  }
  if (w === "Gjøa Haven may be founded this round") return k("ScenarioProgress_haven_revealed");
  if (w === "Gjøa Haven is founded") return k("ScenarioProgress_haven_founded");
  return null;
}
// The engine's texts of a lost game or a missing objective, in words (null: not ours).
const TEXTS = { "at the end of Boarding every crew member but the Inuit is ill": "is2_over_all_ill", "Gjøa Haven was not founded": "is2_missing_haven" };
export function solo2Text(r) { return TEXTS[r] ? t(TEXTS[r]) : null; }
