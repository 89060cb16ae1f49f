/**
 * The shape of a fault: a named single deviation, the rule (rules.md) it breaks, and the hooks that make it.
 * Adding a fault touches its catalogue file (then `npm run docs`) and its probe in tests/mock/probes/.
 */
import type { RuleId } from '../../core/model/rules.ts';
import type { FaultHooks } from '../switchboard.ts';

export interface Fault {
  name: string;
  rule: RuleId;
  description: string;
  hooks: FaultHooks;
}

export const fault = (name: string, rule: RuleId, description: string, hooks: FaultHooks): Fault => ({
  name,
  rule,
  description,
  hooks,
});

/** Whether a raw query string has a parameter: how a forgotten check keys on "the sorted path" and the like. */
export const queryHas = (search: string, name: string): boolean =>
  search !== '' && new URLSearchParams(search).has(name);

/** Thrown by a fault that makes the server crash on odd input; the server's last-resort catch answers 500. */
export class FaultCrash extends RangeError {
  override name = 'RangeError';
}

/**
 * A per-list computation done once: a fault's own ordering of a precomputed list is built on the first
 * request that needs it and kept for as long as that list lives.
 */
export function memoised<K extends object, V>(compute: (key: K) => V): (key: K) => V {
  const cache = new WeakMap<K, V>();
  return (key) => {
    let value = cache.get(key);
    if (value === undefined) {
      value = compute(key);
      cache.set(key, value);
    }
    return value;
  };
}
