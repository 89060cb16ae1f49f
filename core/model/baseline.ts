/**
 * Known deviations (`--baseline FILE`, CONFORMANCE_BASELINE): a JSON file of entries `{rule, match, reason, until}`
 * that a team keeps while a vendor fixes what the suite found. An entry excuses the failures of its rule whose
 * evidence it matches, until its date; a new failure of the same rule (another check, other evidence) is not excused.
 *
 *   { "entries": [ { "rule": "PAG-SIZE", "match": "PAG-SIZE every window", "reason": "VEN-123", "until": "2026-12-31" } ] }
 *
 * `match` selects the evidence of a check's record, field by field (never a rendered message):
 * - a string: a substring of the check's title, its expected or received line, its counterexample or its requests
 *   (the curl lines that reproduce it); written `/…/flags`, a regular expression tested against each of them;
 * - an object `{check?, expected?, received?, request?}`: each field given must match that field (same forms).
 * `until` is a date (YYYY-MM-DD), the last day the entry holds. `found` ({seed, drawn}, written by --write-baseline)
 * says how the failure was found: from a case drawn from that seed, or one every run tries. This module is pure: the parsing of a file's text,
 * the matching of one record; reporters/baseline.ts judges a run's records with it, fixtures/test.ts marks a known
 * failure as expected while the run goes.
 */
import { isRuleId, type RuleId, sameFamily, titleForms } from './rules.ts';
import type { CheckRecord } from './verdict.ts';

const MATCH_FIELDS = ['check', 'expected', 'received', 'request'] as const;
type MatchField = (typeof MATCH_FIELDS)[number];
type Match = string | Partial<Record<MatchField, string>>;

export interface BaselineEntry {
  rule: RuleId;
  match: Match;
  reason: string;
  /** YYYY-MM-DD: the last day the entry excuses a failure. */
  until: string;
  /**
   * How the failure was found (written by --write-baseline): the run's seed, and whether the failing case was drawn
   * from it (`drawn`) or is one every run tries. A run with another seed that does not meet a drawn case again has not
   * shown it fixed.
   */
  found?: { seed: number; drawn: boolean };
}

/** The baseline a run was judged against: its file, its entries and the date that decided expiry. */
export interface BaselineInput {
  file: string;
  entries: BaselineEntry[];
  /** YYYY-MM-DD: the day of the run. */
  date: string;
}

/** A baseline file that cannot be used: every problem, one line each (entries by their position, from 1). */
export class BaselineError extends Error {
  constructor(
    readonly file: string,
    readonly problems: string[],
  ) {
    super(`bad baseline ${file} (CONFORMANCE_BASELINE): ${problems.join('; ')}`);
    this.name = 'BaselineError';
  }
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const isDate = (s: string) => DATE.test(s) && new Date(`${s}T00:00:00Z`).toISOString().startsWith(s);
const ENTRY_FIELDS = new Set(['rule', 'match', 'reason', 'until', 'found', 'comment']);

/** A pattern as written: `/…/flags` is a regular expression, anything else a substring. */
function pattern(p: string): (text: string) => boolean {
  const re = /^\/(.+)\/([a-z]*)$/s.exec(p);
  if (!re) return (text) => text.includes(p);
  const compiled = new RegExp(re[1] as string, (re[2] as string).replace(/[gy]/g, ''));
  return (text) => compiled.test(text);
}

function patternProblem(p: unknown, where: string): string | undefined {
  if (typeof p !== 'string' || p.trim() === '') return `${where} must be a non-empty string`;
  try {
    pattern(p);
    return undefined;
  } catch (error) {
    return `${where} is not a valid regular expression (${(error as Error).message})`;
  }
}

/** The entries of a baseline file's text; throws BaselineError naming every problem. */
export function parseBaseline(text: string, file: string): BaselineEntry[] {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new BaselineError(file, [`not JSON (${(error as Error).message})`]);
  }
  const list = Array.isArray(data) ? data : (data as { entries?: unknown } | null)?.entries;
  if (!Array.isArray(list)) throw new BaselineError(file, ['expected {"entries": [ … ]} or an array of entries']);
  const problems: string[] = [];
  list.forEach((raw, i) => {
    const at = `entry ${i + 1}`;
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
      problems.push(`${at} is not an object`);
      return;
    }
    const e = raw as Record<string, unknown>;
    for (const k of Object.keys(e)) if (!ENTRY_FIELDS.has(k)) problems.push(`${at}: unknown field "${k}"`);
    if (typeof e.rule !== 'string' || !isRuleId(e.rule))
      problems.push(`${at}: rule ${JSON.stringify(e.rule)} is not a rule id of the catalogue`);
    if (typeof e.match === 'object' && e.match !== null && !Array.isArray(e.match)) {
      const fields = Object.entries(e.match);
      if (fields.length === 0) problems.push(`${at}: match names no field (${MATCH_FIELDS.join(', ')})`);
      for (const [k, v] of fields) {
        if (!(MATCH_FIELDS as readonly string[]).includes(k))
          problems.push(`${at}: match.${k} is not one of ${MATCH_FIELDS.join(', ')}`);
        else {
          const p = patternProblem(v, `${at}: match.${k}`);
          if (p) problems.push(p);
        }
      }
    } else {
      const p = patternProblem(e.match, `${at}: match`);
      if (p) problems.push(p);
    }
    if (typeof e.reason !== 'string' || e.reason.trim() === '')
      problems.push(`${at}: reason must be a non-empty string`);
    if (typeof e.until !== 'string' || !isDate(e.until)) problems.push(`${at}: until must be a date YYYY-MM-DD`);
    const found = e.found as { seed?: unknown; drawn?: unknown } | undefined;
    const seedOk = Number.isSafeInteger(found?.seed) && (found?.seed as number) >= 0;
    if (found !== undefined && (typeof found !== 'object' || !seedOk || typeof found.drawn !== 'boolean'))
      problems.push(`${at}: found must be {"seed": a whole number, "drawn": true or false}`);
  });
  if (problems.length > 0) throw new BaselineError(file, problems);
  return list.map((e: BaselineEntry) => ({
    rule: e.rule,
    match: e.match,
    reason: e.reason,
    until: e.until,
    ...(e.found ? { found: { seed: e.found.seed, drawn: e.found.drawn } } : {}),
  }));
}

/** The text of each evidence field of a record. */
function fieldsOf(r: CheckRecord): Record<MatchField, string[]> {
  return {
    check: titleForms(r.check),
    expected: r.expected === undefined ? [] : [r.expected],
    received: [r.received, r.counterexample].filter((t): t is string => t !== undefined),
    request: r.reproduction,
  };
}

/** Whether the entry's `match` selects this record's evidence (the rule aside). */
export function matchesEvidence(match: Match, r: CheckRecord): boolean {
  const fields = fieldsOf(r);
  if (typeof match === 'string') {
    const test = pattern(match);
    return MATCH_FIELDS.some((f) => fields[f].some(test));
  }
  return Object.entries(match).every(([f, p]) => fields[f as MatchField]?.some(pattern(p as string)) ?? false);
}

/** Whether the entry's `match` names this check by its title (a string that matches it, or a `check` field). */
export function selectsTitle(match: Match, title: string): boolean {
  const test = pattern(typeof match === 'string' ? match : (match.check ?? ''));
  if (typeof match !== 'string' && match.check === undefined) return false;
  return titleForms(title).some(test);
}

/** Whether the entry no longer holds on `date` (YYYY-MM-DD): it held through its `until`. */
export const isExpired = (e: Pick<BaselineEntry, 'until'>, date: string): boolean => e.until < date;

/** A failure or advisory finding this baseline excuses on `date`: the first live entry of its rule that matches it. */
export function excusedBy(entries: readonly BaselineEntry[], r: CheckRecord, date: string): BaselineEntry | undefined {
  if (r.verdict !== 'fail' && r.verdict !== 'advisory') return undefined;
  return entries.find((e) => sameFamily(e.rule, r.rule) && !isExpired(e, date) && matchesEvidence(e.match, r));
}

/** Today as the baseline reads dates: YYYY-MM-DD, UTC. */
export const today = (now = new Date()): string => now.toISOString().slice(0, 10);

/** How an entry is shown: `PAG-SIZE "every window…"` (its match, cut). */
export function describeEntry(e: Pick<BaselineEntry, 'rule' | 'match'>): string {
  const m = typeof e.match === 'string' ? e.match : JSON.stringify(e.match);
  return `${e.rule} ${JSON.stringify(m.length > 80 ? `${m.slice(0, 80)}…` : m)}`;
}

/** The placeholder reason of a written baseline (--write-baseline): the team replaces it with theirs. */
export const PLACEHOLDER_REASON = 'TODO: why this deviation is accepted (a ticket, the vendor’s answer)';

/** The entries whose reason is still the placeholder: each is a warning, in the console and in every report. */
export const placeholderEntries = (entries: readonly BaselineEntry[]): BaselineEntry[] =>
  entries.filter((e) => e.reason.trim() === PLACEHOLDER_REASON);
