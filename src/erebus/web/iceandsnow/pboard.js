// Each seat's personal (ship) board: prestige, the food, health, morale and fuel
// tracks with their zones (Scurvy, Mutiny, Death; the fuel bands), sled and dogs,
// towing, resources, the crew (owned, free, placed, sick), upgrades, cabins and
// shelters, species and event cards kept; your own investor and cartography card.

import { APP } from "../core/state.js";
import { h, s } from "../core/dom.js";
import { t } from "../core/i18n.js";
import { COLORS, autopilotBadge, seatName } from "../core/seats.js";
import { renderGame } from "../core/table.js";
import { MAP, regionName } from "./mapdata.js";
import { eventName, investorName, upgradeName } from "./events.js";
import { UI, actingSeat, seatOf } from "./ui.js";
import { isPhone } from "./layout.js";
import { EXT } from "./ext.js";
import { curseMark, mythsSeatLine } from "./myths.js";
import { walkingSeatLine } from "./walking.js";
import { legendsSeatLine, legendsTag } from "./legends.js";
import { cylinderMarks } from "./solo2.js";

const CREW = ["captain", "carpenter", "scientist", "sailors", "inuit"];

function tracks() { const M = MAP(); return M ? M.content.tracks : {}; }

// A track as a row of cells, min..max, the value's cell holding the seat's cylinder;
// ``zone(v)`` gives a cell's class (and its word, for the title).
function track(label, value, min, max, color, zone, opts = {}) {
  const cells = [];
  for (let v = min; v <= max; v++) {
    const z = zone ? zone(v) : null;
    const mk = [].concat(opts.mark || []).find((m) => m && m.value === v) || null;  // another cylinder (a curse, a black one)
    cells.push(h("span", { class: "is-cell" + (z ? ` z-${z.cls}` : "") + (v === value ? " now" : "") + (mk ? ` ${mk.cls}` : ""), title: `${z && z.word ? `${v}: ${z.word}` : String(v)}${mk ? ` · ${mk.title}` : ""}`, style: v === value ? `--pc:${color}` : null },
      opts.labels ? opts.labels(v) : String(v)));
  }
  const now = zone ? zone(value) : null;
  return h("div", { class: "is-track", role: "img", "aria-label": `${label} ${value}${now && now.word ? ` (${now.word})` : ""}` },
    h("span", { class: "is-tlbl" }, label, " ", h("b", {}, String(value))),
    h("span", { class: "is-cells", "aria-hidden": "true" }, cells),
    now && now.word && now.cls !== "ok" ? h("span", { class: `is-zone-word z-${now.cls}` }, now.word) : null,
    opts.note ? h("span", { class: "muted is-tnote" }, opts.note) : null);
}

function healthZone(kind) {
  const tr = tracks()[kind] || { effects: {} };
  return (v) => {
    const e = tr.effects[String(v)];
    return e ? { cls: e, word: t(`is_zone_${e}`) } : null;
  };
}
function fuelZone(v) {
  const bands = (tracks().fuel || {}).bands || [];
  const b = bands.find((x) => x.from <= v && v <= x.to);
  if (!b) return null;
  if (b.effect === "morale") return { cls: "good", word: t("is_fuel_morale") };
  if (b.effect === "discard") return { cls: "discard", word: t("is_fuel_discard") };
  return { cls: "ok", word: t("is_fuel_none") };
}

function icon(kind) {
  const svg = s("svg", { viewBox: "-1 -1 2 2", width: 14, height: 14, class: `is-ico ico-${kind}`, "aria-hidden": "true" });
  const P = {
    dynamite: [s("rect", { x: -0.3, y: -0.8, width: 0.6, height: 1.5, rx: 0.12, fill: "#c0392b" }), s("path", { d: "M0 -0.8 q0.2 -0.3 0.5 -0.3", stroke: "#333", "stroke-width": 0.14, fill: "none" })],
    wood: [s("rect", { x: -0.85, y: -0.45, width: 1.7, height: 0.9, rx: 0.4, fill: "#9a6a3a" }), s("ellipse", { cx: 0.62, cy: 0, rx: 0.25, ry: 0.42, fill: "#d8b27a" })],
    rifles: [s("path", { d: "M-0.9 0.5 L0.6 -0.7 L0.8 -0.5 L-0.4 0.5 L-0.5 0.8 L-0.9 0.8Z", fill: "#4a4a4a" })],
    dogs: [s("path", { d: "M-0.8 0.6 V-0.1 L-0.5 -0.6 L-0.35 -0.2 H0.3 L0.5 -0.7 L0.8 -0.2 V0.6 H0.45 V0.15 H-0.45 V0.6Z", fill: "#6d5a45" })],
    food: [s("path", { d: "M-0.7 -0.2 A0.7 0.7 0 0 0 0.7 -0.2 Z", fill: "#b8860b" }), s("rect", { x: -0.8, y: -0.3, width: 1.6, height: 0.14, fill: "#6b4e12" })],
    sled: [s("path", { d: "M-0.9 0.3 H0.6 Q0.95 0.3 0.9 -0.05", stroke: "#5a4630", "stroke-width": 0.16, fill: "none" }), s("rect", { x: -0.75, y: -0.35, width: 1.3, height: 0.5, fill: "#a07850" })],
    inuit: [s("circle", { cx: 0, cy: -0.45, r: 0.3, fill: "#7a5230" }), s("path", { d: "M-0.6 0.85 Q-0.6 -0.15 0 -0.15 Q0.6 -0.15 0.6 0.85Z", fill: "#7a5230" })],
    health: [s("path", { d: "M0 0.8 L-0.75 0 A0.4 0.4 0 0 1 0 -0.55 A0.4 0.4 0 0 1 0.75 0 Z", fill: "#c0392b" })],
    morale: [s("circle", { r: 0.8, fill: "#e0b43a" }), s("path", { d: "M-0.4 0.15 Q0 0.55 0.4 0.15", stroke: "#5a3f0b", "stroke-width": 0.14, fill: "none" }),
      s("circle", { cx: -0.28, cy: -0.22, r: 0.1, fill: "#5a3f0b" }), s("circle", { cx: 0.28, cy: -0.22, r: 0.1, fill: "#5a3f0b" })],
    fuel: [s("rect", { x: -0.55, y: -0.75, width: 1.1, height: 1.5, rx: 0.2, fill: "#3f4a55" }), s("rect", { x: -0.55, y: -0.25, width: 1.1, height: 0.18, fill: "#9aa6b1" }), s("rect", { x: -0.55, y: 0.2, width: 1.1, height: 0.18, fill: "#9aa6b1" })],
  };
  for (const el of P[kind] || []) svg.append(el);
  return svg;
}
function res(kind, n, title) { return h("span", { class: "is-res", title: title || `${t(`is_res_${kind}`)}: ${n}` }, icon(kind), h("b", {}, String(n))); }

function crewTable(me) {
  const c = me.crew;
  const rows = [["owned", c.owned], ["free", c.free], ["placed", c.placed], ["sick", c.sick]];
  if (c.ill) rows.push(["ill", c.ill]);  // Mysterious Epidemic: on the disease cards
  return h("table", { class: "is-crew", "aria-label": t("is_crew") },
    h("thead", {}, h("tr", {}, h("th", {}, ""), CREW.map((k) => h("th", { title: t(`is_crewn_${k}`, { n: "" }).trim(), class: `crew-${k}` }, t(`is_crew_short_${k}`))))),
    h("tbody", {}, rows.map(([key, val]) => h("tr", { class: `row-${key}` }, h("th", {}, t(`is_crew_${key}`)),
      CREW.map((k) => h("td", { class: (val[k] ? "" : "zero") + ((key === "sick" || key === "ill") && val[k] ? " warn-text" : "") }, String(val[k] || 0)))))));
}

function chips(list, cls = "") { return h("span", { class: `is-chips ${cls}` }, list.length ? list : h("span", { class: "muted" }, "—")); }
function chip(text, title, cls = "") { return h("span", { class: `is-chip ${cls}`, title: title || text }, text); }
function card(kind, id, fallback) {
  if (EXT.cardEl) { try { return EXT.cardEl(kind, id, { small: true }); } catch { /* the text below */ } }
  return chip(fallback, fallback);
}

function summary(me, i) {
  return h("span", { class: "is-sum" },
    res("food", me.food, t("is_track_food")),
    h("span", { class: "is-sum-t is-res" + (me.health.zone ? " z-" + me.health.zone : ""), title: t("is_track_health") }, icon("health"), String(me.health.value)),
    h("span", { class: "is-sum-t is-res" + (me.morale.zone ? " z-" + me.morale.zone : ""), title: t("is_track_morale") }, icon("morale"), String(me.morale.value)),
    h("span", { class: "is-sum-t is-res", title: t("is_track_fuel") }, icon("fuel"), String(me.fuel.value)),
    res("dynamite", me.dynamite));
}

export function playerBoard(i) {
  const v = APP.view, me = seatOf(i), mine = i === APP.seat, col = COLORS[i];
  const acting = actingSeat() === i;
  const T = tracks();
  const status = me.passed ? t("is_passed") : acting ? t("is_to_act") : "";
  const head = h("header", {},
    h("span", { class: "swatch" }),
    h("strong", {}, seatName(i), mine ? ` (${t("you")})` : ""),
    me.leader ? h("span", { class: "is-helm", title: t("is_leader") }, "⎈ ", t("is_leader_short")) : null,
    h("span", { class: "status" }, status),
    autopilotBadge(i),
    h("span", { class: "score", title: t("is_pp") }, String(me.pp), h("small", {}, " ", t("is_pp"))));
  const folded = !mine && isPhone() && !UI.openBoards.has(i);
  const cls = "pboard is-pboard" + (acting ? " current" : "") + (mine ? " me" : "");
  if (folded) {
    const b = h("section", { class: cls + " folded", style: `--pc:${col}`, "data-seat": i }, head,
      h("button", { class: "btn tiny is-unfold", "aria-expanded": "false", onclick: () => { UI.openBoards.add(i); renderGame(); } }, summary(me, i), legendsTag(i), " ▾"));
    return b;
  }
  const body = [];
  body.push(h("div", { class: "is-tracks" },
    h("div", { class: "is-food" }, res("food", me.food, t("is_track_food")), h("span", { class: "is-tlbl" }, t("is_track_food")),
      h("span", { class: "is-foodbar", "aria-hidden": "true" }, h("span", { style: `width:${Math.min(100, Math.round((100 * me.food) / ((T.food && T.food.max) || 60)))}%` })),
      me.crew ? h("span", { class: "muted is-feed" }, t("is_feeding", { n: CREW.reduce((n, k) => n + (me.crew.owned[k] || 0), 0) + (me.rescued || 0) })) : null),
    track(t("is_track_health"), me.health.value, 0, me.health.max, col, healthZone("health"), { mark: [curseMark(i), ...cylinderMarks(i, "health")] }),
    track(t("is_track_morale"), me.morale.value, 0, me.morale.max, col, healthZone("morale"), { mark: cylinderMarks(i, "morale") }),
    track(t("is_track_fuel"), me.fuel.value, 0, me.fuel.max, col, fuelZone),
    track(t("is_track_towing"), me.towing, (T.towing && T.towing.min) ?? -4, (T.towing && T.towing.max) ?? 2, col, null,
      { labels: (x) => (x > 0 ? `+${x}` : String(x)), note: T.towing && T.towing.pp ? t("is_towing_pp", { n: T.towing.pp[String(me.towing)] }) : null }),
    h("div", { class: "is-row2" },
      track(t("is_track_sled"), me.sled, 1, (T.sled && T.sled.max) || 5, col, null),
      track(t("is_track_dogs"), me.dogs, 0, (T.dogs && T.dogs.spaces) || 10, col, null))));
  body.push(h("div", { class: "is-resrow" },
    res("dynamite", me.dynamite), res("wood", me.wood), res("rifles", me.rifles), res("dogs", me.dogs),
    h("span", { class: "is-res", title: t("is_track_inuit") }, icon("inuit"), h("b", {}, String(me.inuit)),
      me.inuit_joining ? h("small", { class: "muted" }, " ", t("is_joining", { n: me.inuit_joining })) : null),
    h("span", { class: "is-res", title: t("is_cabins_n", { n: me.cabins }) }, cabinIcon(col), h("b", {}, `${me.cabins}/4`)),
    (v.options.modes || []).includes("shelters") ? h("span", { class: "is-res", title: t("is_shelters_n", { n: me.shelters }) }, shelterIcon(col), h("b", {}, `${me.shelters}/4`)) : null));
  body.push(crewTable(me));
  const myth = mythsSeatLine(i); if (myth) body.push(myth);
  const sled = walkingSeatLine(i); if (sled) body.push(sled);
  const lgd = legendsSeatLine(i); if (lgd) body.splice(0, 0, lgd);  // the explorer and ship cards first
  if (me.rescued) body.push(h("div", { class: "is-line warn-text" }, t("is_rescued", { n: me.rescued })));
  body.push(h("div", { class: "is-line" }, h("span", { class: "lbl" }, t("is_upgrades")),
    chips(me.upgrades.map((n) => card("upgrade", n, upgradeName(n))), "cards")));
  const spNames = me.species.map((id) => card("species", id, speciesCardName(id)));
  body.push(h("div", { class: "is-line" }, h("span", { class: "lbl" }, t("is_species_cards", { n: me.species.length })), chips(spNames, "cards")));
  if (me.event_cards && me.event_cards.length) body.push(h("div", { class: "is-line" }, h("span", { class: "lbl" }, t("is_event_cards")), chips(me.event_cards.map((n) => card("event", n, `#${n} ${eventName(n)}`)), "cards")));
  if (!v.options.scenario) {
    if (me.investor) body.push(h("div", { class: "is-line" }, h("span", { class: "lbl" }, t("is_investor")), mine ? card("investor", me.investor, investorName(me.investor)) : chip(investorName(me.investor))));
    else body.push(h("div", { class: "is-line muted" }, h("span", { class: "lbl" }, t("is_investor")), mine ? t("is_not_chosen") : t("is_hidden")));
    if (mine || me.cartography) {
      const carto = me.cartography;
      body.push(h("div", { class: "is-line" }, h("span", { class: "lbl" }, t("is_cartography")),
        carto ? cartoLine(carto, v.map.mapped) : h("span", { class: "muted" }, t("is_not_chosen"))));
    }
  }
  if (v.players > 1) body.push(h("div", { class: "is-line muted is-small" }, t("is_times_leader", { n: me.times_leader }), " · ", t("is_explores", { n: me.explores })));
  const b = h("section", { class: cls, style: `--pc:${col}`, "data-seat": i, "aria-label": seatName(i) }, head, ...body);
  if (!mine && isPhone()) b.append(h("button", { class: "btn tiny", "aria-expanded": "true", onclick: () => { UI.openBoards.delete(i); renderGame(); } }, "▴ ", t("is_fold")));
  return b;
}

function speciesCardName(id) {
  const M = MAP(); const c = M && M.content.cards.species.find((x) => x.id === id);
  return c ? `${c.name} (${c.pp})` : id;
}
function cartoLine(id, mapped) {
  const M = MAP(); const c = M && M.content.cards.cartography.find((x) => x.id === id);
  const regs = c ? c.regions : [];
  const done = new Set(mapped || []);
  return h("span", { class: "is-chips" }, regs.map((r) => chip((done.has(r) ? "✓ " : "") + regionName(r), done.has(r) ? t("is_mapped") : t("is_not_mapped"), done.has(r) ? "done" : "")));
}
function cabinIcon(color) {
  return s("svg", { viewBox: "-0.2 -0.2 0.4 0.36", width: 14, height: 13, "aria-hidden": "true" },
    s("path", { d: "M-0.15 0.12 V-0.04 L0 -0.17 L0.15 -0.04 V0.12 Z", fill: color, stroke: "#222", "stroke-width": 0.025 }));
}
function shelterIcon(color) {
  return s("svg", { viewBox: "-0.2 -0.12 0.4 0.25", width: 15, height: 10, "aria-hidden": "true" },
    s("path", { d: "M-0.17 0.1 A0.17 0.19 0 0 1 0.17 0.1 Z", fill: color, stroke: "#222", "stroke-width": 0.025 }));
}
