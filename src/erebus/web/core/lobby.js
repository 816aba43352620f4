// The lobby ("/"): a new game's seats and options, the links it makes, and the list of
// this browser's games (over or not, with their replay and rematch).

import { APP } from "./state.js";
import { h, $, parseJSON, toast } from "./dom.js";
import { t, tr, hasKey, langSwitcher } from "./i18n.js";
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
    hints: o.hints === true || o.hints === false ? o.hints : null, // null: on when every other seat is a bot
  };
}
// The games the server offers and each game's own options (``GET /api/catalog``, from
// the engines' ``GameSpec.options``): the lobby draws its choices from it and holds no
// list of its own.  A server without the route: Northwest alone, as before.
const FALLBACK_CATALOG = [{ game: "northwest", title: "Expedition: Northwest Passage", min_players: 2, max_players: 4, web_board: "northwest", options: [] }];
let CATALOG = null;
async function loadCatalog() {
  if (CATALOG) return CATALOG;
  try {
    const r = await fetch("/api/catalog");
    const games = r.ok ? (await r.json()).games : null;
    CATALOG = Array.isArray(games) && games.length ? games : FALLBACK_CATALOG;
  } catch { CATALOG = FALLBACK_CATALOG; }
  return CATALOG;
}
const stored = (key, fallback) => { try { return JSON.parse(localStorage.getItem(key) || "null") ?? fallback; } catch { return fallback; } };
// An option's words: gopt_<game>_<key> (label), …_help (one line), …_<choice> (a choice's
// name) and …_<choice>_help (a line for a choice, where it needs one).
const optKey = (game, o, choice) => `gopt_${game}_${o.key}${choice != null ? `_${choice}` : ""}`;
const applies = (o, n) => !o.players || !o.players.length || o.players.includes(n);
// A set option's choices for ``n`` players (``choice_players``: some belong to some counts only).
const choicesFor = (o, n) => o.choices.filter((c) => !o.choice_players || !o.choice_players[c] || o.choice_players[c].includes(n));
// Shown and sent: for this player count, and when it ``requires`` another option's choice
// (a module's readings), only while that choice is picked.
function shownOption(game, o, n, values) {
  if (!applies(o, n)) return false;
  if (!o.requires) return true;
  const [key, choice] = o.requires;
  const dep = (game.options || []).find((x) => x.key === key);
  if (!dep || !shownOption(game, dep, n, values)) return false;
  const picked = optValue(dep, values[key], n);
  return Array.isArray(picked) && picked.includes(choice);
}
// The value shown for option ``o``: the stored pick if the catalog still allows it, else
// its default (a choice without one — the solo scenario — preselects the first).
function optValue(o, saved, n) {
  const ok = (x) => (o.kind === "flag" ? typeof x === "boolean"
    : o.kind === "set" ? Array.isArray(x) && x.every((c) => o.choices.includes(c))
      : o.choices.includes(x));
  if (ok(saved)) return o.kind === "set" ? (n == null ? o.choices : choicesFor(o, n)).filter((c) => saved.includes(c)) : saved;
  if (o.default != null) return o.kind === "set" ? [...o.default] : o.default;
  return o.kind === "flag" ? false : o.kind === "set" ? [] : o.choices[0];
}
// The game options for the request: those of the chosen player count, as shown.
export function gameOptionsBody(game, n, values) {
  const out = {};
  for (const o of game.options || []) if (shownOption(game, o, n, values)) out[o.key] = optValue(o, values[o.key], n);
  return out;
}

// Drawn at once with what is known (Northwest, until the catalog has come once), then
// the game picker and the options follow the catalog without redrawing Northwest's seats.
export function renderLobby() {
  let catalog = CATALOG || FALLBACK_CATALOG;
  const pick = (list) => list.find((g) => g.game === localStorage.getItem("erebus.lobbyGame")) || list[0];
  let game = pick(catalog);
  const seatsByGame = stored("erebus.lobbySeats", null);
  // Seats were one list before the lobby offered two games; each game keeps its own now.
  const seatsOf = (g) => {
    const list = Array.isArray(seatsByGame) ? (g.game === "northwest" ? seatsByGame : null) : (seatsByGame || {})[g.game];
    const fresh = [{ kind: "human" }, { kind: "bot", level: "medium" }, { kind: "bot", level: "medium" }].slice(0, Math.max(1, Math.min(3, g.max_players)));
    const ok = Array.isArray(list) && list.length >= g.min_players && list.length <= g.max_players;
    return ok ? list : fresh.length >= g.min_players ? fresh : fresh.concat([{ kind: "bot", level: "medium" }]);
  };
  let seats = seatsOf(game);
  const gameValues = stored("erebus.lobbyGameOptions", {});
  const values = () => (gameValues[game.game] = gameValues[game.game] && typeof gameValues[game.game] === "object" ? gameValues[game.game] : {});
  const opts = lobbyOptions();
  const form = h("form", { class: "card create", onsubmit: (e) => { e.preventDefault(); createGame(game, seats, opts, gameValues, seatsByGame); } });
  const gameSel = h("select", { id: "game", "aria-describedby": "game-help" });
  const gameHelp = h("p", { class: "opt-help", id: "game-help" });
  const gameRow = h("div", { class: "opt game-pick" }, h("label", { for: "game" }, t("lobby_game")), gameSel, gameHelp);
  const drawPicker = () => {
    gameSel.replaceChildren(...catalog.map((g) => h("option", { value: g.game, selected: g.game === game.game }, tr(`game_name_${g.game}`, g.title))));
    gameRow.hidden = catalog.length < 2;
  };
  const seatsBox = h("div", { class: "seats" });
  const countSel = h("select", { id: "nplayers", "aria-label": t("players") });
  const gameBox = h("fieldset", { class: "options game-options", id: "game-options" });
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
  const optRow = (id, label, help, control) => h("div", { class: "opt" },
    h("label", { for: id }, label), control, h("p", { class: "opt-help", id: `${id}-help` }, help));
  // One row per option of the game that belongs to this player count, each with its line.
  const drawGameOptions = () => {
    const n = seats.length;
    const shown = (game.options || []).filter((o) => shownOption(game, o, n, values()));
    const needed = new Set((game.options || []).filter((o) => o.requires).map((o) => o.requires[0]));
    gameBox.hidden = !shown.length;
    gameBox.replaceChildren(h("legend", {}, t("game_options")), ...shown.map((o) => {
      const id = `gopt-${o.key}`, v = values();
      v[o.key] = optValue(o, v[o.key], n);
      if (o.kind === "set") {
        const mine = choicesFor(o, n);
        const boxes = mine.map((c) => h("label", { class: "check", title: tr(optKey(game.game, o, `${c}_help`), "") },
          h("input", { type: "checkbox", value: c, checked: v[o.key].includes(c), "data-option": o.key,
            onchange: (e) => {
              v[o.key] = mine.filter((x) => (x === c ? e.target.checked : v[o.key].includes(x)));
              if (needed.has(o.key)) { // its readings appear or go; the focus stays on the box
                drawGameOptions();
                const again = gameBox.querySelector(`input[data-option="${o.key}"][value="${c}"]`);
                if (again) again.focus();
              }
            } }),
          " ", tr(optKey(game.game, o, c), c)));
        const lines = mine.filter((c) => hasKey(optKey(game.game, o, `${c}_help`)))
          .map((c) => h("li", {}, h("b", {}, tr(optKey(game.game, o, c), c)), ": ", t(optKey(game.game, o, `${c}_help`))));
        return h("div", { class: "opt", role: "group", "aria-labelledby": `${id}-label` },
          h("span", { class: "opt-label", id: `${id}-label` }, tr(optKey(game.game, o), o.key)),
          h("span", { class: "checks", id }, boxes),
          h("div", { class: "opt-help", id: `${id}-help` }, tr(optKey(game.game, o, "help"), ""), lines.length ? h("ul", { class: "choice-help" }, lines) : null));
      }
      if (o.kind === "flag") {
        const box = h("input", { type: "checkbox", id, checked: v[o.key], "aria-describedby": `${id}-help`, onchange: (e) => { v[o.key] = e.target.checked; } });
        return optRow(id, tr(optKey(game.game, o), o.key), tr(optKey(game.game, o, "help"), ""), box);
      }
      const help = h("span", {});
      const sayChoice = () => {
        const line = tr(optKey(game.game, o, `${v[o.key]}_help`), "");
        help.replaceChildren(tr(optKey(game.game, o, "help"), ""), line ? h("span", { class: "choice-line" }, " ", h("b", {}, tr(optKey(game.game, o, v[o.key]), v[o.key])), ": ", line) : "");
      };
      const sel = h("select", { id, "aria-describedby": `${id}-help` },
        o.choices.map((c) => h("option", { value: c, selected: c === v[o.key] }, tr(optKey(game.game, o, c), c))));
      sel.addEventListener("change", () => { v[o.key] = sel.value; sayChoice(); });
      sayChoice();
      return optRow(id, tr(optKey(game.game, o), o.key), help, sel);
    }));
  };
  const drawCount = () => {
    const counts = [];
    for (let n = game.min_players; n <= game.max_players; n++) counts.push(n);
    countSel.replaceChildren(...counts.map((n) => h("option", { value: n, selected: n === seats.length }, n === 1 ? t("players_solo") : String(n))));
  };
  const drawGameHelp = () => gameHelp.replaceChildren(tr(`game_help_${game.game}`, ""),
    game.web_board ? "" : h("span", { class: "warn-text", "data-testid": "no-board" }, " ", t("game_no_board")));
  const drawGame = () => {
    drawGameHelp();
    document.title = `${tr(`game_name_${game.game}`, game.title)} — erebus`;
    const title = $("header.topbar .title"); if (title) title.textContent = tr(`game_name_${game.game}`, game.title);
    drawCount(); drawSeats(); drawGameOptions();
  };
  gameSel.addEventListener("change", () => {
    game = catalog.find((g) => g.game === gameSel.value) || catalog[0];
    localStorage.setItem("erebus.lobbyGame", game.game);
    seats = seatsOf(game);
    drawGame();
  });
  countSel.addEventListener("change", () => {
    const n = Number(countSel.value);
    while (seats.length < n) seats.push({ kind: "bot", level: "medium" });
    seats.length = n;
    if (!seats.some((st) => st.kind === "human")) seats[0] = { kind: "human" };
    drawSeats(); drawGameOptions();
  });
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
  const hintVal = (v) => (v == null ? "auto" : v ? "on" : "off");
  const hintSel = h("select", { id: "opt-hints", "aria-describedby": "opt-hints-help" },
    ["auto", "on", "off"].map((k) => h("option", { value: k, selected: hintVal(opts.hints) === k }, t(`hints_${k}`))));
  hintSel.addEventListener("change", () => { opts.hints = hintSel.value === "auto" ? null : hintSel.value === "on"; });
  const seedIn = h("input", { id: "opt-seed", inputmode: "numeric", maxlength: 19, value: opts.seed, placeholder: t("seed_random"),
    "aria-describedby": "opt-seed-help", oninput: (e) => { opts.seed = e.target.value.trim(); } });
  const advanced = h("details", { class: "advanced", open: opts.seed ? true : null },
    h("summary", {}, t("advanced")),
    optRow("opt-seed", t("opt_seed"), t("opt_seed_help"), seedIn));
  form.append(h("h2", {}, t("new_game")),
    gameRow,
    h("label", { class: "inline" }, t("players"), " ", countSel),
    seatsBox, h("p", { class: "opt-help" }, t("seats_help")),
    gameBox,
    h("fieldset", { class: "options" }, h("legend", {}, t("options")),
      optRow("opt-grace", t("opt_grace"), t("opt_grace_help"), graceSel),
      optRow("opt-clock", t("opt_clock"), t("opt_clock_help"), clockSel),
      optRow("opt-autopilot", t("opt_autopilot"), t("opt_autopilot_help"), apSel),
      optRow("opt-hints", t("opt_hints"), t("opt_hints_help"), hintSel),
      advanced),
    h("button", { class: "btn primary", type: "submit" }, t("create")));
  const result = h("div", { id: "created" });
  const list = h("section", { class: "card", id: "mygames" });
  document.body.replaceChildren(
    h("header", { class: "topbar wrapbar" }, h("a", { href: "/", class: "brand" }, "erebus"), h("span", { class: "title" }, t("game_title")),
      h("span", { class: "spacer" }), langSwitcher(renderLobby)),
    h("main", { class: "lobby" }, h("p", { class: "intro" }, t("intro")), form, result, list));
  drawPicker();
  drawGame();
  renderMyGames();
  refreshMyGames();
  if (!CATALOG) {
    loadCatalog().then((list) => {
      if (!form.isConnected) return;
      const was = game.game;
      catalog = list;
      game = pick(catalog);
      drawPicker();
      if (game.game !== was) { seats = seatsOf(game); drawGame(); } else { drawGameOptions(); drawGameHelp(); }
    });
  }
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
      if (r.ok) for (const g of (await r.json()).games || []) found[g.id] = { status: g.status, rematch: g.rematch, game: g.game };
    }
    await Promise.all(games.filter((g) => !found[g.id] && !(g.seats || []).some((st) => st.token) && !g.token).slice(0, 10).map(async (g) => {
      const r = await fetch(`/api/games/${encodeURIComponent(g.id)}`);
      if (r.ok) { const m = parseJSON(await r.text()); found[g.id] = { status: m.is_over ? "over" : "active", seeded: m.seeded, game: m.game }; }
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
        st.game ? h("span", { class: "game-name", "data-testid": "game-name" }, tr(`game_name_${st.game}`, st.game)) : null,
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

async function createGame(game, seats, opts, gameValues, seatsByGame) {
  const bySeats = seatsByGame && !Array.isArray(seatsByGame) && typeof seatsByGame === "object" ? seatsByGame : {};
  bySeats[game.game] = seats;
  localStorage.setItem("erebus.lobbySeats", JSON.stringify(bySeats));
  localStorage.setItem("erebus.lobbyGame", game.game);
  localStorage.setItem("erebus.lobbyGameOptions", JSON.stringify(gameValues));
  localStorage.setItem("erebus.lobbyOptions", JSON.stringify({ ...opts, seed: "" })); // a seed is for one game
  const box = $("#created");
  const seed = (opts.seed || "").trim();
  // The seed travels as JSON digits (it may exceed 2^53, which a JS number would round).
  if (seed && (!/^\d{1,19}$/.test(seed) || BigInt(seed) >= 2n ** 63n)) {
    box.replaceChildren(h("p", { class: "warn-text", role: "alert" }, t("seed_invalid")));
    return;
  }
  const body = {
    game: game.game, players: seats.length,
    seats: seats.map((st) => {
      if (st.kind === "bot") return { kind: "bot", level: st.level || "medium" };
      const name = (st.name || "").trim().slice(0, NAME_MAX);
      return name ? { kind: "human", name } : { kind: "human" };
    }),
    options: { takeover_grace_s: opts.takeover_grace_s, clock_s: opts.clock_s, autopilot_level: opts.autopilot_level },
  };
  if (opts.hints != null) body.options.hints = opts.hints; // else the server's default
  const gameOptions = gameOptionsBody(game, seats.length, gameValues[game.game] || {});
  if (Object.keys(gameOptions).length) body.game_options = gameOptions;
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
    list.unshift({ id: g.id, game: game.game, created: Date.now(), seats: seatsOut, spectator_url: spec, token: humanSeat && humanSeat.token, seeded, status: "active" });
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

