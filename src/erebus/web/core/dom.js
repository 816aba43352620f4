// DOM helpers shared by every page: element builders (HTML and SVG), a query, the
// toast, and activation by click or keyboard.  No state of the game here.

export const SVGNS = "http://www.w3.org/2000/svg";

export function setAttrs(el, attrs) {
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v == null || v === false) continue;
    if (k.startsWith("on") && typeof v === "function") el.addEventListener(k.slice(2), v);
    else if (k === "text") el.textContent = v;
    else el.setAttribute(k, v === true ? "" : v);
  }
}
export function h(tag, attrs = {}, ...kids) {
  const el = document.createElement(tag);
  setAttrs(el, attrs);
  for (const k of kids.flat()) if (k != null && k !== false) el.append(k instanceof Node ? k : String(k));
  return el;
}
export function s(tag, attrs = {}, ...kids) {
  const el = document.createElementNS(SVGNS, tag);
  setAttrs(el, attrs);
  for (const k of kids.flat()) if (k != null && k !== false) el.append(k instanceof Node ? k : String(k));
  return el;
}
export const $ = (sel, root = document) => root.querySelector(sel);
export const r3 = (n) => Math.round(n * 1000) / 1000;

// The payloads hold JSON types only (the wire view has no integer beyond 2^53), so
// plain JSON.parse reads everything exactly.
export function parseJSON(text) { return JSON.parse(text); }

export function bindActivate(el, fn) {
  el.addEventListener("click", (e) => { e.stopPropagation(); fn(); });
  el.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); fn(); } });
}

let toastTimer = null;
export function toast(msg) {
  let el = $("#toast");
  if (!el) { el = h("div", { id: "toast", role: "status", "aria-live": "polite" }); document.body.append(el); }
  el.textContent = msg; el.classList.add("show");
  clearTimeout(toastTimer); toastTimer = setTimeout(() => el.classList.remove("show"), 4500);
}
