// Northwest's panels: each seat's board (crew, tokens, reserve), the supply (display
// and piles), the actions of the seat to move with their costs, and the sun track.

import { APP, isMyTurn } from "../core/state.js";
import { h } from "../core/dom.js";
import { t } from "../core/i18n.js";
import { COLORS, autopilotBadge, seatName } from "../core/seats.js";
import { sendAction, sendUndo } from "../core/connection.js";
import { renderGame } from "../core/table.js";
import { hinted, sameAction } from "../core/hint.js";
import { frozenRowsAt, isLarge, sunTrack, tileIdx, tileName, ROMAN, TOKENS } from "./content.js";
import { UI, actionCost, costBase, costNow, legalOf, seatOf, vehicleFor } from "./ui.js";
import { locText } from "./places.js";
import { pileThumb, tileThumb } from "./draw.js";
import { tokRule } from "./tips.js";
import { cancelSel, flipSel, placeCost, placeCurrent, placementsFor, rotateSel, selectTile } from "./selection.js";
import { openTransfer } from "./transfer.js";
import { costTag, dots, miniToken } from "./marks.js";


export function playerBoard(i) {
  const v = APP.view, me = seatOf(i), cr = me.crew;
  const current = v.current === i && !v.over;
  const status = me.returned ? t("returned") : me.passed ? t("passed") : current ? t("playing") : "";
  const col = (kind, av, rest) => h("div", { class: "crew-col" },
    h("div", { class: "crew-head" }, t(kind), h("span", { class: "loc" }, locText(me[kind]))),
    h("div", { class: "crew-row", title: t("available") }, h("span", { class: "lbl" }, t("available")), dots(av, COLORS[i], true)),
    h("div", { class: "crew-row", title: t("resting") }, h("span", { class: "lbl" }, t("resting")), dots(rest, COLORS[i], false)));
  const tokRow = h("div", { class: "ptoks" },
    TOKENS.map((k) => h("span", { class: "ptok", title: tokRule(k) }, miniToken(k), " ", String(me.tokens[k]))),
    me.northwest != null ? h("span", { class: "ptok", title: t("loc_northwest") }, miniToken("nw", me.northwest)) : null,
    me.greenland != null ? h("span", { class: "ptok", title: t("loc_greenland") }, miniToken("gl", me.greenland)) : null);
  const res = me.reserve.map(tileIdx).map((ti) => {
    const mine = i === APP.seat;
    const canPlace = mine && APP.legal.some((a) => a.type === "place" && a.tile === tileName(ti));
    const selected = UI.sel && UI.sel.mode === "place" && UI.sel.tileIdx === ti;
    const b = h("button", { id: mine ? `res-${ti}` : null, class: "res-tile" + (selected ? " selected" : "") + (canPlace && hinted((x) => x.type === "place" && x.tile === tileName(ti)) ? " hinted" : ""), disabled: !canPlace, title: `${tileName(ti)}${canPlace ? " — " + t("click_to_place") : ""}`,
      "aria-pressed": selected ? "true" : "false" }, tileThumb(ti, "a", 0, 20));
    if (canPlace) b.addEventListener("click", () => selectTile(ti));
    return b;
  });
  return h("section", { class: "pboard" + (current ? " current" : "") + (i === APP.seat ? " me" : ""), style: `--pc:${COLORS[i]}` },
    h("header", {},
      h("span", { class: "swatch" }),
      h("strong", {}, seatName(i), i === APP.seat ? ` (${t("you")})` : ""),
      h("span", { class: "status" }, status),
      autopilotBadge(i),
      h("span", { class: "score", title: t("score") }, String(me.score))),
    h("div", { class: "crew" }, col("ship", cr.ship.available, cr.ship.resting), col("sled", cr.sled.available, cr.sled.resting),
      cr.lost ? h("div", { class: "lost" }, t("crew_lost", { n: cr.lost })) : null),
    tokRow,
    reserveRow(i, res));
}
// Your reserve is a strip of fixed height that scrolls sideways, however many tiles you
// hold; the others' reserves fold to a count with a toggle.
function reserveRow(i, res) {
  if (i === APP.seat) {
    return h("div", { class: "reserve mine" }, h("span", { class: "lbl" }, t("reserve")),
      h("div", { class: "res-strip", "data-testid": "my-reserve" }, res.length ? res : h("span", { class: "muted" }, "—")));
  }
  // A <details> fold (not a button: a spectator's boards have no controls to press).
  UI.openReserves = UI.openReserves || new Set();
  const open = UI.openReserves.has(i);
  const fold = h("details", { class: "reserve other", open },
    h("summary", { class: "res-toggle", "data-testid": `reserve-toggle-${i}` }, t("reserve_n", { n: res.length })),
    open && res.length ? h("div", { class: "res-strip" }, res) : null);
  fold.addEventListener("toggle", () => {
    if (fold.open === UI.openReserves.has(i)) return;
    if (fold.open) UI.openReserves.add(i); else UI.openReserves.delete(i);
    renderGame();
  });
  return fold;
}

export function supplyPanel() {
  const v = APP.view;
  const draft = v.round === 0;
  const disp = v.display.map(tileIdx).map((ti, idx) => {
    let act = null;
    if (draft) act = APP.legal.find((a) => a.type === "draft" && a.index === idx);
    else {
      const veh = vehicleFor("draw", (a) => a.source === "display" && a.index === idx);
      act = APP.legal.find((a) => a.type === "draw" && a.source === "display" && a.index === idx && a.vehicle === veh);
    }
    const b = h("button", { class: "disp-tile" + (act && hinted((x) => sameAction(x, act)) ? " hinted" : ""), disabled: !act, title: `${tileName(ti)} — ${draft ? t("draft") : t("draw")}` },
      h("div", { class: "sides" }, tileThumb(ti, "a", 0, 22), tileThumb(ti, "b", 0, 22)), h("small", {}, tileName(ti)));
    if (act) b.addEventListener("click", () => sendAction(act));
    return b;
  });
  const piles = v.piles.map((n, p) => {
    const veh = vehicleFor("draw", (a) => a.source === "pile" && a.pile === p);
    const act = APP.legal.find((a) => a.type === "draw" && a.source === "pile" && a.pile === p && a.vehicle === veh);
    const b = h("button", { class: "pile" + (act && hinted((x) => sameAction(x, act)) ? " hinted" : ""), disabled: !act, title: `${t("pile")} ${p + 1}: ${n}` }, pileThumb(p, 22), h("small", {}, String(n)));
    if (act) b.addEventListener("click", () => sendAction(act));
    return b;
  });
  const refresh = APP.legal.find((a) => a.type === "refresh" && a.vehicle === vehicleFor("refresh"));
  return h("section", { class: "supply" },
    h("div", { class: "group" }, h("h3", {}, t("display"), " ", h("span", { class: "muted" }, t("bag", { n: v.bag_size ?? "?" }))),
      h("div", { class: "row" }, disp,
        refresh ? h("button", { class: "btn small" + (hinted((x) => sameAction(x, refresh)) ? " hinted" : ""), onclick: () => sendAction(refresh) }, t("refresh"), costTag(actionCost(refresh))) : null)),
    h("div", { class: "group" }, h("h3", {}, t("piles")), h("div", { class: "row" }, piles)));
}

export function actionPanel() {
  const v = APP.view;
  const panel = h("section", { class: "actions", "aria-label": t("actions") });
  if (v.over) { panel.append(h("div", { class: "turn" }, t("game_over"))); return panel; }
  const cur = v.current;
  const mine = isMyTurn();
  panel.append(h("div", { class: "turn" + (mine ? " mine" : "") },
    h("span", { class: "swatch", style: `background:${COLORS[cur] || "#999"}` }),
    mine ? t("your_turn") : t("waiting_for", { name: seatName(cur) }),
    " · ", v.round === 0 ? t("draft_round") : t("round_n", { n: v.round, total: v.rounds })));
  if (!mine) return panel;
  if (v.round === 0) { panel.append(h("p", { class: "hint" }, t("hint_draft"))); return panel; }
  // acting vehicle
  const hasVeh = (veh) => APP.legal.some((a) => a.vehicle === veh && a.type !== "move");
  const vs = h("div", { class: "veh-switch", role: "radiogroup", "aria-label": t("acting_vehicle") }, h("span", { class: "lbl" }, t("acting_vehicle")));
  for (const veh of ["ship", "sled"]) {
    const b = h("button", { class: "btn small" + (UI.vehicle === veh ? " on" : ""), role: "radio", "aria-checked": UI.vehicle === veh ? "true" : "false",
      disabled: !hasVeh(veh) }, t(veh));
    b.addEventListener("click", () => { UI.vehicle = veh; renderGame(); });
    vs.append(b);
  }
  // cost line
  panel.append(h("div", { class: "row" }, vs, h("div", { class: "costs" }, h("span", { class: "lbl" }, v.acted > 0 ? t("next_cost_more") : t("next_cost")),
    ["draw", "place", "move", "transfer", "discover", "explore"].map((k) => h("span", { class: "cost-item", title: t("cost_rule", { act: t(`act_${k}`), base: costBase(k), now: costNow(k) }) }, t(`act_${k}`), " ", costTag(costNow(k)))))));
  // buttons
  const row = h("div", { class: "row buttons" });
  for (const veh of ["ship", "sled"]) {
    const move = APP.legal.find((a) => a.type === "move" && a.vehicle === veh);
    if (move) {
      row.append(h("button", { class: "btn" + (UI.sel && UI.sel.mode === "move" && UI.sel.vehicle === veh ? " on" : "") + (hinted((x) => x.type === "move" && x.vehicle === veh) ? " hinted" : ""),
        onclick: () => { UI.sel = UI.sel && UI.sel.mode === "move" && UI.sel.vehicle === veh ? null : { mode: "move", vehicle: veh }; renderGame(); } },
      t(veh === "ship" ? "move_ship" : "move_sled"), costTag(actionCost(move))));
    }
  }
  for (const a of APP.legal.filter((a) => a.type === "explore" || a.type === "discover")) {
    row.append(h("button", { class: "btn" + (hinted((x) => sameAction(x, a)) ? " hinted" : ""), onclick: () => sendAction(a) }, t(`${a.type}_tok`, { tok: t(`tok_${a.token}`), veh: t(a.vehicle) }), costTag(actionCost(a))));
  }
  const transfers = legalOf("transfer");
  if (transfers.length) row.append(h("button", { class: "btn" + (hinted((x) => x.type === "transfer") ? " hinted" : ""), onclick: openTransfer }, t("transfer"), costTag(actionCost(transfers[0]))));
  const end = APP.legal.find((a) => a.type === "end_turn");
  if (end) row.append(h("button", { class: "btn" + (hinted((x) => x.type === "end_turn") ? " hinted" : ""), onclick: () => sendAction(end) }, t("end_turn")));
  const pass = APP.legal.find((a) => a.type === "pass");
  if (pass) row.append(h("button", { class: "btn warn" + (hinted((x) => x.type === "pass") ? " hinted" : ""), onclick: () => { if (v.acted > 0 || confirm(t("confirm_pass"))) sendAction(pass); } }, t("pass")));
  if (APP.msg && APP.msg.can_undo) row.append(h("button", { class: "btn", "data-testid": "undo", onclick: sendUndo }, "↶ ", t("undo")));
  panel.append(row);
  // place controls
  if (UI.sel && UI.sel.mode === "place") {
    const sel = UI.sel, n = placementsFor(sel).length;
    const large = isLarge(sel.tileIdx);
    panel.append(h("div", { class: "place-ctl" },
      tileThumb(sel.tileIdx, sel.side, sel.rot, 26),
      h("span", {}, `${tileName(sel.tileIdx)}${large ? " · " + t("side") + " " + sel.side.toUpperCase() : ""}`),
      h("button", { id: "btn-rot", class: "btn small", onclick: () => rotateSel(1), title: "R" }, "⟳ ", t("rotate"), " (R)"),
      large ? h("button", { id: "btn-flip", class: "btn small", onclick: flipSel, title: "F" }, "⇋ ", t("flip"), " (F)") : null,
      n ? h("button", { class: "btn small primary", onclick: placeCurrent }, t("place_here"), " (Enter)") : null,
      h("button", { class: "btn small", onclick: cancelSel, title: "Esc" }, t("cancel"), " (Esc)"),
      h("span", { class: n ? "ok" : "warn-text" }, n ? t("n_positions", { n }) : t("no_positions")),
      h("span", { class: "muted" }, t("place_cost", { n: placeCost(sel) }))));
  } else if (UI.sel && UI.sel.mode === "move") {
    panel.append(h("p", { class: "hint" }, t("hint_move")));
  } else if (legalOf("place").length) {
    panel.append(h("p", { class: "hint" }, t("hint_place")));
  }
  return panel;
}

// The sun track under the board (HTML, so it stays readable on a phone), with a legend
// of what each position freezes, from the board data.
export function sunPanel(sun) {
  const track = sunTrack(), fr = track.frozen, n = track.positions, rounds = track.rounds;
  // the positions of the first and the last round are marked, as on the printed board
  const first = track.start, last = ((first - 1 + rounds - 1) % n) + 1;
  const slots = [];
  for (let p = 1; p <= n; p++) {
    const rows = fr[String(p)] ?? 0;
    const mark = p === first || p === last;
    slots.push(h("span", { class: "sun-pos" + (p === sun ? " now" : "") + (mark ? " mark" : ""), "data-pos": p,
      title: sunRowsText(rows) + (p === first ? ` · ${t("round_n", { n: 1, total: rounds })}` : "")
        + (p === last ? ` · ${t("round_n", { n: rounds, total: rounds })}` : "") },
      h("span", { class: "sun-roman" }, ROMAN[p]),
      h("span", { class: "sun-gauge", "aria-hidden": "true" }, h("span", { style: `width:${Math.round(100 * rows / UI.D.H)}%` }))));
  }
  // group positions that freeze the same rows: "III, V: top 2 rows"
  const byRows = new Map();
  for (let p = 1; p <= n; p++) { const r = fr[String(p)] ?? 0; if (!byRows.has(r)) byRows.set(r, []); byRows.get(r).push(ROMAN[p]); }
  const legend = [...byRows.entries()].sort((x, y) => x[0] - y[0]).map(([r, ps]) => `${ps.join(", ")}: ${sunRowsText(r)}`).join(" · ");
  return h("div", { class: "sunbar", id: "sunbar" },
    h("span", { class: "lbl" }, t("sun")), h("span", { class: "sun-slots", role: "img", "aria-label": `${t("sun")} ${ROMAN[sun]}: ${sunRowsText(frozenRowsAt(sun))}` }, slots),
    h("span", { class: "sun-now" }, sunRowsText(frozenRowsAt(sun))),
    h("span", { class: "sun-legend", "data-testid": "sun-legend" }, legend, ". ", t("sun_legend_help")));
}
function sunRowsText(rows) { return rows ? t("sun_rows", { n: rows }) : t("sun_rows_none"); }
