/**
 * Which failing rules may follow from another failure: one deviation (pages one record short) breaks every rule whose
 * expectation is counted from those pages. A finding whose evidence breaks another rule says so in its record
 * (`derivedFrom`, core/model/verdict.ts); a rule all of whose findings say so, each naming a rule that failed in this
 * run too, may follow from those rules. The others are the likely causes, and the outcome lists them first.
 */
import { type CheckRecord, followsFrom } from '../core/model/verdict.ts';

/** A rule's findings: failures and advisory findings, known (baseline) ones included. */
const isFinding = (c: CheckRecord) => c.verdict === 'fail' || c.verdict === 'advisory';

/**
 * For each rule with findings that may all follow from other failing rules: those rules. A rule with one finding whose
 * evidence depends on no other failure is a likely cause, and is not in the map. When every failing rule would follow
 * from another (each explains the other), none is said to follow: the reader is shown them all as they are.
 */
export function mayFollow(checks: readonly CheckRecord[]): Map<string, string[]> {
  const findings = checks.filter(isFinding);
  const failing = new Set(findings.map((c) => c.rule));
  const follows = new Map<string, string[]>();
  for (const rule of failing) {
    const own = findings.filter((c) => c.rule === rule);
    // A derivation counts only when the rule it names failed in this run too: else this finding is the evidence.
    const causes = own.map((c) => followsFrom(c).filter((r) => r !== rule && failing.has(r)));
    if (causes.every((from) => from.length > 0)) follows.set(rule, [...new Set(causes.flat())]);
  }
  return follows.size === failing.size ? new Map() : follows;
}
