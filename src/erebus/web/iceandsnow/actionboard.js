// The action board of Through Ice and Snow: the three officer columns and the General
// actions, each space with its slots for this player count and who stands there, what
// it asks and gives, the final-round spaces, the warehouse boxes, the round's action
// event card.  Placing crew: a space with legal "take" actions opens the placement
// sheet (placement.js: crew -> card/tile/food/… -> Place crew); a space that cannot be
// taken says why (the wire view's why_not key).  Pass and Undo are buttons here.

import { APP, isMyTurn } from "../core/state.js";
import { h, bindActivate } from "../core/dom.js";
import { t } from "../core/i18n.js";
import { COLORS, seatName } from "../core/seats.js";
import { sendAction, sendUndo } from "../core/connection.js";
import { M, space as spaceData } from "./material.js";
import { cardEl } from "./cards.js";
import { takesBySpace } from "./legal.js";
import { crewText, resText, spaceEffect, spaceName, spaceNeeds } from "./words.js";
import { PL, closePlacement, openPlacement, placementSheet } from "./placement.js";
import { occupantsBySpace, pawnRow } from "./occupants.js";
import { roundCardsEl } from "./roundcards.js";
import { mythsPanel, mythsSpaceBadge } from "./myths.js";
import { walkingPanel } from "./walking.js";
import { legendsPanel } from "./legends.js";
import { solo2Panel } from "./solo2.js";

import { loadMaterial } from "./material.js";

// This part's styles and the printed material, once, when board.js first imports it.
if (!document.querySelector("link[data-ice-actions]")) {
  document.head.append(h("link", { rel: "stylesheet", href: new URL("./actions.css", import.meta.url).href, "data-ice-actions": "" }));
}
await loadMaterial();
export { loadMaterial };

const OFFICERS = ["captain", "carpenter", "scientist"];

function whyText(key) { return key ? t(`iact_why_${key}`) : ""; }

// One space of the board: a button when it has legal takes, else a card that says why not.
function spaceEl(sp, occ, takes) {
  const v = APP.view;
  const id = sp.id;
  const data = spaceData(sp.kind || id) || spaceData(id) || {};
  const legal = takes.get(id) || [];
  const can = legal.length > 0;
  const mine = isMyTurn() && v.pending === "action";
  const here = occ.get(id) || [];
  const slots = sp.slots;
  const slotEls = [];
  if (slots == null) {
    slotEls.push(h("span", { class: "slot inf", title: t("iact_unlimited") }, "∞"));
    for (const o of here) slotEls.push(pawnRow(o));
  } else {
    for (let i = 0; i < slots; i++) {
      const o = here[i];
      if (o) slotEls.push(pawnRow(o));
      else if (i < (sp.taken || 0)) slotEls.push(h("span", { class: "slot taken" }, "×"));
      else slotEls.push(h("span", { class: "slot free", title: t("iact_free_slot") }));
    }
  }
  const survival = (v.options.modes || []).includes("survival");
  const closed = sp.open === false;
  const cls = ["ice-space", can ? "can" : "", closed ? "closed" : "", sp.final ? "final" : "", PL.space === id ? "selected" : ""].filter(Boolean).join(" ");
  const why = mine && !can ? whyText(sp.why_not) : closed && sp.final ? t("iact_why_final_round_only") : sp.blocked ? t("iact_why_blocked") : "";
  const el = h("div", {
    class: cls, "data-space": id, role: can ? "button" : null, tabindex: can ? "0" : null,
    "aria-disabled": can ? null : "true", "aria-expanded": can ? String(PL.space === id) : null,
    title: `${spaceName(data.id || id)} — ${spaceNeeds(data.id || id)} → ${spaceEffect(data.id || id)}${why ? ` (${why})` : ""}`,
  },
  h("div", { class: "sp-head" },
    h("span", { class: "sp-name" }, spaceName(data.id || id)),
    survival && data.above_warehouse ? h("span", { class: "sp-mark", title: t("iact_above_warehouse") }, "⇩") : null,
    sp.final ? h("span", { class: "sp-mark final", title: t("iact_final_space") }, "⚓") : null),
  h("div", { class: "sp-needs" }, spaceNeeds(data.id || id)),
  h("div", { class: "sp-does" }, "→ ", spaceEffect(data.id || id)),
  mythsSpaceBadge(id),
  h("div", { class: "sp-slots" }, slotEls),
  why ? h("div", { class: "sp-why" }, why) : null);
  if (can) bindActivate(el, () => openPlacement(id));
  return el;
}

// The round's action event card as a space of the General column.
function eventSpaceEl(ex, occ, takes) {
  const v = APP.view;
  const legal = takes.get("event") || [];
  const ev = v.cards && v.cards.event;
  const here = occ.get("event") || [];
  const can = legal.length > 0;
  const mine = isMyTurn() && v.pending === "action";
  const why = mine && !can ? whyText(ex.why_not) : ev && ev.taken ? t("iact_why_event_taken") : "";
  const el = h("div", { class: "ice-space event" + (can ? " can" : "") + (PL.space === "event" ? " selected" : ""), "data-space": "event",
    role: can ? "button" : null, tabindex: can ? "0" : null, "aria-disabled": can ? null : "true" },
  h("div", { class: "sp-head" }, h("span", { class: "sp-name" }, t("iact_space_event"))),
  cardEl("event", ex.number ?? (ev && ev.number), { small: true }),
  ev && ev.species ? cardEl("species", ev.species, { small: true, note: t("iact_with_event") }) : null,
  h("div", { class: "sp-slots" }, here.map(pawnRow), !here.length && !(ev && ev.taken) ? h("span", { class: "slot free" }) : null),
  why ? h("div", { class: "sp-why" }, why) : null);
  if (can) bindActivate(el, () => openPlacement("event"));
  return el;
}

function warehouseEl(col) {
  const v = APP.view;
  const w = (v.board.warehouses || []).find((x) => x.column === col);
  if (!w) return null;
  const box = Object.entries(w.box || {}).filter(([, n]) => n);
  const survival = (v.options.modes || []).includes("survival");
  return h("div", { class: "ice-warehouse", "data-warehouse": col },
    h("div", { class: "wh-head" }, t("iact_warehouse"), " · ", t("iact_exchange_gives", { res: resText(w.gives) })),
    h("div", { class: "wh-box" }, box.length ? box.map(([r, n]) => h("span", { class: `res r-${r}` }, resText(r, n))) : h("span", { class: "muted" }, t("iact_empty"))),
    survival && v.board.acting ? h("div", { class: "wh-dep" + (w.deposit_paid ? " ok" : "") }, w.deposit_paid ? t("iact_deposit_paid") : t("iact_deposit_due")) : null);
}

function columnEl(col, occ, takes) {
  const v = APP.view;
  const spaces = v.board.spaces.filter((sp) => sp.column === col);
  const normal = spaces.filter((sp) => !sp.final);
  const final = spaces.filter((sp) => sp.final);
  const extras = (v.board.extra_spaces || []).filter((x) => x.column === col);
  const head = OFFICERS.includes(col) ? t(`iact_col_${col}`) : t("iact_col_general");
  return h("div", { class: `ice-col c-${col}`, "data-column": col },
    h("h4", { class: "col-head" }, head),
    normal.map((sp) => spaceEl(sp, occ, takes)),
    extras.map((ex) => (ex.id === "event" ? eventSpaceEl(ex, occ, takes) : spaceEl({ ...ex, slots: null, taken: 0 }, occ, takes))),
    final.length ? h("div", { class: "final-group" + (v.final_round ? " open" : "") },
      h("div", { class: "final-head" }, "⚓ ", v.final_round ? t("iact_final_open") : t("iact_final_closed")),
      final.map((sp) => spaceEl(sp, occ, takes))) : null,
    warehouseEl(col));
}

// The line above the board: whose turn, your free crew, Pass and Undo.
function headEl(takes) {
  const v = APP.view;
  const mine = isMyTurn() && v.pending === "action";
  const row = h("div", { class: "ice-act-head" });
  row.append(h("h3", {}, t("iact_board"), v.final_round ? h("span", { class: "badge final" }, t("iact_final_round")) : null));
  if (v.over) return row;
  if (v.pending !== "action") {
    row.append(h("span", { class: "muted" }, t("iact_not_action_phase")));
    return row;
  }
  const cur = v.current;
  row.append(h("span", { class: "turn" + (mine ? " mine" : "") }, h("span", { class: "swatch", style: `background:${COLORS[cur] || "#999"}` }),
    mine ? t("iact_your_turn_place") : t("waiting_for", { name: seatName(cur) })));
  if (APP.seat != null && v.seats[APP.seat]) {
    const me = v.seats[APP.seat];
    row.append(h("span", { class: "free-crew", "data-testid": "free-crew" }, t("iact_free_crew", { crew: crewText(me.crew.free) })));
  }
  if (mine) {
    const pass = APP.legal.find((a) => a.type === "pass");
    if (pass) {
      const n = [...takes.values()].reduce((k, x) => k + x.length, 0);
      row.append(h("button", { class: "btn warn", "data-testid": "ice-pass",
        onclick: () => { if (!n || confirm(t("confirm_pass"))) { closePlacement(); sendAction(pass); } } }, t("pass")));
    }
    if (APP.msg && APP.msg.can_undo) row.append(h("button", { class: "btn", "data-testid": "undo", onclick: sendUndo }, "↶ ", t("undo")));
  }
  return row;
}

export function actionBoardPanel() {
  const v = APP.view;
  const takes = isMyTurn() ? takesBySpace(APP.legal) : new Map();
  const occ = v.board.acting ? occupantsBySpace() : new Map();
  const cols = (M() && M().board.columns) || ["captain", "carpenter", "scientist", "general"];
  const panel = h("section", { class: "ice-actions", "aria-label": t("iact_board"), "data-testid": "action-board" },
    headEl(takes),
    roundCardsEl(),
    mythsPanel(openPlacement),
    walkingPanel(),
    legendsPanel(),
    solo2Panel(),
    h("div", { class: "ice-grid" }, cols.map((c) => columnEl(c, occ, takes))));
  if (PL.space && isMyTurn()) panel.append(placementSheet());
  return panel;
}

export function onState() {
  if (!PL.space) return;
  const legal = APP.legal.filter((a) => a.type === "take" && a.space === PL.space);
  if (!legal.length) closePlacement(false);
}
export function onSend() { closePlacement(false); }
export function onKey(e) {
  if (e.key === "Escape" && PL.space) { closePlacement(); e.preventDefault(); return true; }
  return false;
}
