// The end screen's shared parts: the score chart, the rematch and the replay link.
// (What the scores are made of is the board's: its endPanel builds the table.)

import { APP } from "./state.js";
import { h, s, r3, toast } from "./dom.js";
import { t } from "./i18n.js";
import { COLORS } from "./seats.js";
import { errText } from "./connection.js";
import { abs, myGames, rememberGame, replayUrl, seatUrl } from "./mygames.js";

// Rematch: the server makes a new game with the same seats and tokens (409 until the
// game is over); we open it with the same token.  Shared by the lobby and the end screen.
export async function requestRematch(id, token) {
  try {
    const r = await fetch(`/api/games/${encodeURIComponent(id)}/rematch?token=${encodeURIComponent(token)}`, { method: "POST" });
    const txt = await r.text();
    if (!r.ok) { toast(t("error_rematch", { msg: errText(txt) })); return null; }
    const g = JSON.parse(txt);
    const old = myGames().find((x) => x.id === id) || {};
    const seats = (old.seats || []).map((st) => ({ ...st, url: st.token ? abs(seatUrl(g.id, st.token)) : st.url }));
    rememberGame({ id: g.id, token, seats, spectator_url: abs(g.spectator_url || `/game/${encodeURIComponent(g.id)}`), seeded: false, status: "active" });
    location.href = seatUrl(g.id, token);
    return g;
  } catch (e) { toast(t("error_rematch", { msg: String(e.message || e) })); return null; }
}

// The end screen's links: the rematch and the replay.
export function endLinks() {
  const id = APP.gameId || (APP.msg && APP.msg.id);
  if (!id) return null;
  return h("span", { class: "end-links" },
    APP.token ? h("button", { class: "btn", "data-testid": "rematch", onclick: () => requestRematch(id, APP.token) }, "↻ ", t("rematch")) : null,
    h("a", { class: "btn", href: replayUrl(id), "data-testid": "replay-link" }, "▶ ", t("replay")));
}

// Each seat's score over the rounds: points[seat] = [[round, score], …].
export function scoreChart(points, lastRound) {
  const Wc = 420, Hc = 230, pad = 32;
  const all = points.flat().map((p) => p[1]);
  const ymax = Math.max(10, ...all), ymin = Math.min(0, ...all);
  const X = (r) => pad + (r / (lastRound + 1)) * (Wc - pad - 10);
  const Y = (v) => Hc - pad + 8 - ((v - ymin) / (ymax - ymin)) * (Hc - pad - 22);
  const svg = s("svg", { viewBox: `0 0 ${Wc} ${Hc}`, width: Wc, height: Hc, class: "chart", role: "img", "aria-label": t("score_chart") });
  svg.append(s("line", { x1: pad, y1: Y(0), x2: Wc - 6, y2: Y(0), class: "axis" }));
  svg.append(s("line", { x1: pad, y1: 8, x2: pad, y2: Hc - pad + 8, class: "axis" }));
  for (let r = 0; r <= lastRound + 1; r++) svg.append(s("text", { x: X(r), y: Hc - 8, class: "tick" }, r === lastRound + 1 ? t("final_short") : String(r)));
  const step = ymax - ymin > 60 ? 20 : 10;
  for (let yv = Math.ceil(ymin / step) * step; yv <= ymax; yv += step) {
    svg.append(s("text", { x: pad - 5, y: Y(yv) + 3, class: "tick y" }, String(yv)));
    svg.append(s("line", { x1: pad, y1: Y(yv), x2: Wc - 6, y2: Y(yv), class: "grid" }));
  }
  points.forEach((pts, i) => {
    svg.append(s("polyline", { points: pts.map(([r, v]) => `${r3(X(r))},${r3(Y(v))}`).join(" "), fill: "none", stroke: COLORS[i], "stroke-width": 2.5 }));
    const [lr, lv] = pts[pts.length - 1];
    svg.append(s("circle", { cx: X(lr), cy: Y(lv), r: 3.5, fill: COLORS[i] }));
  });
  svg.insertBefore(s("text", { x: Wc / 2, y: 13, class: "chart-title" }, t("score_chart")), svg.firstChild);
  return svg;
}
