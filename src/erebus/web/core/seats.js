// The seats of the table: their colours and names, and the autopilot's badge.

import { APP } from "./state.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { sendResume } from "./connection.js";

export const COLORS = ["#c8412f", "#2f6db5", "#2f8a55", "#c99a1d"];

// A seat's name: the one its host typed (named), else our own words for the server's
// default ("Player 1", "Bot 2 (hard)") in the current language.
export function seatName(i) {
  const p = APP.players && APP.players[i];
  if (p && p.name && p.named) return p.name;
  if (p && p.kind === "bot") return t("bot_n", { n: i + 1, level: t(`level_${p.level || "medium"}`) });
  return t("player_n", { n: i + 1 });
}

export function autopilotBadge(i) {
  const p = APP.players && APP.players[i];
  if (!p || !p.autopilot) return null;
  const b = h("span", { class: "status autopilot", "data-testid": `autopilot-${i}` }, t("autopilot_for", { name: seatName(i) }));
  if (i !== APP.seat) return b;
  return h("span", {}, b, " ", h("button", { class: "btn small", onclick: sendResume }, t("take_back_seat")));
}
