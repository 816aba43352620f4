// Inuit Myths at the browser table (the wire view's "myths" field, docs/iceandsnow-wire.md):
// the creature token on the map, the creature cards in play drawn as cards with their
// own action (Build an Inukshuk, Visit the Shaman: a button that opens the placement
// sheet of the "creature" space), the creature deck, the curse cylinder and the Inuit
// held on each personal board, the extra requirement a creature puts on action-board
// spaces, and the module's log lines.  Nothing here is drawn when the module is off.

import { APP, isMyTurn } from "../core/state.js";
import { h, s } from "../core/dom.js";
import { t, tr } from "../core/i18n.js";
import { seatName } from "../core/seats.js";
import { MAP, regionName } from "./mapdata.js";

let cssLoaded = false;
function loadCss() {
  if (cssLoaded || typeof document === "undefined") return;
  cssLoaded = true;
  const href = new URL("./myths.css", import.meta.url).href;
  if (!document.querySelector(`link[href="${href}"]`)) document.head.append(h("link", { rel: "stylesheet", href }));
}

export function myths(v = APP.view) { return (v && v.myths) || null; }

function creatureData(n) {
  const M = MAP();
  const mod = M && M.content && M.content.modules && M.content.modules.inuit_myths;
  return mod ? mod.creatures.find((c) => c.number === Number(n)) || null : null;
}
export function creatureName(n) { const c = creatureData(n); return c ? c.name : `#${n}`; }

// -- the log ----------------------------------------------------------------------------

// The module's events in words; ``k(key, params)`` is events.js's wording helper.
export function mythsEventText(e, k) {
  switch (e.type) {
    case "CreatureMoved": return k(e.type, { region: regionName(e.region) });
    case "CreatureRevealed": case "CreatureGone": return k(e.type, { number: e.number, name: e.name || creatureName(e.number) });
    case "InuitHeld": return k(e.held ? "InuitHeld" : "InuitHeld_back", { n: e.count });
    case "CurseChanged": return k(e.cursed ? "CurseChanged" : "CurseChanged_lifted");
    default: return e.text || e.type;
  }
}

// -- a creature card, drawn as a card -------------------------------------------------------

export function creatureCardEl(n, opts = {}) {
  loadCss();
  const c = creatureData(n) || { number: n, name: `#${n}`, lasts: "round", action: null, text: "" };
  const kids = [
    h("div", { class: "ic-head" }, `${t("is_myth_title")} · ${n}`),
    h("div", { class: "ic-name" }, c.name),
    opts.small ? null : h("div", { class: "ic-text" }, tr(`iact_cr_${n}`, c.text)),
    c.action && !opts.small ? h("div", { class: "ic-text ic-act" }, "▶ ", tr(`iact_cract_${n}`, `${c.action.name}: ${c.action.text}`),
      " ", h("span", { class: "ic-tag act" }, t("iact_need_n", { n: c.action.crew.join(` ${t("iact_or")} `) }))) : null,
    opts.small ? null : h("div", { class: "ic-note muted" }, t(`is_myth_lasts_${c.lasts}`)),
    opts.note ? h("div", { class: "ic-note" }, opts.note) : null,
  ];
  const cls = `ice-card k-creature${opts.small ? " small" : ""}`;
  return h("div", { class: cls, title: `${c.name} — ${tr(`iact_cr_${n}`, c.text)}`, "data-card": String(n), "data-testid": opts.testid || "creature-card" }, kids);
}

// -- the panel beside the map ------------------------------------------------------------

// The creature token, the deck and the cards in play, with their actions for the seat to act.
export function mythsPanel(openPlacement) {
  const my = myths(); if (!my) return null;
  loadCss();
  const v = APP.view;
  const token = my.creature_at ? t("is_myth_token", { region: regionName(my.creature_at) }) : t("is_myth_token_none");
  const cards = my.in_play.map((e) => {
    const note = [];
    if (e.takers.length) note.push(t("is_myth_taken_by", { who: e.takers.map(seatName).join(", ") }));
    const el = creatureCardEl(e.number, { note: note.join(" · ") || null });
    if (e.action) {
      const mine = isMyTurn() && v.pending === "action" && !v.over;
      const can = mine && e.action.can_take;
      const b = h("button", { type: "button", class: "btn small" + (can ? " primary" : ""), disabled: can ? null : "", "data-testid": "creature-take",
        "data-card": String(e.number), onclick: () => { if (can && openPlacement) openPlacement("creature"); } }, e.action.name);
      el.append(h("div", { class: "ic-do" }, b));
    }
    return el;
  });
  return h("div", { class: "is-myths", "data-testid": "myths" },
    h("div", { class: "is-myths-head" }, h("b", {}, t("is_myth_title")), " ", tokenIcon(), " ", h("span", { "data-testid": "creature-at" }, token),
      h("span", { class: "muted" }, " · ", t("is_myth_deck", { n: my.deck, box: my.box.length }))),
    cards.length ? h("div", { class: "is-myths-cards" }, cards) : h("div", { class: "muted" }, t("is_myth_none")));
}

function tokenIcon() {
  return s("svg", { viewBox: "-0.5 -0.5 1 1", width: 16, height: 16, "aria-hidden": "true", class: "is-creature-ico" }, ...tokenShape(0, 0, 1));
}
function tokenShape(x, y, k) {
  // a dark disc with a white spiral-eye: the creature token
  return [
    s("circle", { cx: x, cy: y, r: 0.42 * k, class: "is-creature-disc" }),
    s("path", { d: `M${x - 0.22 * k} ${y} Q${x} ${y - 0.28 * k} ${x + 0.22 * k} ${y} Q${x} ${y + 0.28 * k} ${x - 0.22 * k} ${y}Z`, class: "is-creature-eye" }),
    s("circle", { cx: x, cy: y, r: 0.08 * k, class: "is-creature-pupil" }),
  ];
}

// -- the token on the map ---------------------------------------------------------------------

// The creature token over its region: the middle of the region's anchors on the placed sides.
// ``anchors``: the placed anchors ({id, region, px, py}); ``z``: the map's scale.
export function creatureTokenLayer(anchors, z) {
  const my = myths(); if (!my || !my.creature_at) return null;
  loadCss();
  const as = anchors.filter((a) => a && a.region === my.creature_at);
  if (!as.length) return null;
  const cx = as.reduce((n, a) => n + a.px, 0) / as.length, cy = as.reduce((n, a) => n + a.py, 0) / as.length;
  const label = t("is_myth_token", { region: regionName(my.creature_at) });
  const k = 0.5 * z / 1.5;
  const g = s("g", { class: "is-creature", transform: `translate(${(cx + 0.35 * z).toFixed(3)} ${(cy - 0.35 * z).toFixed(3)})`, "data-testid": "creature-token",
    "data-region": my.creature_at, role: "img", "aria-label": label, tabindex: "0" }, s("title", {}, label), ...tokenShape(0, 0, Math.max(k, 0.3)));
  return g;
}

// -- the personal boards -------------------------------------------------------------------------

// A line of the seat's board: its curse cylinder, the Inuit held, a Ritual Room's ward.
export function mythsSeatLine(i) {
  const my = myths(); if (!my) return null;
  loadCss();
  const me = my.seats[i]; if (!me) return null;
  const parts = [];
  if (me.cursed) parts.push(h("span", { class: "is-chip is-curse", title: t("is_myth_cursed_title"), "data-testid": "curse" }, "☠ ", t("is_myth_cursed", { space: me.curse_space })));
  if (me.held_inuit) parts.push(h("span", { class: "is-chip is-held", title: t("is_myth_held_title"), "data-testid": "held-inuit" }, t("is_myth_held", { n: me.held_inuit })));
  if (me.ritual_room) parts.push(h("span", { class: "is-chip", title: tr("iact_up_14", "") }, t("is_myth_warded")));
  if (!parts.length) return null;
  return h("div", { class: "is-line is-myths-seat" }, h("span", { class: "lbl" }, t("is_myth_title")), h("span", { class: "is-chips" }, parts));
}

// The curse cylinder on the health track: {value, cls, title} for pboard.js's track().
export function curseMark(i) {
  const my = myths(); const me = my && my.seats[i];
  if (!me || !me.cursed || me.curse_space == null) return null;
  loadCss();
  return { value: me.curse_space, cls: "is-cursed-cell", title: t("is_myth_cursed_title") };
}

// -- the action board ------------------------------------------------------------------------------

// What a creature adds to space ``id`` for this seat: a badge per card (its short cost).
export function mythsSpaceBadge(id) {
  const my = myths(); if (!my) return null;
  const nums = [...(my.extra_spaces[id] || []), ...(my.extra_spaces["*"] || [])];
  if (!nums.length) return null;
  loadCss();
  return h("div", { class: "sp-creature", "data-testid": "creature-extra" },
    nums.map((n) => h("span", { class: "sp-cr", title: `${creatureName(n)}: ${tr(`iact_cr_${n}`, "")}` }, tokenIcon(), " ", creatureName(n), ": ", tr(`iact_crx_${n}`, ""))));
}
