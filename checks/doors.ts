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
 * Whether an answer served the request: a 2xx, or a 304 Not Modified (RFC 9110 §15.4.5: the request would have been
 * served, and the client's copy is current — an answer a refused request never gets).
 */
const served = (status: number) => is2xx(status) || status === 304;

/**
 * A refused request answered 2xx (or 304) with inputs added. A valid key on a merchant id an operator spelled is left to what
 * its answer shows (the target may take the spelling for another merchant, where an empty 200 is no crossing).
 */
export function openedViolation(c: DoorCase): Violation | undefined {
  const { base, added, exchange: e } = c;
  if (!base.refused || !served(e.status)) return undefined;
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

/**
 * More records than the cap (§8: 100) in an allowed answer with inputs added: its envelope's `data`, or the learned
 * records it shows in any other representation (`shown`: a CSV or XML export, checks/provenance.ts `recordsShown`).
 */
export function capViolation(c: DoorCase, shown = 0): Violation | undefined {
  const { base, added, exchange: e } = c;
  if (base.refused || !is2xx(e.status)) return undefined;
  const data = (e.json as { data?: unknown } | undefined)?.data;
  const inData = Array.isArray(data) ? data.length : 0;
  if (Math.max(inData, shown) <= MAX_LIMIT) return undefined;
  return {
    standsUnderGrowth: true,
    rule: 'LIM-CAP',
    expected: `at most ${MAX_LIMIT} records for ${base.expectation.what} ${describeAdded(added)}: no input widens the cap, in any representation`,
    received:
      inData >= shown
        ? `${inData} records`
        : `${shown} records of the listing written out in its body (${e.headers['content-type'] ?? 'no Content-Type'})`,
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
