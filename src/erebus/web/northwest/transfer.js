// The transfer dialog: the two columns side by side, each count with − / + steppers
// (what leaves one column joins the other), the resulting crew as dots; OK sends the
// legal transfer with that split (the engine's reason shows when there is none).

import { APP } from "../core/state.js";
import { h } from "../core/dom.js";
import { t } from "../core/i18n.js";
import { COLORS } from "../core/seats.js";
import { checkAction, sendAction } from "../core/connection.js";
import { UI, actionCost, legalOf, seatOf } from "./ui.js";
import { costTag, dots } from "./marks.js";

export function openTransfer() {
  const opts = legalOf("transfer");
  if (!opts.length) return;
  const c = seatOf(APP.seat).crew, color = COLORS[APP.seat];
  const cr = { shipA: c.ship.available, shipR: c.ship.resting, sledA: c.sled.available, sledR: c.sled.resting };
  const cost = actionCost(opts[0]);
  const totA = cr.shipA + cr.sledA - cost, totR = cr.shipR + cr.sledR + cost;
  const dist = (a) => Math.abs(a.sled.available - cr.sledA) + Math.abs(a.sled.resting - cr.sledR);
  const start = opts.slice().sort((x, y) => dist(x) - dist(y))[0];
  const cur = { sa: start.sled.available, sr: start.sled.resting };
  const find = () => {
    const same = opts.filter((a) => a.sled.available === cur.sa && a.sled.resting === cur.sr);
    return same.find((a) => a.vehicle === UI.vehicle) || same[0] || null;
  };
  const dlg = h("dialog", { class: "dialog transfer", "aria-label": t("transfer") });
  const body = h("div", { class: "tr-cols" });
  const status = h("p", { class: "tr-status", "aria-live": "polite" });
  const ok = h("button", { class: "btn primary", "data-testid": "tr-ok" }, t("ok"));
  const close = () => { dlg.close(); dlg.remove(); };
  const stepper = (field, kind, state) => {
    // field: "sa" (available) or "sr" (resting); the ship column holds the rest
    const max = field === "sa" ? totA : totR;
    const val = kind === "sled" ? cur[field] : max - cur[field];
    const dec = () => { cur[field] += kind === "sled" ? -1 : 1; draw(); };
    const inc = () => { cur[field] += kind === "sled" ? 1 : -1; draw(); };
    return h("div", { class: "tr-row", "data-row": state },
      h("span", { class: "lbl" }, t(state)),
      h("button", { class: "btn step", type: "button", "aria-label": `${t(kind)} ${t(state)} −`, "data-testid": `tr-${kind}-${field}-minus`, disabled: val <= 0, onclick: dec }, "−"),
      dots(val, color, state === "available"),
      h("button", { class: "btn step", type: "button", "aria-label": `${t(kind)} ${t(state)} +`, "data-testid": `tr-${kind}-${field}-plus`, disabled: val >= max, onclick: inc }, "+"));
  };
  const draw = () => {
    body.replaceChildren(...["ship", "sled"].map((kind) => h("div", { class: "tr-col", "data-col": kind },
      h("div", { class: "crew-head" }, t(kind)), stepper("sa", kind, "available"), stepper("sr", kind, "resting"))));
    const a = find();
    ok.disabled = !a;
    if (a) { status.className = "tr-status ok"; status.textContent = t("transfer_pays", { veh: t(a.vehicle), n: cost }); return; }
    status.className = "tr-status warn-text";
    status.textContent = t("transfer_illegal");
    const probe = { type: "transfer", vehicle: UI.vehicle, sled: { available: cur.sa, resting: cur.sr } };
    checkAction(probe).then((r) => { if (r && !r.legal && find() === null && status.isConnected) status.textContent = `${t("transfer_illegal")} ${r.reason}`; });
  };
  ok.addEventListener("click", () => { const a = find(); if (!a) return; close(); sendAction(a); });
  dlg.append(
    h("h3", {}, t("transfer"), " ", costTag(cost)),
    h("p", {}, t("transfer_help")),
    h("p", { class: "muted" }, t("now_crew", { sa: cr.sledA, sr: cr.sledR, ha: cr.shipA, hr: cr.shipR })),
    body, status,
    h("div", { class: "row" }, ok, h("button", { class: "btn", type: "button", onclick: close }, t("cancel"))));
  draw();
  document.body.append(dlg);
  dlg.addEventListener("cancel", () => dlg.remove());
  dlg.showModal();
  ok.focus();
}

