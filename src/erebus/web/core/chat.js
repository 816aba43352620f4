// The table's chat: the lines the server pushes, and the form a seat posts with
// (spectators read it but do not post).

import { APP } from "./state.js";
import { h, $ } from "./dom.js";
import { t } from "./i18n.js";
import { sendChat } from "./connection.js";
import { renderLog } from "./log.js";

export const CHAT_MAX = 500; // characters per chat line (the server's limit, erebus.server.service.CHAT_MAX)

export function receiveChat(m) {
  if (m.type === "chat") { APP.chat.push(m); APP.chat = APP.chat.slice(-100); }
  else APP.chat = m.chat || [];
  renderLog();
}

export function chatForm() {
  if (!APP.token) return h("p", { class: "chatnote", "data-testid": "chat-spectator" }, t("chat_spectator"));
  return h("form", { class: "chatform", onsubmit: (e) => { e.preventDefault(); const i = $("#chatin"); if (i.value.trim()) sendChat(i.value.trim()); i.value = ""; } },
    h("input", { id: "chatin", placeholder: t("chat_placeholder"), "aria-label": t("chat_placeholder"), maxlength: CHAT_MAX }),
    h("button", { class: "btn small" }, t("send")));
}
