// The line to the server: the state over HTTP, pushes over the WebSocket (polling
// while it is down), and the requests a seat makes (act, undo, resume, check).

import { APP } from "./state.js";
import { parseJSON, toast } from "./dom.js";
import { t } from "./i18n.js";

// What the page does with what arrives (the table sets these: see listen()).
const on = { state: () => {}, chat: () => {}, status: () => {}, sent: () => {} };
export function listen(handlers) { Object.assign(on, handlers); }

const tokenQuery = () => (APP.token ? `?token=${encodeURIComponent(APP.token)}` : "");
const gamePath = (tail = "") => `/api/games/${encodeURIComponent(APP.gameId)}${tail}`;

export function errText(txt) { try { const j = JSON.parse(txt); return j.detail || j.error || j.message || txt; } catch { return txt; } }

function wsUrl() {
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  return `${proto}//${location.host}/ws/games/${encodeURIComponent(APP.gameId)}${tokenQuery()}`;
}
export async function fetchState() {
  const r = await fetch(gamePath(tokenQuery()));
  if (!r.ok) throw new Error(`${r.status} ${await r.text()}`);
  return parseJSON(await r.text());
}
export function connectWS() {
  let ws;
  try { ws = new WebSocket(wsUrl()); } catch { startPolling(); return; }
  APP.ws = ws;
  ws.onopen = () => { APP.wsOk = true; stopPolling(); on.status(); };
  ws.onmessage = (ev) => {
    let m; try { m = parseJSON(ev.data); } catch { return; }
    onServerMessage(m);
  };
  ws.onclose = () => {
    APP.wsOk = false; APP.ws = null; on.status();
    startPolling();
    setTimeout(connectWS, 4000);
  };
  ws.onerror = () => { try { ws.close(); } catch { /* */ } };
}
function startPolling() {
  if (APP.pollTimer) return;
  APP.pollTimer = setInterval(async () => { try { onServerMessage(await fetchState()); } catch { /* */ } }, 3000);
}
function stopPolling() { clearInterval(APP.pollTimer); APP.pollTimer = null; }

export function onServerMessage(m) {
  if (!m) return;
  if (m.type === "chat" || m.type === "chat_history") { on.chat(m); return; }
  if (m.type === "error") { toast(t("error_action", { msg: m.message || m.detail || m.text || "" })); if (m.view) on.state(m); return; }
  if (m.view) on.state(m);
}

// POST a seat's request; the answer (a payload, or nothing) is the new state.
async function post(tail, body) {
  try {
    const r = await fetch(gamePath(tail + tokenQuery()), {
      method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
    });
    const txt = await r.text();
    if (!r.ok) { toast(t("error_action", { msg: errText(txt) })); return; }
    const m = txt ? parseJSON(txt) : null;
    if (m && m.view) onServerMessage(m); else onServerMessage(await fetchState());
  } catch (e) { toast(String(e)); }
}

export async function sendAction(action) {
  if (APP.board) APP.board.onSend();
  if (APP.ws && APP.wsOk) {
    APP.ws.send(JSON.stringify({ type: "action", version: APP.version, action }));
    APP.legal = []; APP.costs = []; on.sent();
    return;
  }
  await post("/actions", { version: APP.version, action });
}
// Undo (this turn, until something hidden was revealed) and the autopilot's hand-back.
export async function sendUndo() {
  if (APP.ws && APP.wsOk) { APP.ws.send(JSON.stringify({ type: "undo", version: APP.version })); return; }
  await post("/undo", { version: APP.version });
}
export function sendResume() { if (APP.ws && APP.wsOk) APP.ws.send(JSON.stringify({ type: "resume" })); }
export function sendChat(text) {
  if (APP.ws && APP.wsOk) APP.ws.send(JSON.stringify({ type: "chat", text }));
  else toast(t("chat_offline"));
}

// The engine's verdict on an action that is not offered (POST /check), cached per
// game version: the tooltip of a spot that is not lit up says which rule forbids it.
export function checkAction(action) {
  if (!APP.token) return Promise.resolve(null);
  const key = `${APP.version}|${JSON.stringify(action)}`;
  if (APP.checks.has(key)) return APP.checks.get(key);
  if (APP.checks.size > 400) APP.checks.clear();
  const pr = fetch(gamePath(`/check${tokenQuery()}`), {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ action }),
  }).then((r) => (r.ok ? r.json() : null)).catch(() => null);
  APP.checks.set(key, pr);
  return pr;
}
