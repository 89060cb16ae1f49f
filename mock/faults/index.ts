/**
 * The fault switchboard: named single deviations from the spec, each tied to the rule (rules.md) it breaks.
 * Faults are what real implementations get wrong; a conformance suite run against the mock with one fault
 * on must fail exactly that rule. Each fault acts only through hooks (switchboard.ts) at fixed pipeline points;
 * its probe, the HTTP exchange that shows the deviation, is a test (tests/mock/probes/).
 */

import { compileHooks, type Switchboard } from '../switchboard.ts';
import { AUTH_FAULTS } from './auth.ts';
import { AUTH_HEADER_FAULTS } from './auth-header.ts';
import { AUTHORIZE_FAULTS } from './authorize.ts';
import { CAP_FAULTS } from './cap.ts';
import { DOOR_FAULTS } from './doors.ts';
import { ENVELOPE_FAULTS } from './envelope.ts';
import type { Fault } from './fault.ts';
import { FILTER_SORT_FAULTS } from './filter-sort.ts';
import { INPUT_FAULTS } from './input.ts';
import { KEY_FAULTS } from './keys.ts';
import { LIVE_FAULTS } from './live.ts';
import { METHOD_FAULTS } from './methods.ts';
import { PAGE_FAULTS } from './pages.ts';
import { PATH_FAULTS } from './paths.ts';
import { REFUSAL_FAULTS } from './refusals.ts';
import { SHARED_STATE_FAULTS } from './shared-state.ts';
import { SPELLING_FAULTS } from './spellings.ts';

export { type Fault, FaultCrash } from './fault.ts';

/** The catalogue, in the order hooks run: the listing's faults first, then those of authentication and authorization. */
export const FAULTS: readonly Fault[] = [
  ...ENVELOPE_FAULTS,
  ...PAGE_FAULTS,
  ...CAP_FAULTS,
  ...FILTER_SORT_FAULTS,
  ...LIVE_FAULTS,
  ...INPUT_FAULTS,
  ...AUTH_FAULTS,
  ...AUTH_HEADER_FAULTS,
  ...AUTHORIZE_FAULTS,
  ...KEY_FAULTS,
  ...PATH_FAULTS,
  ...REFUSAL_FAULTS,
  ...METHOD_FAULTS,
  ...SPELLING_FAULTS,
  ...DOOR_FAULTS,
  ...SHARED_STATE_FAULTS,
];

const FAULT_NAMES: readonly string[] = FAULTS.map((f) => f.name);

export class FaultError extends Error {
  override name = 'FaultError';
}

/** The faults named, in catalogue order. Throws FaultError naming an unknown fault and listing the known ones. */
export function selectFaults(names: readonly string[] = []): Fault[] {
  for (const name of names) {
    if (!FAULT_NAMES.includes(name))
      throw new FaultError(`unknown fault "${name}"; faults are: ${FAULT_NAMES.join(', ')}`);
  }
  return FAULTS.filter((f) => names.includes(f.name));
}

/**
 * Fault names as given, by the collection each is scoped to: `NAME` ('' — payments and every other path), or
 * `NAME@COLLECTION` (that collection's requests only). A fault that acts at start on every request (the keys issued)
 * cannot be scoped. Throws FaultError for an unknown fault or collection.
 */
export function scopedFaults(names: readonly string[], collections: readonly string[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const given of names) {
    const at = given.lastIndexOf('@');
    const [name, collection] = at < 0 ? [given, ''] : [given.slice(0, at), given.slice(at + 1)];
    const [found] = selectFaults([name]);
    if (collection !== '' && !collections.includes(collection)) {
      throw new FaultError(
        `unknown collection "${collection}" in fault "${given}"; the mock serves: ${collections.join(', ')}`,
      );
    }
    if (collection !== '' && found?.hooks.keys) {
      throw new FaultError(
        `fault "${name}" acts on the keys the mock issues, for every path: it cannot be scoped to ${collection}`,
      );
    }
    out.set(collection, [...(out.get(collection) ?? []), name]);
  }
  return out;
}

export function switchboard(names: readonly string[] = []): Switchboard {
  return compileHooks(selectFaults(names).map((f) => f.hooks));
}
