// The legal actions of the seat to move, grouped the way a player chooses them: an
// action space, then the crew that goes there, then what is left to say (the card,
// the upgrade tile, the food lowered, the resource given, the resources collected,
// the officer role a crew member plays, the Survival deposit).  Pure functions of a
// list of action objects (APP.legal), so the placement never shows hundreds of rows.

export const CREW_KINDS = ["captain", "carpenter", "scientist", "sailors", "inuit"];
// The order in which the fields of a "take" are asked for: the card or tile first (a
// hunting card's prey sets the crew it needs), then the crew, then the rest.
export const STEPS = ["card", "tile", "slot", "crew", "food", "cans", "resource", "take", "proxy", "deposit"];

// A crew as a key ("1,0,0,2,0"): missing kinds are 0.
export function crewKey(crew) { return CREW_KINDS.map((k) => (crew && crew[k]) || 0).join(","); }
export function crewSize(crew) { return CREW_KINDS.reduce((n, k) => n + ((crew && crew[k]) || 0), 0); }
// A field's value as a key (objects by their sorted entries, so {"wood":1} is stable).
export function valueKey(v) {
  if (v == null) return "";
  if (typeof v === "object") return JSON.stringify(Object.keys(v).sort().map((k) => [k, v[k]]));
  return JSON.stringify(v);
}

// "take" actions by space id, in the order they first appear.
export function takesBySpace(legal) {
  const by = new Map();
  for (const a of legal) {
    if (a.type !== "take") continue;
    if (!by.has(a.space)) by.set(a.space, []);
    by.get(a.space).push(a);
  }
  return by;
}

const officers = (c) => (c.captain || 0) + (c.carpenter || 0) + (c.scientist || 0);
// The distinct crews among ``acts``: [{key, value, acts}], smallest crew first, then the
// ones that spare the officers (sailors and Inuit before a second officer).
export function crewOptions(acts) {
  const by = new Map();
  for (const a of acts) {
    const k = crewKey(a.crew);
    if (!by.has(k)) by.set(k, { key: k, value: a.crew || {}, acts: [] });
    by.get(k).acts.push(a);
  }
  return [...by.values()].sort((x, y) => crewSize(x.value) - crewSize(y.value) || officers(x.value) - officers(y.value)
    || (x.key < y.key ? 1 : x.key > y.key ? -1 : 0));
}
// A field's key in an action (the crew by crewKey).
export function fieldKey(a, field) { return field === "crew" ? crewKey(a.crew) : valueKey(a[field]); }

// The distinct values of ``field`` among ``acts`` (undefined counts as one value).
export function fieldValues(acts, field) {
  if (field === "crew") return crewOptions(acts);
  const by = new Map();
  for (const a of acts) {
    const k = valueKey(a[field]);
    if (!by.has(k)) by.set(k, { key: k, value: a[field], acts: [] });
    by.get(k).acts.push(a);
  }
  const out = [...by.values()];
  if (field === "food") out.sort((x, y) => (x.value ?? 0) - (y.value ?? 0));
  return out;
}

// Narrow ``acts`` by the picks made so far ({field: key}); then the next field (in
// STEPS order) that still varies, with its options.  {acts, field, options} — field
// null when the picks (and the fields that never vary) leave exactly one action.
export function nextStep(acts, picks) {
  let rest = acts;
  for (const f of STEPS) {
    if (picks[f] === undefined) continue;
    rest = rest.filter((a) => fieldKey(a, f) === picks[f]);
  }
  for (const f of STEPS) {
    if (picks[f] !== undefined) continue;
    const opts = fieldValues(rest, f);
    if (opts.length > 1) return { acts: rest, field: f, options: opts };
  }
  return { acts: rest, field: null, options: [] };
}

// The non-"take" decision of the seat to move: its kind and options, or null.
export function pendingDecision(legal) {
  const dec = legal.filter((a) => a.type !== "take" && a.type !== "pass");
  if (!dec.length) return null;
  return { kind: dec[0].type, acts: dec.filter((a) => a.type === dec[0].type) };
}
