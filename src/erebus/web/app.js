// erebus web client: the entry module.  Plain ES modules, no build step, no
// dependencies.  Pages: the lobby at "/", a game at "/game/{id}?token=…" (also
// "?game={id}&token=…"), a replay at "/replay/{id}?step=k".  The shared parts live in
// core/; each game's board in its own folder (core/boards.js), chosen by the payload.

import { APP } from "./core/state.js";
import { loadLang, pickLang } from "./core/i18n.js";
import { renderLobby } from "./core/lobby.js";
import { startGame } from "./core/table.js";
import { startReplay } from "./core/replay.js";

async function main() {
  APP.lang = pickLang();
  await loadLang(APP.lang);
  const params = new URLSearchParams(location.search);
  const rp = /^\/replay\/([^/?#]+)/.exec(location.pathname);
  if (rp) { await startReplay(decodeURIComponent(rp[1])); return; }
  const m = /\/game\/([^/?#]+)/.exec(location.pathname);
  const id = m ? decodeURIComponent(m[1]) : params.get("game");
  if (id) await startGame(id, params.get("token"));
  else renderLobby();
}
main();
