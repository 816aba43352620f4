// The games this browser knows (localStorage), their links and the "seeded" badge.

import { APP } from "./state.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";

export function myGames() { try { return JSON.parse(localStorage.getItem("erebus.games") || "[]"); } catch { return []; } }
export function saveGames(list) { localStorage.setItem("erebus.games", JSON.stringify(list.slice(0, 30))); }
export function rememberGame(g) {
  // On a game page the payload says whether the game is seeded and over.
  if (APP.msg && APP.msg.id === g.id) {
    g = { ...g, ...(APP.msg.seeded != null ? { seeded: !!APP.msg.seeded } : {}), status: APP.msg.is_over ? "over" : "active" };
  }
  const list = myGames();
  const k = list.findIndex((x) => x.id === g.id);
  if (k >= 0) list[k] = { ...list[k], ...g, seen: Date.now() };
  else list.unshift({ ...g, created: Date.now(), seen: Date.now() });
  saveGames(list);
}
export const abs = (u) => new URL(u, location.origin).href;
export function seatUrl(id, token) { return `/game/${encodeURIComponent(id)}?token=${encodeURIComponent(token)}`; }
export function replayUrl(id, step) { return `/replay/${encodeURIComponent(id)}${step != null ? `?step=${step}` : ""}`; }

export function seededBadgeEl(seeded) {
  if (!seeded) return null;
  return h("span", { class: "badge seeded", title: t("seeded_tip"), "data-testid": "seeded" }, t("seeded"));
}
