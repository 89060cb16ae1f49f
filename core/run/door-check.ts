/**
 * One door check (specs/doors.spec.ts): the doors of its rule explored (core/run/doors.ts), every answer read as the
 * watcher reads it (core/run/watch.ts: records learned on the canonical listings, what each answer carried), and
 * judged by checks/doors.ts: a refused request opened, an answer over the cap, a record
 * shown where the request may not see it, a key given back. The first violation ends the check (the one with the
 * fewest inputs added: the door itself, once batches were split), naming how many more there were.
 */
import { capViolation, crossings, openedViolation } from '../../checks/doors.ts';
import { keyLeakViolations, recordsShown } from '../../checks/provenance.ts';
import type { DoorCase } from '../model/doors.ts';
import type { Exchange } from '../model/exchange.ts';
import { MAX_LIMIT, readEnvelope } from '../model/listing.ts';
import type { WatchedAnswer } from '../model/provenance.ts';
import { RuleViolation, type Violation } from '../model/verdict.ts';
import { type CheckContext, NotRun, notExercised } from './check.ts';
import { type DoorRun, exploreDoors } from './doors.ts';
import { AnswerWatch } from './watch.ts';

/**
 * Every answer of the exploration as the watcher keeps it, by the exchange it read. A merchant id an operator spelled
 * is judged as the merchant it spells (a lookup may fold it to that merchant, and then its rules hold there).
 */
function watched(ctx: CheckContext, run: DoorRun): Map<Exchange, WatchedAnswer> {
  const watch = new AnswerWatch(ctx.target, 'doors');
  const spelled = new Map(run.cases.filter((c) => c.added.segment).map((c) => [c.exchange, c.base.case.merchant]));
  const learned = new Set(run.learned);
  return new Map(
    [...run.learned, ...run.seen.filter((e) => !learned.has(e))].map((e) => {
      const a = watch.see(e);
      const merchant = spelled.get(e);
      return [e, merchant && merchant !== 'unknown' ? { ...a, scope: { ...a.scope, merchant } } : a];
    }),
  );
}

/** The violations of the check's rule over its cases and answers, those with the fewest inputs first. */
function violationsOf(ctx: CheckContext, cases: readonly DoorCase[], byExchange: Map<Exchange, WatchedAnswer>) {
  const answers = [...byExchange.values()];
  const shown = ctx.rule === 'LIM-CAP' ? recordsShown(answers) : new Map<WatchedAnswer, number>();
  const own: Array<{ v: Violation; size: number }> = [];
  for (const c of cases) {
    const answer = byExchange.get(c.exchange);
    for (const v of [openedViolation(c), capViolation(c, answer ? shown.get(answer) : 0)]) {
      if (v?.rule === ctx.rule) own.push({ v, size: c.added.inputs.length });
    }
  }
  own.sort((a, b) => a.size - b.size);
  const crossed = crossings(answers, ctx.rule);
  if (crossed.unexercised) notExercised(ctx, crossed.unexercised);
  const leaks = ctx.rule === 'KEY-SECRET' ? keyLeakViolations(answers) : [];
  return [...own.map((o) => o.v), ...crossed.violations, ...leaks];
}

/**
 * The door check of `ctx.rule`: not run where the configuration has no request of that rule to add inputs to (a key
 * not configured); its notes say what was tried, by source. The run's depth picks the budget for splitting batches.
 */
export async function doorCheck(ctx: CheckContext): Promise<void> {
  const run = await exploreDoors(ctx, ctx.rule, ctx.depth.name);
  if (run.bases.length === 0) throw new NotRun('needs input', 'no request of this rule is configured to add inputs to');
  const sent = run.cases.filter((c) => c.kind !== 'reference').length;
  const split = run.cases.filter((c) => c.kind === 'split').length;
  ctx.notes.add(
    `${sent} door request(s) on ${run.bases.length} request(s) of the suite, ${split} of them splitting a batch`,
  );
  const violations = violationsOf(ctx, run.cases, watched(ctx, run));
  // The cap can be widened only where a listing holds more records than it (reading "Evidence behind a pass").
  const largest = Math.max(0, ...run.learned.map((e) => readEnvelope(e)?.total ?? 0));
  if (ctx.rule === 'LIM-CAP' && largest <= MAX_LIMIT)
    notExercised(
      ctx,
      `no listing holds more than ${MAX_LIMIT} records (the largest ${largest}): no input could show more than the cap`,
    );
  const [first] = violations;
  if (!first) return;
  const more = violations.length > 1 ? ` (and ${violations.length - 1} more like it)` : '';
  throw new RuleViolation({ ...first, received: `${first.received}${more}` });
}
