/**
 * What a verdict does to the run: the one place that decides it. A check's record or a rule's row of the rule matrix
 * is, for the run,
 * - `fail`: it fails the run — a failure (a MUST rule's, or an ADVISORY rule's finding with CONFORMANCE_STRICT=1), or,
 *   with CONFORMANCE_STRICT=1, a MUST rule that no check exercised;
 * - `known`: a failure or finding the run's baseline excuses (a known deviation): it does not fail the run;
 * - `advisory`: an ADVISORY rule's finding without CONFORMANCE_STRICT=1: listed, not failing the run;
 * - `none`: no finding (a pass, a check not exercised, inconclusive or not run: the outcome weighs those apart).
 * A check that is not exercised never fails the run by itself: another check of its rule may exercise the rule. The
 * rule's row says whether any did. settle (fixtures/test.ts), the outcome, JUnit, the HTML page, merge and the
 * self-test's judge all ask here.
 */
import { type BaselineEntry, excusedBy } from './baseline.ts';
import { type Level, rule } from './rules.ts';
import { type CheckRecord, type RuleVerdict, ruleVerdictOf } from './verdict.ts';

type Disposition = 'fail' | 'known' | 'advisory' | 'none';

/** What is judged: a check's record, or a rule's row of the rule matrix (its verdict and level). */
type Judged = { of: 'check'; record: CheckRecord } | { of: 'rule'; verdict: RuleVerdict; level: Level };

interface DispositionOptions {
  /** CONFORMANCE_STRICT=1: advisory findings, and MUST rules not exercised, fail the run. */
  strict: boolean;
  /** The run's known deviations, for a check's record not marked yet (while the run goes), on `today` (YYYY-MM-DD). */
  baseline?: { entries: readonly BaselineEntry[]; today: string };
}

/** A check's record as disposition reads it. */
export const ofCheck = (record: CheckRecord): Judged => ({ of: 'check', record });

export function disposition(j: Judged, how: DispositionOptions): Disposition {
  const verdict = j.of === 'check' ? ruleVerdictOf(j.record) : j.verdict;
  const level = j.of === 'check' ? rule(j.record.rule).level : j.level;
  if (verdict === 'known') return 'known';
  const finding = verdict === 'fail' || verdict === 'advisory';
  if (finding && j.of === 'check' && how.baseline && excusedBy(how.baseline.entries, j.record, how.baseline.today)) {
    return 'known';
  }
  if (verdict === 'fail') return 'fail';
  if (verdict === 'advisory') return how.strict ? 'fail' : 'advisory';
  if (verdict === 'not exercised' && j.of === 'rule' && level === 'MUST' && how.strict) return 'fail';
  return 'none';
}
