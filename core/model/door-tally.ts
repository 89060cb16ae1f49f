/**
 * How many candidate inputs the door checks tried, by where they came from (core/model/doors.ts): what
 * conformance.json says per rule (its check records' `doors`, the rule row's sum) and the rule matrix shows in one line.
 */

/** Where a candidate comes from: what the target showed, the collections file or OpenAPI document, a vocabulary, an operator. */
const DOOR_SOURCES = ['target', 'collections', 'vocabulary', 'user vocabulary', 'operators'] as const;
export type DoorSource = (typeof DOOR_SOURCES)[number];

/** How many candidate inputs were tried, by source: what conformance.json and the rule matrix show per rule. */
export type DoorTally = Partial<Record<DoorSource, number>>;

/** "doors tried: 412 from the target, 260 from the vocabulary" (the sources in the order of DOOR_SOURCES). */
export function describeTally(tally: DoorTally): string {
  const parts = DOOR_SOURCES.filter((s) => (tally[s] ?? 0) > 0).map((s) => `${tally[s]} from ${sourceWords(s)}`);
  return `doors tried: ${parts.length ? parts.join(', ') : 'none'}`;
}

const sourceWords = (s: DoorSource) =>
  s === 'collections' ? 'the collections' : s === 'operators' ? 'the operators' : `the ${s}`;

/** Adds `more` to `tally`. */
export function addTally(tally: DoorTally, more: DoorTally): DoorTally {
  const out: DoorTally = { ...tally };
  for (const s of DOOR_SOURCES) if (more[s]) out[s] = (out[s] ?? 0) + (more[s] ?? 0);
  return out;
}
