// One feed: the game's events (in the board's words) and the chat in time order (a
// chat line after the events of the version it was posted at; a line without a
// version at the end), with a filter.  Hovering an event shows on the board what it
// names (the board's eventRefs/highlight).

import { APP } from "./state.js";
import { h, $ } from "./dom.js";
import { t } from "./i18n.js";
import { COLORS, seatName } from "./seats.js";

function chatTime(c) {
  if (!c.time) return null;
  const d = new Date(c.time);
  return isNaN(d) ? null : d.toLocaleTimeString(APP.lang, { hour: "2-digit", minute: "2-digit" });
}

export function renderLog() {
  const box = $("#log"); if (!box) return;
  const board = APP.board;
  // the hovered line is about to be replaced (and will never see its mouseleave)
  if (board) board.highlight(null);
  box.replaceChildren();
  const f = APP.logFilter;
  const items = [];
  const skip = board ? board.LOG_SKIP : new Set();
  if (f !== "chat") APP.events.filter((e) => !skip.has(e.type)).slice(-150).forEach((e, k) => items.push({ key: e.version ?? 0, k, e }));
  if (f !== "events") APP.chat.forEach((c, k) => items.push({ key: c.version != null ? c.version + 0.5 : Infinity, k: 1e6 + k, c }));
  items.sort((x, y) => x.key - y.key || x.k - y.k);
  for (const it of items) {
    if (it.c) {
      const c = it.c, tm = chatTime(c);
      box.append(h("li", { class: "chat", style: c.seat != null ? `--pc:${COLORS[c.seat]}` : null },
        tm ? h("time", { class: "muted", datetime: c.time }, tm + " ") : null,
        h("b", {}, (c.name || (c.seat != null ? seatName(c.seat) : t("spectator"))) + ": "), c.text));
      continue;
    }
    const e = it.e, refs = board ? board.eventRefs(e) : null;
    const li = h("li", { class: `ev ev-${e.type}` + (refs ? " refs" : ""), style: e.seat != null ? `--pc:${COLORS[e.seat]}` : null },
      board ? board.eventText(e) : e.text || e.type);
    if (refs) {
      li.addEventListener("mouseenter", () => board.highlight(refs));
      li.addEventListener("mouseleave", () => board.highlight(null));
    }
    box.append(li);
  }
  box.scrollTop = box.scrollHeight;
}

export function logFilterBar() {
  return h("div", { class: "logfilter", role: "radiogroup", "aria-label": t("log_filter") },
    ["all", "events", "chat"].map((f) => h("button", {
      class: "btn tiny" + (APP.logFilter === f ? " on" : ""), role: "radio", "aria-checked": APP.logFilter === f ? "true" : "false",
      "data-filter": f, onclick: () => { APP.logFilter = f; $(".logfilter").replaceWith(logFilterBar()); renderLog(); },
    }, t(`log_${f}`))));
}
