// The boards the client can draw, by the payload's ``web_board`` name (the game's
// folder under web/).  A game adds its folder with a board.js and one line here.
//
// A board module exports: load() (its assets), prepare() (derive what drawing needs
// from APP.view), roundText(), refresh() (the board), renderTable({sun, under,
// players}), playerBoards(), supplyPanel(), onState() / onSend() (its selection),
// onKey(e, tag), normEvent(e), eventText(e), eventRefs(e), highlight(refs), LOG_SKIP;
// optionally title() (the game's name for the top bar, else t("game_title")) and
// keysHelp() (the "?" button's text, else t("keys_help")) and overHeadline() (who won,
// or how the game was lost, for the replay's last step; else the first of the ranking).

const BOARDS = {
  northwest: () => import("../northwest/board.js"),
  iceandsnow: () => import("../iceandsnow/board.js"),
};

export async function loadBoard(name) {
  const load = Object.hasOwn(BOARDS, name) ? BOARDS[name] : null;
  if (!load) throw new Error(`no board for the game ${JSON.stringify(name)}`);
  const board = await load();
  await board.load();
  return board;
}
