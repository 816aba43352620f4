// The lobby ("/"): a new game's seats and options, the links it makes, and the list of
// this browser's games (over or not, with their replay and rematch).

import { APP } from "./state.js";
import { h, $, parseJSON, toast } from "./dom.js";
import { t, langSwitcher } from "./i18n.js";
import { COLORS } from "./seats.js";
import { errText } from "./connection.js";
import { abs, myGames, replayUrl, saveGames, seatUrl, seededBadgeEl } from "./mygames.js";
import { requestRematch } from "./end.js";

// The game's options in the lobby: seconds, null = off / none.
const GRACE_CHOICES = [60, 300, 1800, 86400, null];
const CLOCK_CHOICES = [null, 60, 300, 900, 86400];
const NAME_MAX = 24; // characters of a seat's name (the server's limit)
function durText(sec, none) {
  if (sec == null) return t(none);
  return sec >= 86400 ? t("dur_day") : t("dur_min", { n: Math.round(sec / 60) });
}
function lobbyOptions() {
  let o = null;
  try { o = JSON.parse(localStorage.getItem("erebus.lobbyOptions") || "null"); } catch { o = null; }
  o = o && typeof o === "object" ? o : {};
  return {
    takeover_grace_s: GRACE_CHOICES.includes(o.takeover_grace_s) ? o.takeover_grace_s : 300,
    clock_s: CLOCK_CHOICES.includes(o.clock_s) ? o.clock_s : null,
    autopilot_level: ["easy", "medium", "hard"].includes(o.autopilot_level) ? o.autopilot_level : "medium",
    seed: typeof o.seed === "string" ? o.seed : "",
  };
}
export function renderLobby() {
  const seats = JSON.parse(localStorage.getItem("erebus.lobbySeats") || "null") || [
    { kind: "human" }, { kind: "bot", level: "medium" }, { kind: "bot", level: "medium" }];
  const opts = lobbyOptions();
  const form = h("form", { class: "card create", onsubmit: (e) => { e.preventDefault(); createGame(seats, opts); } });
  const seatsBox = h("div", { class: "seats" });
  const countSel = h("select", { id: "nplayers", "aria-label": t("players") }, [2, 3, 4].map((n) => h("option", { value: n, selected: n === seats.length }, String(n))));
  const drawSeats = () => {
    seatsBox.replaceChildren(...seats.map((st, i) => {
      const kind = h("select", { "aria-label": t("seat_n", { n: i + 1 }) },
        h("option", { value: "human", selected: st.kind === "human" }, t("human")),
        h("option", { value: "bot", selected: st.kind === "bot" }, t("bot")));
      const level = h("select", { "aria-label": t("level"), disabled: st.kind !== "bot" },
        ["easy", "medium", "hard"].map((l) => h("option", { value: l, selected: (st.level || "medium") === l }, t(`level_${l}`))));
      kind.addEventListener("change", () => { st.kind = kind.value; if (st.kind === "bot") st.level = st.level || "medium"; else delete st.level; drawSeats(); });
      level.addEventListener("change", () => { st.level = level.value; });
      const name = st.kind === "human"
        ? h("input", { class: "seat-name", maxlength: NAME_MAX, value: st.name || "", placeholder: t("player_n", { n: i + 1 }),
          "aria-label": `${t("seat_n", { n: i + 1 })}: ${t("seat_name")}`, title: t("seat_name"), oninput: (e) => { st.name = e.target.value; } })
        : null;
      // A bot seat keeps its level select; a human seat shows its name field instead.
      return h("div", { class: "seat", style: `--pc:${COLORS[i]}` }, h("span", { class: "swatch" }), h("label", {}, t("seat_n", { n: i + 1 })), kind,
        st.kind === "bot" ? level : name);
    }));
  };
  countSel.addEventListener("change", () => {
    const n = Number(countSel.value);
    while (seats.length < n) seats.push({ kind: "bot", level: "medium" });
    seats.length = n; drawSeats();
  });
  drawSeats();
  const optRow = (id, label, help, control) => h("div", { class: "opt" },
    h("label", { for: id }, label), control, h("p", { class: "opt-help", id: `${id}-help` }, help));
  const choice = (id, values, current, none, onPick) => {
    const sel = h("select", { id, "aria-describedby": `${id}-help` },
      values.map((v) => h("option", { value: v == null ? "" : String(v), selected: v === current }, durText(v, none))));
    sel.addEventListener("change", () => onPick(sel.value === "" ? null : Number(sel.value)));
    return sel;
  };
  const graceSel = choice("opt-grace", GRACE_CHOICES, opts.takeover_grace_s, "dur_off", (v) => { opts.takeover_grace_s = v; });
  const clockSel = choice("opt-clock", CLOCK_CHOICES, opts.clock_s, "dur_none", (v) => { opts.clock_s = v; });
  const apSel = h("select", { id: "opt-autopilot", "aria-describedby": "opt-autopilot-help" },
    ["easy", "medium", "hard"].map((l) => h("option", { value: l, selected: opts.autopilot_level === l }, t(`level_${l}`))));
  apSel.addEventListener("change", () => { opts.autopilot_level = apSel.value; });
  const seedIn = h("input", { id: "opt-seed", inputmode: "numeric", maxlength: 19, value: opts.seed, placeholder: t("seed_random"),
    "aria-describedby": "opt-seed-help", oninput: (e) => { opts.seed = e.target.value.trim(); } });
  const advanced = h("details", { class: "advanced", open: opts.seed ? true : null },
    h("summary", {}, t("advanced")),
    optRow("opt-seed", t("opt_seed"), t("opt_seed_help"), seedIn));
  form.append(h("h2", {}, t("new_game")), h("label", { class: "inline" }, t("players"), " ", countSel),
    seatsBox, h("p", { class: "opt-help" }, t("seats_help")),
    h("fieldset", { class: "options" }, h("legend", {}, t("options")),
      optRow("opt-grace", t("opt_grace"), t("opt_grace_help"), graceSel),
      optRow("opt-clock", t("opt_clock"), t("opt_clock_help"), clockSel),
      optRow("opt-autopilot", t("opt_autopilot"), t("opt_autopilot_help"), apSel),
      advanced),
    h("button", { class: "btn primary", type: "submit" }, t("create")));
  const result = h("div", { id: "created" });
  const list = h("section", { class: "card", id: "mygames" });
  document.body.replaceChildren(
    h("header", { class: "topbar wrapbar" }, h("a", { href: "/", class: "brand" }, "erebus"), h("span", { class: "title" }, t("game_title")),
      h("span", { class: "spacer" }), langSwitcher(renderLobby)),
    h("main", { class: "lobby" }, h("p", { class: "intro" }, t("intro")), form, result, list));
  renderMyGames();
  refreshMyGames();
}

// Ask the server which of my games are over (tokens: one call; games without a token of
// mine, e.g. bots only: the spectator payload), then draw the list again.
let myGamesStatus = {};
async function refreshMyGames() {
  const games = myGames();
  const tokens = [...new Set(games.flatMap((g) => [g.token, ...(g.seats || []).map((st) => st.token)]).filter(Boolean))].slice(0, 50);
  const found = {};
  try {
    if (tokens.length) {
      const r = await fetch(`/api/games?tokens=${tokens.map(encodeURIComponent).join(",")}`);
      if (r.ok) for (const g of (await r.json()).games || []) found[g.id] = { status: g.status, rematch: g.rematch };
    }
    await Promise.all(games.filter((g) => !found[g.id] && !(g.seats || []).some((st) => st.token) && !g.token).slice(0, 10).map(async (g) => {
      const r = await fetch(`/api/games/${encodeURIComponent(g.id)}`);
      if (r.ok) { const m = parseJSON(await r.text()); found[g.id] = { status: m.is_over ? "over" : "active", seeded: m.seeded }; }
    }));
  } catch { /* offline: the list stays as stored */ }
  myGamesStatus = found;
  renderMyGames();
}
function renderMyGames() {
  const box = $("#mygames"); if (!box) return;
  const games = myGames();
  box.replaceChildren(h("h2", {}, t("my_games")),
    games.length ? h("ul", { class: "games" }, games.map((g) => {
      const st = { ...g, ...(myGamesStatus[g.id] || {}) };
      const over = st.status === "over";
      const token = g.token || ((g.seats || []).find((x) => x.token) || {}).token;
      return h("li", { "data-game": g.id },
        h("code", {}, g.id), " ",
        h("small", { class: "muted" }, new Date(g.created || g.seen || Date.now()).toLocaleString(APP.lang)), " ",
        st.status ? h("span", { class: `badge status-${over ? "over" : "active"}` }, t(over ? "status_over" : "status_active")) : null,
        seededBadgeEl(st.seeded),
        (g.seats || []).length
          ? (g.seats || []).filter((x) => x.human !== false).map((x) => h("a", { href: x.url || seatUrl(g.id, x.token), class: "pill" }, x.name || t("seat_n", { n: x.seat + 1 })))
          : h("a", { href: seatUrl(g.id, g.token), class: "pill" }, t("open")),
        g.spectator_url ? h("a", { href: g.spectator_url, class: "pill" }, t("spectate")) : null,
        over ? h("a", { href: replayUrl(g.id), class: "pill", "data-testid": "replay-link" }, t("replay")) : null,
        over && token ? h("button", { class: "btn tiny", type: "button", "data-testid": "rematch", onclick: () => requestRematch(g.id, token) }, "↻ ", t("rematch")) : null,
        h("button", { class: "btn tiny", onclick: () => { saveGames(myGames().filter((x) => x.id !== g.id)); renderMyGames(); }, "aria-label": t("forget"), title: t("forget") }, "×"));
    }))
      : h("p", { class: "muted" }, t("no_games")));
}

async function createGame(seats, opts) {
  localStorage.setItem("erebus.lobbySeats", JSON.stringify(seats));
  localStorage.setItem("erebus.lobbyOptions", JSON.stringify({ ...opts, seed: "" })); // a seed is for one game
  const box = $("#created");
  const seed = (opts.seed || "").trim();
  // The seed travels as JSON digits (it may exceed 2^53, which a JS number would round).
  if (seed && (!/^\d{1,19}$/.test(seed) || BigInt(seed) >= 2n ** 63n)) {
    box.replaceChildren(h("p", { class: "warn-text", role: "alert" }, t("seed_invalid")));
    return;
  }
  const body = {
    game: "northwest", players: seats.length,
    seats: seats.map((st) => {
      if (st.kind === "bot") return { kind: "bot", level: st.level || "medium" };
      const name = (st.name || "").trim().slice(0, NAME_MAX);
      return name ? { kind: "human", name } : { kind: "human" };
    }),
    options: { takeover_grace_s: opts.takeover_grace_s, clock_s: opts.clock_s, autopilot_level: opts.autopilot_level },
  };
  let json = JSON.stringify(body);
  if (seed) json = json.slice(0, -1) + `,"seed":${seed}}`;
  box.replaceChildren(h("p", {}, t("creating")));
  try {
    const r = await fetch("/api/games", { method: "POST", headers: { "Content-Type": "application/json" }, body: json });
    if (!r.ok) throw new Error(errText(await r.text()));
    const g = await r.json();
    const seeded = g.seeded != null ? !!g.seeded : !!seed;
    const seatsOut = (g.seats || []).map((st) => ({ seat: st.seat, token: st.token, human: !seats[st.seat] || seats[st.seat].kind === "human",
      name: body.seats[st.seat] && body.seats[st.seat].name, url: st.url ? abs(st.url) : abs(seatUrl(g.id, st.token)) }));
    const spec = g.spectator_url ? abs(g.spectator_url) : abs(`/game/${encodeURIComponent(g.id)}`);
    const list = myGames().filter((x) => x.id !== g.id);
    const humanSeat = seatsOut.find((st) => seats[st.seat] && seats[st.seat].kind === "human");
    list.unshift({ id: g.id, created: Date.now(), seats: seatsOut, spectator_url: spec, token: humanSeat && humanSeat.token, seeded, status: "active" });
    saveGames(list);
    const linkRow = (label, url, who) => h("div", { class: "linkrow" }, h("span", { class: "lbl" }, label),
      who ? h("span", { class: "who" }, who) : null,
      h("input", { value: url, readonly: true, "aria-label": label, onfocus: (e) => e.target.select() }),
      h("button", { class: "btn small", type: "button", onclick: () => navigator.clipboard && navigator.clipboard.writeText(url).then(() => toast(t("copied"))) }, t("copy")),
      h("a", { href: url, class: "btn small" }, t("open")));
    box.replaceChildren(h("section", { class: "card" }, h("h2", {}, t("game_created"), " ", seededBadgeEl(seeded)), h("p", { class: "muted" }, t("invite_help")),
      seatsOut.filter((st) => !seats[st.seat] || seats[st.seat].kind === "human").map((st) => linkRow(t("seat_n", { n: st.seat + 1 }), st.url, st.name)),
      linkRow(t("spectator"), spec)));
    renderMyGames();
  } catch (e) {
    box.replaceChildren(h("p", { class: "warn-text" }, t("error_create", { msg: e.message || e })));
  }
}

