/**
 * What a check works with, handed to its body by `settle` (fixtures/test.ts): the target, the worker's client, the
 * rule its title names, its title (which seeds its properties and names it in replay lines) and its notes — what a
 * reader of its verdict should know besides (a set read in part, an empty listing compared).
 */

import type { ApiClient } from '../client/http.ts';
import type { Exchange } from '../model/exchange.ts';
import type { RuleId } from '../model/rules.ts';
import type { Target } from '../model/target.ts';

export interface CheckContext {
  target: Target;
  api: ApiClient;
  /** The rule the check's title starts with: the rule its violations must name. */
  rule: RuleId;
  /** The check's title. */
  title: string;
  /** Notes for the check's record, each once. */
  notes: Set<string>;
  /** Every answer the check read (those of memoised sets included): what the data-changed judgment asks again. */
  reads: Exchange[];
}

/** A context outside a Playwright run (unit tests, scripts): its own notes, the rule and title given. */
export function checkContext(target: Target, api: ApiClient, rule: RuleId, title: string = rule): CheckContext {
  return { target, api, rule, title, notes: new Set(), reads: [] };
}
