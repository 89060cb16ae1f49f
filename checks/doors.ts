/**
 * What an input the spec does not document may never do (reading "Inputs the spec does not document"): open a request
 * that its rule refuses, or make an allowed answer show more than the cap. A refused request may get any 4xx for an
 * input the server does not accept, or its rule's own refusal; what the answers carry is the provenance checks' to
 * judge (checks/provenance.ts). Pure: `(door case) → violation`.
 */
import { type DoorCase, describeAdded } from '../core/model/doors.ts';
import { MAX_LIMIT } from '../core/model/listing.ts';
import type { WatchedAnswer } from '../core/model/provenance.ts';
import { EVERY_ANSWER_RULES, type EveryAnswerRule, type RuleId } from '../core/model/rules.ts';
import { excerpt, type Violation } from '../core/model/verdict.ts';
import { provenanceViolations, unexercised } from './provenance.ts';

const is2xx = (status: number) => status >= 200 && status < 300;

/**
 * A refused request answered 2xx with inputs added. A valid key on a merchant id an operator spelled is left to what
 * its answer shows (the target may take the spelling for another merchant, where an empty 200 is no crossing).
 */
export function openedViolation(c: DoorCase): Violation | undefined {
  const { base, added, exchange: e } = c;
  if (!base.refused || !is2xx(e.status)) return undefined;
  const cred = base.case.credential;
  if (added.segment && cred.kind === 'key' && !cred.mutation && ['live', 'restricted', 'test'].includes(cred.slot))
    return undefined;
  return {
    standsUnderGrowth: true, // one answer: no payment appearing opens a refused request
    rule: base.expectation.rule,
    expected: `${base.expectation.answer} (or any other refusal) for ${base.expectation.what} ${describeAdded(added)}: an input the spec does not document never opens a refused request`,
    received: `${excerpt(e)} (served)`,
    exchange: e,
  };
}

/** More records than the cap (§8: 100) in an allowed answer with inputs added. */
export function capViolation(c: DoorCase): Violation | undefined {
  const { base, added, exchange: e } = c;
  if (base.refused || !is2xx(e.status)) return undefined;
  const data = (e.json as { data?: unknown } | undefined)?.data;
  if (!Array.isArray(data) || data.length <= MAX_LIMIT) return undefined;
  return {
    standsUnderGrowth: true,
    rule: 'LIM-CAP',
    expected: `at most ${MAX_LIMIT} records for ${base.expectation.what} ${describeAdded(added)}: no input widens the cap`,
    received: `${data.length} records`,
    exchange: e,
  };
}

/** Records shown where the request may not see them (the watcher's provenance), for a rule whose boundary a record crosses. */
export function crossings(answers: readonly WatchedAnswer[], rule: RuleId) {
  if (!(EVERY_ANSWER_RULES as readonly RuleId[]).includes(rule)) return { violations: [] };
  const { violations, stats } = provenanceViolations(answers, rule as EveryAnswerRule);
  const why = unexercised(rule as EveryAnswerRule, stats, answers.length);
  return { violations, ...(why ? { unexercised: why } : {}) };
}
