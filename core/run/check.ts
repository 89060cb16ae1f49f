/**
 * What a check works with, handed to its body by `settle` (fixtures/test.ts): the target, the worker's client, the
 * rule its title names, its title (which seeds its properties and names it in replay lines), the run's depth, and its
 * notes — what a reader of its verdict should know besides (a set read in part, an empty listing compared).
 */

import type { ApiClient } from '../client/http.ts';
import type { DepthName, DepthProfile } from '../model/depth.ts';
import type { DoorTally } from '../model/door-tally.ts';
import type { Shown } from '../model/doors.ts';
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
  /** Why the target's data could not show the check's rule: a check that passes with any is "not exercised". */
  unexercised: string[];
  /** Whether it drew cases from the run's seed (a property, core/run/property.ts): its record says so. */
  seeded?: boolean;
  /**
   * What every answer of the run so far showed that a client could send back (the watcher's, in every process), and
   * the forms of request it answered (core/run/watch.ts formOf): the door checks' names. Absent where nothing is watched.
   */
  doorFactsOfRun?: () => { shown: Shown[]; forms: Set<string> };
  /** A door check's candidate inputs tried, by source (core/run/doors.ts): its record says so. */
  doors?: DoorTally;
  /** How deep the run searches (--depth): what the check may spend (core/model/depth.ts). The target's, once. */
  depth: DepthProfile;
  /** Why the run's depth cannot judge the check's rule soundly (`beyondDepth`): its verdict is "not exercised". */
  beyond?: string;
  /**
   * Present on a check's second attempt, after the data moved under its first (fixtures/test.ts): walks read on
   * through a change, the first one kept in `moved`, and only a violation no growth explains stands.
   */
  growth?: { moved?: Error };
}

/** A context outside a Playwright run (unit tests, scripts): its own notes, the rule and title given. */
export function checkContext(target: Target, api: ApiClient, rule: RuleId, title: string = rule): CheckContext {
  return { target, api, rule, title, depth: target.depth, notes: new Set(), reads: [], unexercised: [] };
}

/**
 * Thrown by a check that cannot start: an input it needs is not configured (named by its variable), or a listing it
 * reads is unreadable, which another rule's check judges (`blocked`). Its record says "not run" with the reason.
 */
export class NotRun extends Error {
  constructor(
    readonly kind: 'needs input' | 'blocked',
    reason: string,
  ) {
    super(reason);
    this.name = 'NotRun';
  }
}

/**
 * Says that the target's data could not show the rule this check judges (why, in one sentence: "7 records; the cap
 * needs more than 100"). A pass resting on no evidence is no pass: the check's verdict becomes "not exercised".
 */
export function notExercised(ctx: Pick<CheckContext, 'unexercised'>, reason: string): void {
  if (!ctx.unexercised.includes(reason)) ctx.unexercised.push(reason);
}

/**
 * Says that the run's depth cannot judge the check's rule soundly — a walk quick has no budget for — and why: the check
 * sends nothing more, and unless it found a violation its verdict is "not exercised (quick)", never a bare pass.
 * Returns whether the run is that shallow (`shallow`: quick unless told), so that a check stops in one call:
 *
 *   if (beyondDepth(ctx, 'a walk at every limit of the whole set takes about 100 requests')) return;
 */
export function beyondDepth(
  ctx: Pick<CheckContext, 'depth' | 'beyond'>,
  reason: string,
  shallow: readonly DepthName[] = ['quick'],
): boolean {
  if (!shallow.includes(ctx.depth.name)) return false;
  ctx.beyond = ctx.beyond ? `${ctx.beyond}; ${reason}` : `at depth ${ctx.depth.name}: ${reason}`;
  return true;
}
