// The map's and personal boards' interface state (what a hovered log line names,
// which other boards are folded open) and the payload questions they ask.

import { APP } from "../core/state.js";

export const UI = {
  logHl: null,          // {anchors:[…], regions:[…], seat} while a log line is hovered
  openBoards: new Set(), // other seats whose full boards are unfolded on a phone
  scrolledTo: null,     // the fleet anchor the phone's map was last scrolled to
};

export function seatOf(i) { return APP.view.seats[i]; }
// The seat that decides now (a pending voyage decision or the turn), or null.
export function actingSeat() {
  const v = APP.view;
  if (!v || v.over) return null;
  if (v.decision && v.decision.seat != null) return v.decision.seat;
  return v.current ?? null;
}
