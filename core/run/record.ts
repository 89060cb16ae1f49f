/**
 * How a check ends: whatever its body returned or threw becomes its one record (core/model/verdict.ts). A
 * violation of the check's own rule is a fail (advisory for an ADVISORY rule); data that changed under it, an
 * exhausted budget, a target that stopped answering or a crash of the check's own code make it inconclusive, with
 * the cause; a missing optional input means it did not run.
 */
import { BudgetExhausted, TargetGone, TimeBudgetSpent, TransportError } from '../client/http.ts';
import { type RuleId, rule } from '../model/rules.ts';
import { redact } from '../model/secrets.ts';
import {
  type Cause,
  type CheckRecord,
  type NotRunCause,
  notRunRecord,
  RuleViolation,
  reproductionOf,
  type Verdict,
} from '../model/verdict.ts';
import { DataChanged } from './changes.ts';
import { type CheckContext, NotRun } from './check.ts';
import { Unusable } from './walk.ts';

/** What a check's body left behind: nothing (it passed) or what it threw. */
type Ending = { threw: false } | { threw: true; error: unknown };

/** Thrown when a check reports a violation of a rule other than its own: a bug of the suite, never a verdict. */
export class WrongRule extends Error {
  constructor(check: RuleId, violated: RuleId) {
    super(`a check of ${check} reported a violation of ${violated}: a check reports only its own rule`);
    this.name = 'WrongRule';
  }
}

const base = (ctx: Pick<CheckContext, 'rule' | 'title' | 'notes' | 'seeded' | 'doors'>, requests: number) => ({
  rule: ctx.rule,
  check: ctx.title,
  reproduction: [] as string[],
  requests,
  notes: [...ctx.notes].map(redact),
  ...(ctx.seeded ? { seeded: true as const } : {}),
  ...(ctx.doors ? { doors: ctx.doors } : {}),
});

/** The record of a check that did not start: an optional input is missing, or the run left it out. */
export function notRun(
  ctx: Pick<CheckContext, 'rule' | 'title' | 'notes' | 'seeded'>,
  cause: NotRunCause,
  reason: string,
): CheckRecord {
  const { seeded, ...plain } = base(ctx, 0);
  const record = notRunRecord({ rule: plain.rule, check: plain.check, notes: plain.notes }, cause, reason);
  return seeded ? { ...record, seeded } : record;
}

/**
 * What a check's body threw, as its end reads it: an unusable read is a violation of the check's own rule; a violation
 * of another rule is a bug of the suite (WrongRule), never that rule's failure. settle and recordOf both ask here.
 */
export function asOwnViolation(error: unknown, rule: RuleId): unknown {
  const thrown = error instanceof Unusable ? new RuleViolation(error.violation) : error;
  if (thrown instanceof RuleViolation && thrown.violation.rule !== rule)
    return new WrongRule(rule, thrown.violation.rule);
  return thrown;
}

/** The record of a check that ran, from how its body ended. */
export function recordOf(
  ctx: Pick<CheckContext, 'rule' | 'title' | 'notes' | 'unexercised' | 'seeded' | 'doors'> & { beyond?: string },
  ending: Ending,
  requests: number,
): CheckRecord {
  const done = base(ctx, requests);
  if (ending.threw && ending.error instanceof NotRun) {
    return { ...notRun(ctx, ending.error.kind, ending.error.message), requests };
  }
  if (ending.threw && ending.error instanceof TimeBudgetSpent) {
    return { ...notRun(ctx, 'time budget', `${ending.error.message} after ${requests} request(s)`), requests };
  }
  if (!ending.threw && ctx.beyond) {
    const why = [ctx.beyond, ...ctx.unexercised].join('; ');
    return { ...done, verdict: 'not exercised', cause: 'depth', reason: redact(why) };
  }
  if (!ending.threw && ctx.unexercised.length > 0) {
    return { ...done, verdict: 'not exercised', cause: 'data', reason: redact(ctx.unexercised.join('; ')) };
  }
  if (!ending.threw) return { ...done, verdict: 'pass' };
  const error = asOwnViolation(ending.error, ctx.rule);
  if (error instanceof RuleViolation) {
    const v = error.violation;
    const verdict: Verdict = rule(ctx.rule).level === 'ADVISORY' ? 'advisory' : 'fail';
    return {
      ...done,
      verdict,
      expected: redact(v.expected),
      received: redact(v.received),
      ...(v.derivedFrom?.length
        ? { derivedFrom: v.derivedFrom.map((d) => ({ rule: d.rule, why: redact(d.why) })) }
        : {}),
      ...(error.counterexample ? { counterexample: redact(error.counterexample) } : {}),
      ...(error.replay ? { replay: redact(error.replay) } : {}),
      ...(error.drawn ? { drawnCase: true as const } : {}),
      reproduction: reproductionOf(v),
    };
  }
  if (error instanceof DataChanged) return inconclusive(done, 'data changed', `${error.message} (twice)`);
  if (error instanceof BudgetExhausted) return inconclusive(done, 'budget', error.message);
  if (error instanceof TargetGone) return inconclusive(done, 'target gone', error.message);
  if (error instanceof TransportError) return inconclusive(done, 'transport', error.message);
  return inconclusive(done, 'crash', crashReason(error));
}

function inconclusive(done: ReturnType<typeof base>, cause: Cause, reason: string): CheckRecord {
  return { ...done, verdict: 'inconclusive', cause, reason: redact(reason) };
}

function crashReason(error: unknown): string {
  const what = error instanceof Error ? `${error.name}: ${error.message.split('\n')[0]}` : String(error);
  return `the check failed in its own code, so it could not judge (${what})`;
}
