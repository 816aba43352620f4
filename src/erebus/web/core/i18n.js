// The client's languages: the strings of i18n/<lang>.json, English as the fallback,
// and the language picker of the top bar.

import { APP } from "./state.js";
import { h } from "./dom.js";

export const LANGS = ["en", "hu", "it", "fr", "uk", "ja"];
const LANG_NAMES = { en: "English", hu: "Magyar", it: "Italiano", fr: "Français", uk: "Українська", ja: "日本語" };
const ASSET = (p) => new URL(`../${p}`, import.meta.url).href;

let STR = {}, STR_EN = {};

export function pickLang() {
  const saved = localStorage.getItem("erebus.lang");
  if (saved && LANGS.includes(saved)) return saved;
  for (const l of navigator.languages || [navigator.language || "en"]) {
    const base = (l || "").toLowerCase().split("-")[0];
    if (LANGS.includes(base)) return base;
  }
  return "en";
}
export async function loadLang(lang) {
  const get = async (l) => { try { const r = await fetch(ASSET(`i18n/${l}.json`)); return r.ok ? await r.json() : {}; } catch { return {}; } };
  STR_EN = await get("en");
  STR = lang === "en" ? STR_EN : await get(lang);
  document.documentElement.lang = lang;
}
export function t(key, params = {}) {
  const str = STR[key] ?? STR_EN[key] ?? key;
  return str.replace(/\{(\w+)\}/g, (m, k) => (params[k] != null ? params[k] : m));
}
// ``key``'s text, or ``fallback`` when no language has it.
export function tr(key, fallback) { const v = t(key); return v === key ? fallback : v; }
export function hasKey(key) { return !!(STR[key] || STR_EN[key]); }

export function langSwitcher(onChange) {
  const sel = h("select", { "aria-label": t("language"), class: "lang" },
    LANGS.map((l) => h("option", { value: l, selected: l === APP.lang }, LANG_NAMES[l])));
  sel.addEventListener("change", async () => {
    APP.lang = sel.value;
    localStorage.setItem("erebus.lang", APP.lang);
    await loadLang(APP.lang);
    onChange();
  });
  return sel;
}
