// Turn alerts: a short sound (WebAudio, mutable), a system notification when the tab
// is hidden (permission asked on a click only) and the title; their buttons.

import { APP } from "./state.js";
import { h, s, $ } from "./dom.js";
import { t } from "./i18n.js";

let audio = null;
export function soundOn() { return localStorage.getItem("erebus.sound") !== "off"; }
export function ensureAudio() {
  if (audio) return audio;
  const AC = window.AudioContext || window.webkitAudioContext;
  if (!AC) return null;
  try { audio = new AC(); } catch { audio = null; }
  return audio;
}
function beep() {
  const ac = ensureAudio(); if (!ac) return;
  try {
    if (ac.state === "suspended") ac.resume();
    const t0 = ac.currentTime;
    [[880, 0], [1175, 0.13]].forEach(([f, d]) => {
      const o = ac.createOscillator(), g = ac.createGain();
      o.frequency.value = f; o.type = "sine";
      g.gain.setValueAtTime(0.0001, t0 + d); g.gain.exponentialRampToValueAtTime(0.18, t0 + d + 0.02);
      g.gain.exponentialRampToValueAtTime(0.0001, t0 + d + 0.12);
      o.connect(g).connect(ac.destination); o.start(t0 + d); o.stop(t0 + d + 0.14);
    });
  } catch { /* no sound then */ }
  const root = document.documentElement;
  root.dataset.beeps = String(Number(root.dataset.beeps || 0) + 1);
}
export function turnAlert() {
  const root = document.documentElement;
  root.dataset.turnAlerts = String(Number(root.dataset.turnAlerts || 0) + 1);
  if (soundOn()) beep();
  if (document.hidden && "Notification" in window && Notification.permission === "granted") {
    try { new Notification(t("your_turn"), { body: APP.board && APP.board.title ? APP.board.title() : t("game_title"), tag: "erebus-turn" }); } catch { /* */ }
  }
}
// Browsers start sound only after a gesture: make the audio context on the first one.
export function unlockAudioOnGesture() {
  const unlock = () => { if (soundOn()) { const ac = ensureAudio(); if (ac && ac.state === "suspended") ac.resume(); } };
  document.addEventListener("pointerdown", unlock, { once: true });
  document.addEventListener("keydown", unlock, { once: true });
}
// A bell drawn in SVG (emoji fonts are missing on many Linux desktops).
function bellIcon(muted) {
  return s("svg", { width: 16, height: 16, viewBox: "0 0 16 16", "aria-hidden": "true", class: "bell" },
    s("path", { d: "M8 1.5a1 1 0 0 1 1 1v.6a4.5 4.5 0 0 1 3.5 4.4v3l1.3 1.7H2.2l1.3-1.7v-3A4.5 4.5 0 0 1 7 3.1v-.6a1 1 0 0 1 1-1z", fill: "currentColor" }),
    s("path", { d: "M6.3 13.4a1.8 1.8 0 0 0 3.4 0z", fill: "currentColor" }),
    muted ? s("line", { x1: 2, y1: 14.5, x2: 14, y2: 1.5, stroke: "#c8412f", "stroke-width": 1.8 }) : null);
}
export function alertButtons() {
  const on = soundOn();
  const sound = h("button", { class: "btn small", id: "soundbtn", "aria-pressed": on ? "true" : "false",
    title: on ? t("sound_on") : t("sound_off"), "aria-label": on ? t("sound_on") : t("sound_off"),
    onclick: () => { localStorage.setItem("erebus.sound", on ? "off" : "on"); if (!on) ensureAudio(); $("#alertbtns").replaceWith(alertButtons()); } },
  bellIcon(!on));
  const canAsk = "Notification" in window && Notification.permission === "default";
  const notify = canAsk ? h("button", { class: "btn small", id: "notifybtn", title: t("notify_ask"),
    onclick: () => { try { Notification.requestPermission().then(() => $("#alertbtns") && $("#alertbtns").replaceWith(alertButtons())); } catch { /* */ } } }, t("notify_short")) : null;
  return h("span", { id: "alertbtns", class: "alertbtns" }, sound, notify);
}
