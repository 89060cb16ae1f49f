/**
 * The fault switchboard: named single deviations from the spec, each tied to the rule (rules.md) it breaks.
 * Faults are what real implementations get wrong; a conformance suite run against the mock with one fault
 * on must fail exactly that rule. Each fault acts only through hooks (hooks.ts) at fixed pipeline points.
 */

import { ACCESS_FAULTS } from './faults/access.ts';
import type { Fault } from './faults/fault.ts';
import { LISTING_FAULTS } from './faults/listing.ts';
import { compileHooks, type Switchboard } from './hooks.ts';

export { type Fault, FaultCrash } from './faults/fault.ts';

/** The catalogue, in the order hooks run: listing faults (faults/listing.ts), then access faults (faults/access.ts). */
export const FAULTS: readonly Fault[] = [...LISTING_FAULTS, ...ACCESS_FAULTS];

export const FAULT_NAMES: readonly string[] = FAULTS.map((f) => f.name);

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

export function switchboard(names: readonly string[] = []): Switchboard {
  return compileHooks(selectFaults(names).map((f) => f.hooks));
}
