// Small marks of the panels: crew as dots, a token as a disc, an action's cost.

import { h, s } from "../core/dom.js";
import { t } from "../core/i18n.js";
import { TOKEN_COLORS, TOKEN_GLYPH } from "./content.js";

export function dots(n, color, filled) {
  const w = Math.max(n, 1) * 11;
  const svg = s("svg", { width: w, height: 12, class: "dots", role: "img", "aria-label": String(n) });
  for (let k = 0; k < n; k++) svg.append(s("circle", { cx: 5.5 + 11 * k, cy: 6, r: 4.3, fill: filled ? color : "none", stroke: color, "stroke-width": 1.6 }));
  return h("span", { class: "dotwrap" }, svg, h("span", { class: "n" }, String(n)));
}
export function miniToken(kind, label) {
  const svg = s("svg", { width: 16, height: 16, viewBox: "-1 -1 2 2", "aria-hidden": "true" });
  const colors = { ...TOKEN_COLORS, nw: "#1f3b5a", gl: "#e8e2cf" };
  svg.append(s("circle", { r: 0.95, fill: colors[kind], stroke: "#222", "stroke-width": 0.08 }));
  svg.append(s("text", { y: 0.36, "font-size": 1.05, class: "tok-glyph" + (kind === "gl" ? " dark" : "") }, label != null ? String(label) : TOKEN_GLYPH[kind] || ""));
  return svg;
}
export function costTag(n) { return h("span", { class: "cost", title: t("cost") }, String(n)); }
