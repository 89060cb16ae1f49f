/**
 * The judgment of a run against its baseline of known deviations (core/model/baseline.ts), a pure function over the
 * run's records, applied by `summarize` (reporters/summary.ts) so that the rule matrix of a run and of `merge` agree:
 * - a failure (or advisory finding) that a live entry of its rule matches is known: marked on its record, it does not
 *   fail the run;
 * - a failure no entry matches is new: it fails the run as ever;
 * - an entry whose checks ran and that matches no failure is fixed: "remove it from the baseline" — when they ran on
 *   the case that failed before: checks that draw nothing from the seed, a failure found on a case every run tries
 *   (`found.drawn` false), or the seed that found it; else it is "not seen in this run" (a new seed may simply not
 *   have drawn the case), and kept;
 * - an entry past its `until` is expired: it excuses nothing and fails the run (exit 1), named;
 * - an entry whose checks did not run (not selected, inconclusive) is not judged, and kept.
 * `baselineFrom` writes a baseline from a run's failures (--write-baseline) for the team to edit.
 */
import {
  type BaselineEntry,
  type BaselineInput,
  describeEntry,
  excusedBy,
  isExpired,
  PLACEHOLDER_REASON,
  placeholderEntries,
  selectsTitle,
} from '../core/model/baseline.ts';
import { sameFamily } from '../core/model/rules.ts';
import type { CheckRecord, Verdict } from '../core/model/verdict.ts';

export type { BaselineEntry } from '../core/model/baseline.ts';

/** A known failure of the run, as reports list it. */
interface KnownDeviation {
  rule: string;
  check: string;
  reason: string;
  until: string;
  /** The entry that excused it, as shown: `PAG-SIZE "…"`. */
  entry: string;
}

/** What the baseline made of the run. */
export interface Deviations {
  file: string;
  known: KnownDeviation[];
  /** Entries whose checks ran on the case that failed before and found nothing they match: to be removed. */
  fixed: BaselineEntry[];
  /** Entries whose checks ran and matched nothing, but drew their cases from another seed: kept, not judged fixed. */
  unseen: BaselineEntry[];
  /** Entries past their date: each fails the run. */
  expired: BaselineEntry[];
  /** Entries whose checks did not run: kept, not judged. */
  unjudged: BaselineEntry[];
  /** Entries whose reason is still the placeholder --write-baseline wrote: a warning, whatever they excuse. */
  placeholders?: BaselineEntry[];
}

/** Verdicts of a check that ran and judged its rule. */
const RAN: readonly Verdict[] = ['pass', 'fail', 'advisory', 'not exercised'];

/**
 * The records with the baseline's known failures marked (earlier marks dropped), and what became of each entry. `seed`
 * is the run's: an entry found with it saw the same drawn cases again.
 */
export function judgeBaseline(
  records: readonly CheckRecord[],
  baseline: BaselineInput,
  seed: number | null = null,
): { records: CheckRecord[]; deviations: Deviations } {
  const used = new Set<BaselineEntry>();
  const known: KnownDeviation[] = [];
  const marked = records.map((r) => {
    const { known: _earlier, ...plain } = r;
    const entry = excusedBy(baseline.entries, plain, baseline.date);
    if (!entry) return plain;
    used.add(entry);
    known.push({ rule: r.rule, check: r.check, reason: entry.reason, until: entry.until, entry: describeEntry(entry) });
    return { ...plain, known: { reason: entry.reason, until: entry.until } };
  });
  const fixed: BaselineEntry[] = [];
  const unseen: BaselineEntry[] = [];
  const expired: BaselineEntry[] = [];
  const unjudged: BaselineEntry[] = [];
  for (const e of baseline.entries) {
    const ran = ranFor(e, records);
    if (isExpired(e, baseline.date)) expired.push(e);
    else if (used.has(e)) continue;
    else if (ran.length === 0) unjudged.push(e);
    else if (sawAgain(e, ran, seed)) fixed.push(e);
    else unseen.push(e);
  }
  const placeholders = placeholderEntries(baseline.entries);
  return {
    records: marked,
    deviations: {
      file: baseline.file,
      known,
      fixed,
      unseen,
      expired,
      unjudged,
      ...(placeholders.length ? { placeholders } : {}),
    },
  };
}

/**
 * The checks of this run that judged what the entry is about: those whose title it names that ran, or, when it names
 * none, those of its rule that ran.
 */
function ranFor(e: BaselineEntry, records: readonly CheckRecord[]): CheckRecord[] {
  const ofRule = records.filter((r) => sameFamily(r.rule, e.rule));
  const named = ofRule.filter((r) => selectsTitle(e.match, r.check));
  // A check its depth could not judge (not exercised at quick) did not judge the entry's case either.
  return (named.length > 0 ? named : ofRule).filter((r) => RAN.includes(r.verdict) && r.cause !== 'depth');
}

/**
 * Whether the checks that ran tried the case the entry's failure was found on: they draw nothing from the seed, the
 * failure was on a case every run tries, or this run drew from the seed that found it.
 */
function sawAgain(e: BaselineEntry, ran: readonly CheckRecord[], seed: number | null): boolean {
  if (ran.every((r) => !r.seeded)) return true;
  return e.found !== undefined && (!e.found.drawn || e.found.seed === seed);
}

/** The lines that decide the outcome: each expired entry fails the run. */
export function expiredLines(d: Deviations | undefined): string[] {
  return (d?.expired ?? []).map(
    (e) => `baseline entry ${describeEntry(e)} expired on ${e.until} (${d?.file}): renew its date or remove it`,
  );
}

/** `PAG-SIZE: known (reason, until 2026-12-31)`, one per known failure. */
export const knownLine = (k: KnownDeviation) => `${k.check}: known (${k.reason}, until ${k.until})`;
export const fixedLine = (e: BaselineEntry) => `${describeEntry(e)}: fixed, remove it from the baseline`;
export const expiredLine = (e: BaselineEntry) =>
  `${describeEntry(e)}: expired on ${e.until}, renew its date or remove it`;
export const unjudgedLine = (e: BaselineEntry) =>
  `${describeEntry(e)}: not judged in this run (its checks did not run)`;
export const placeholderLine = (e: BaselineEntry) =>
  `${describeEntry(e)}: warning: its reason is still the placeholder --write-baseline wrote; say why the deviation is accepted (a ticket, the vendor's answer)`;
export const unseenLine = (e: BaselineEntry) =>
  `${describeEntry(e)}: not seen in this run, kept (its checks draw their cases from the seed and did not meet the failing one${e.found?.drawn ? `; FC_SEED=${e.found.seed} draws it again` : ''})`;

/** Adds `days` to a YYYY-MM-DD date. */
export function addDays(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/**
 * A baseline of a run's failures and advisory findings, one entry per check (its title as the match), for the team to
 * edit: a failure already known keeps its entry; a new one gets a placeholder reason, `until` 30 days ahead, and how
 * it was found (the run's seed, and whether its failing case was drawn from it).
 */
export function baselineFrom(
  records: readonly CheckRecord[],
  date: string,
  previous: readonly BaselineEntry[] = [],
  seed: number | null = null,
): { entries: BaselineEntry[] } {
  const entries: BaselineEntry[] = [];
  const seen = new Set<string>();
  for (const r of records) {
    if (r.verdict !== 'fail' && r.verdict !== 'advisory') continue;
    const kept = r.known
      ? previous.find(
          (e) =>
            sameFamily(e.rule, r.rule) &&
            e.reason === r.known?.reason &&
            e.until === r.known?.until &&
            excusedBy([e], r, date),
        )
      : undefined;
    // How it was found, so that a later run can tell "fixed" from "not drawn this time".
    const found = seed === null ? {} : { found: { seed, drawn: r.drawnCase === true } };
    const entry: BaselineEntry = kept ?? {
      rule: r.rule,
      match: r.check,
      reason: PLACEHOLDER_REASON,
      until: addDays(date, 30),
      ...found,
    };
    const key = JSON.stringify(entry);
    if (seen.has(key)) continue;
    seen.add(key);
    entries.push(entry);
  }
  return { entries };
}
