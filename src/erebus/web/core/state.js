// The page's state that every module shares: who we are, the last payload, the log.
// A game's board keeps its own interface state (selection, hover…) in its folder.

export const APP = {
  lang: "en",
  board: null,        // the game's board module (core/boards.js), once known
  gameId: null,
  token: null,
  msg: null, view: null, legal: [], costs: [], seat: null, version: 0,
  events: [], chat: [], players: null,
  rawEvents: null, eventsVersion: null,
  ws: null, wsOk: false, pollTimer: null,
  showLog: true,
  logFilter: "all",   // "all" | "events" | "chat"
  wasMine: null,      // was it our turn at the last state (turn alerts on the change)
  checks: new Map(),  // "version|action" -> Promise<{legal, reason}> from POST /check
};

export function isMyTurn() { return APP.legal.length > 0; }
