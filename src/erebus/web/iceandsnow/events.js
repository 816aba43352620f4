// Through Ice and Snow's events in the player's language ("isev_<Type>" keys), with
// anchors, regions, sections and cards by their names, and what each line names on
// the map (a hovered line lights it up).

import { APP } from "../core/state.js";
import { t, tr, hasKey } from "../core/i18n.js";
import { seatName } from "../core/seats.js";
import { MAP, anchorName, regionName, sectionName } from "./mapdata.js";
import { mythsEventText } from "./myths.js";
import { walkingEventText, WALKING_REASONS } from "./walking.js";

// Bookkeeping the personal boards already show; the log keeps what happened.
export const LOG_SKIP = new Set(["InvestorChosen", "CartographyChosen"]);

export function normEvent(e) { return e; }

const CREW = ["captain", "carpenter", "scientist", "sailors", "inuit"];
// A crew ([1,0,0,2,1] or {captain:1, sailors:2}) in words: "captain + 2 sailors + Inuk".
export function crewWords(crew) {
  const n = Array.isArray(crew) ? crew : CREW.map((k) => (crew && crew[k]) || 0);
  const parts = [];
  n.forEach((k, i) => { if (k === 1) parts.push(t(`is_crew1_${CREW[i]}`)); else if (k > 1) parts.push(t(`is_crewn_${CREW[i]}`, { n: k })); });
  return parts.length ? parts.join(" + ") : t("is_nobody");
}
export function resWord(r) { return tr(`is_res_${r}`, r); }
export function trackWord(k) { return tr(`is_track_${k}`, k); }

function content() { const M = MAP(); return M ? M.content : null; }
function cardName(id) {
  const c = content(); if (!c) return String(id);
  for (const deck of ["species", "hunting", "whales", "dual"]) {
    const f = (c.cards[deck] || []).find((x) => x.id === id);
    if (f) return f.name;
  }
  return String(id).replace(/_/g, " ");
}
function speciesName(sp) {
  const c = content();
  const f = c && [...c.cards.species, ...c.cards.dual].find((x) => x.species === sp);
  return f ? f.name : String(sp).replace(/_/g, " ");
}
export function eventName(n) { const c = content(); const f = c && c.cards.events.find((x) => x.number === Number(n)); return f ? f.name : `#${n}`; }
export function upgradeName(n) { const c = content(); const f = c && c.cards.upgrades.find((x) => x.number === Number(n)); return f ? f.name : `#${n}`; }
export function investorName(id) { const c = content(); const f = c && c.cards.investors.find((x) => x.id === id); return f ? f.name : String(id); }
export function spaceName(id) {
  const c = content();
  const base = (c && c.space_labels && c.space_labels[id]) || String(id).replace(/_/g, " ");
  const m = /^(exchange|collect|vow)_(\w+)$/.exec(id);
  const label = tr(`iact_space_${id}`, base);
  return m && label === base ? `${base} (${t(`is_col_${m[2]}`)})` : label;
}

// The engine's reason texts ("attrition", "first Narwhal", "upgrade 3", an event card's
// name…) in words of the page's language; a text we do not know stays as it is.
const REASONS = ["Inuit consulted", "attrition", "open voyage", "coastal voyage", "fuel 8–10", "fuel 0–3", "feeding", "cabin", "cabin food", "hunt",
  "ice fishing", "explore", "dog eaten", "sailor lost", "sailor lost to hunger", "death", "death (health)", "death (morale)", "mutiny",
  "visit the Inuit", "species eaten", "fuel overflow", "recycle", "hire an Inuk", "towing", "towed", "improve the sled", "experiment",
  "upgrade space", "galley", "shelter", "investor bonus", "build a cabin", "exchange", "collect", "eaten in a food shortage",
  "survival deposit", "boiler", "mapping", "missing food", "document methods", "vow of silence", "trace the map", "lab research",
  "laboratory", "most dynamite", "took Lead", "solo expedition", "food shortage", "start", "species majority", "species cards",
  "cabin majority", "health", "morale", "investor", "cartography", "shelter majority", "final anchor", "health overflow", "morale overflow",
  "creature", "death (curse)", "great discovery", ...WALKING_REASONS];
export const reasonKey = (r) => "is_r_" + r.toLowerCase().replace(/[–-]/g, "_").replace(/[^a-z0-9_]+/g, "_").replace(/_+/g, "_").replace(/^_|_$/g, "");
const KNOWN = new Set(REASONS);
export function reasonText(r) {
  if (r == null) return "";
  if (KNOWN.has(r) && hasKey(reasonKey(r))) return t(reasonKey(r));
  let m;
  if ((m = /^first (.+)$/.exec(r))) return t("is_r_first", { species: m[1] });
  if ((m = /^upgrade (\d+)$/.exec(r))) return upgradeName(m[1]);
  if ((m = /^event (\d+)$/.exec(r))) return eventName(m[1]);
  if ((m = /^investor (.+)$/.exec(r))) return `${t("is_r_investor")} (${investorName(m[1])})`;
  return r;
}

const PENALTIES = { "scurvy": "scurvy", "death": "death", "mutiny": "mutiny",
  "scurvy (cancelled by the Treatment Room)": "scurvy_cancelled", "mutiny (cancelled by the Saloon)": "mutiny_cancelled",
  "death (curse)": "death_curse", "scurvy (curse)": "scurvy_curse", "scurvy (curse; cancelled by the Treatment Room)": "scurvy_curse_cancelled" };
const GAME_OVER = { "nobody has any dynamite to lead the expedition": "no_dynamite", "nobody can pay the icebreaking dynamite": "no_icebreak",
  "there is not enough fuel for all ships to sail": "no_fuel", "your prestige fell to 0": "prestige" };
export function overReason(r) { const k = GAME_OVER[r]; return k ? t(`is_over_${k}`) : r || ""; }
const COMPASS = { N: "north", S: "south", W: "west", E: "east", pole: "pole" };
const PROGRESS = { "search progress": "search", "cabin objective met": "cabin", "the compass is magnetised": "magnetised",
  "the lost expedition is found": "found", "the magnetic north pole is discovered": "pole" };

function signed(n) { return n > 0 ? `+${n}` : String(n); }

export function eventText(e) {
  const p = { player: e.seat != null ? seatName(e.seat) : "" };
  const k = (key, extra = {}) => {
    const full = `isev_${key}`;
    if (!hasKey(full)) return e.text || e.type;
    const out = t(full, { ...p, ...extra });
    return /\{\w+\}/.test(out) ? e.text || e.type : out;
  };
  switch (e.type) {
    case "ScoreChanged": return k("ScoreChanged", { delta: signed(e.delta), reason: reasonText(e.reason) });
    case "InvestorChosen": case "CartographyChosen": case "Passed": case "RoundEnded": return k(e.type, { round: e.round });
    case "InvestorRevealed": return k(e.type, { card: investorName(e.card) });
    case "CartographyRevealed": return k(e.type, { regions: (e.regions || []).map(regionName).join(", ") });
    case "EventCardsSeen": return k(e.type, { count: e.count });
    case "RoundStarted": return k(e.type, { round: e.round, leader: e.leader != null ? seatName(e.leader) : "" });
    case "LeaderChanged": return k(e.type, { reason: reasonText(e.reason) });
    case "SectionPlaced": return k(e.type, { section: sectionName(e.section), side: e.side });
    case "DestinationChosen": return k(e.type, { anchor: anchorName(e.to) });
    case "DynamitePlaced": return k(e.type, { anchor: anchorName(e.anchor), n: e.count });
    case "TrackChanged": return k(e.type, { track: trackWord(e.track), old: e.old, new: e.new, reason: reasonText(e.reason) });
    case "ResourceChanged": return k(e.type, { resource: resWord(e.resource), delta: signed(e.delta), reason: reasonText(e.reason) });
    case "AttritionPenalty": return k(e.type, { penalty: tr(`is_pen_${PENALTIES[e.penalty] || ""}`, e.penalty) });
    case "CrewToInfirmary": return k(e.type, { crew: crewWords(e.crew) });
    case "CrewLost": return k(e.type, { kind: tr(`is_crew1_${e.kind === "sailor" ? "sailors" : e.kind}`, e.kind), reason: reasonText(e.reason) });
    case "VoyageChosen": return k(e.voyage === "walk" || e.voyage === "march" ? `VoyageChosen_${e.voyage}` : e.voyage === "coastal" ? "VoyageChosen_coastal" : "VoyageChosen_open");
    case "FleetMoved": return k(e.type, { anchor: anchorName(e.to) });
    case "Towing": return k(e.type, { towed: (e.towed || []).map(seatName).join(", ") || t("is_nobody"), towing: (e.towing || []).map(seatName).join(", ") || t("is_nobody"), n: e.missing });
    case "RegionMapped": return k(e.type, { region: regionName(e.region) });
    case "EventRevealed": return k(e.type, { number: e.number, name: eventName(e.number) });
    case "CardsRevealed": return k(e.deck === "species" ? "CardsRevealed_species" : "CardsRevealed_hunting", { cards: (e.cards || []).map(cardName).join(", ") });
    case "CrewPlaced": return k(e.type, { space: spaceName(e.space), crew: crewWords(e.crew) });
    case "CardTaken": return k(e.deck === "species" ? "CardTaken_species" : "CardTaken_hunting", { card: cardName(e.card) });
    case "SpeciesDiscovered": return k(e.type, { species: speciesName(e.species) });
    case "UpgradeBuilt": return k(e.type, { upgrade: upgradeName(e.tile) });
    case "CabinBuilt": return k(e.type, { anchor: anchorName(e.anchor), food: e.food });
    case "ShelterBuilt": return k(e.type, { anchor: anchorName(e.anchor) });
    case "FoodShortage": return k(e.type, { n: e.missing });
    case "SpeciesEaten": return k(e.type, { card: cardName(e.card) });
    case "CompassDrawn": return k(e.type, { dir: t(`is_compass_${COMPASS[e.card] || "pole"}`) });
    case "ScenarioProgress": {
      const w = PROGRESS[e.what];
      return w ? k(`ScenarioProgress_${w}`, { value: e.value }) : e.text || `${e.what}: ${e.value}`;
    }
    case "GameOver": {
      if (e.outcome === "lost") return k(APP.view && APP.view.players === 1 ? "GameOver_solo_lost" : "GameOver_lost", { reason: overReason(e.reason) });
      if (e.outcome === "won") return k("GameOver_won");
      return k("GameOver");
    }
    case "CreatureMoved": case "CreatureRevealed": case "CreatureGone": case "InuitHeld": case "CurseChanged": return mythsEventText(e, k);
    case "ShipsAbandoned": case "UpgradeDropped": case "CanOpened": case "SickSailor": return walkingEventText(e, k);
    case "ExplorerChosen": return k(e.type, { explorer: e.explorer });
    case "SailorGained": return k(e.type, { reason: reasonText(e.reason) });
    case "TopCardLooked": return k(e.type, { deck: tr(`is_lookdeck_${e.deck}`, e.deck) });
    case "RouteForced": return k(e.type, { anchor: anchorName(e.to) });
    case "DiseaseRevealed": return k(e.type, { card: e.card, officer: tr(`is_crew1_${e.officer}`, e.officer) });
    case "TreatmentRevealed": return k(e.type, { card: e.card });
    case "CrewIll": return k(e.ill ? "CrewIll" : "CrewIll_healed", { crew: crewWords(e.crew), card: e.card });
    case "InuitSettled": return k(e.type, { anchors: (e.anchors || []).map(anchorName).join(", ") });
    default: return e.text || e.type;
  }
}

// What a log line names on the map: anchors, regions (and the seat).
export function eventRefs(e) {
  switch (e.type) {
    case "DestinationChosen": case "FleetMoved": return { anchors: [e.to] };
    case "DynamitePlaced": case "CabinBuilt": case "ShelterBuilt": return { anchors: [e.anchor] };
    case "RegionMapped": return { regions: [e.region] };
    case "RouteForced": return { anchors: [e.to] };
    case "InuitSettled": return { anchors: e.anchors || [] };
    case "CartographyRevealed": return { regions: e.regions || [] };
    default: return null;
  }
}
