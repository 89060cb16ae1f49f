/**
 * A result set: the records of one listing read page by page at one limit (offsets 0, L, 2L, …), with the pages they
 * came from. A whole set is read at limit 100; a check may read a prefix of a large set at a smaller limit.
 */
import type { Exchange } from './exchange.ts';
import { describeListing, type Listing, readEnvelope } from './listing.ts';
import type { RuleId } from './rules.ts';
import { type Derivation, derive, type Violation } from './verdict.ts';

/** One page of a read: the offset it was asked for and the answer. */
export interface Page {
  offset: number;
  exchange: Exchange;
}

export interface ResultSet {
  listing: Listing;
  limit: number;
  pages: Page[];
  /** The records of every page, concatenated. */
  records: unknown[];
  total: number;
  /** False when the read stopped before `total` (a page cap, or API_MAX_RECORDS). */
  complete: boolean;
  /**
   * What its own pages break, as they were read (core/run/walk.ts): a page whose size disagrees with its own offset,
   * limit and total (PAG-SIZE), an echo other than what was sent (PAG-ECHO), a total other than the first page's
   * (PAG-TOTAL), a record twice (PAG-PARTITION). An expectation computed from the set says so (`basedOn`).
   */
  flaws: Flaw[];
  /** When it was read (performance.now(), in its worker): from before its first request to after its last answer. */
  read?: { from: number; to: number };
  /** Read on through data that moved (a check's second attempt, core/run/changes.ts): its pages are not one snapshot. */
  moved?: true;
}

/** A rule the set's own pages break, how, and which pages (by offset) show it. */
export interface Flaw extends Derivation {
  offsets: number[];
  /**
   * Other rules whose own subject this is as much: pages that end before their total are a total too high or a record
   * skipped (PAG-PARTITION), so a check of PAG-PARTITION judges it itself and does not follow from PAG-TOTAL.
   */
  alike?: RuleId[];
}

/** A set as an expectation's source: which listing, read at which limit, and what its pages break. */
export type SetSource = Pick<ResultSet, 'listing' | 'limit' | 'flaws'>;

/** The records of `earlier` when its last answer came before `later`'s first request (in one worker), else none. */
export const readBefore = (earlier: Pick<ResultSet, 'records' | 'read'>, later: Pick<ResultSet, 'read'>) =>
  earlier.read && later.read && earlier.read.to <= later.read.from ? earlier.records : [];

/**
 * The violation of a check whose expectation was computed from these sets, saying which other rules their pages
 * break: "expected total 106", counted from pages that fail PAG-SIZE, may follow from PAG-SIZE.
 */
export function basedOn(v: Violation | undefined, ...sets: SetSource[]): Violation | undefined {
  return (
    v &&
    derive(
      v,
      sets.flatMap((set) => derivationsFrom(set, v.rule)),
    )
  );
}

/** What an expectation of `rule` computed from the set rests on, where the set's own pages break another rule. */
export const derivationsFrom = (set: SetSource, rule: RuleId): Derivation[] =>
  set.flaws
    .filter((f) => f.rule !== rule && !f.alike?.includes(rule))
    .map((f) => ({
      rule: f.rule,
      why: `the expectation was computed from ${describeListing(set.listing)} read at limit ${set.limit}, whose ${f.why}`,
    }));

/**
 * The violation of a check that judged the set's records themselves (their order), saying which other rules the pages
 * holding its evidence break: records out of order because a page past the end repeats earlier ones.
 */
export function basedOnPages(
  v: Violation | undefined,
  set: SetSource & Pick<ResultSet, 'pages'>,
): Violation | undefined {
  if (!v) return undefined;
  const shown = new Set([v.exchange, ...(v.related ?? [])]);
  const offsets = new Set(set.pages.filter((p) => shown.has(p.exchange)).map((p) => p.offset));
  const flaws = set.flaws.filter((f) => f.offsets.some((o) => offsets.has(o)) && !f.alike?.includes(v.rule));
  const on = `${describeListing(set.listing)} read at limit ${set.limit}`;
  return derive(
    v,
    flaws.map((f) => ({ rule: f.rule, why: `its evidence comes from pages of ${on} that break it: its ${f.why}` })),
  );
}

/** The page of a set holding record `index` of the concatenation, and that page's first index. */
export function pageHolding(set: Pick<ResultSet, 'pages'>, index: number): { page: Page | undefined; start: number } {
  let start = 0;
  for (const page of set.pages) {
    const size = readEnvelope(page.exchange)?.data.length ?? 0;
    if (index < start + size) return { page, start };
    start += size;
  }
  return { page: set.pages.at(-1), start };
}

/** One enumerated listing: what it is (for the report), its records and the pages they came from. */
export interface IsolatedListing {
  label: string;
  records: readonly unknown[];
  pages: readonly Pick<Page, 'exchange'>[];
}

/** The record's `status`, or undefined when it has none. */
export function statusOf(record: unknown): unknown {
  return (record as { status?: unknown } | null)?.status;
}

/** A record's value of a field: `a.b` reads the field named so, else the nested one. */
export function fieldOf(record: unknown, field: string): unknown {
  if (typeof record !== 'object' || record === null) return undefined;
  const r = record as Record<string, unknown>;
  if (field in r) return r[field];
  return field
    .split('.')
    .reduce<unknown>(
      (v, k) => (typeof v === 'object' && v !== null ? (v as Record<string, unknown>)[k] : undefined),
      r,
    );
}

/** A field's value as a filter compares it: a string, number or boolean as text; anything else matches nothing. */
export const asText = (v: unknown) =>
  typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' ? String(v) : undefined;

/** The values of a field in `records`, most frequent first (ties by value), with their counts. */
export function fieldValueCounts(records: readonly unknown[], field: string): Array<[string, number]> {
  const counts = new Map<string, number>();
  for (const r of records) {
    const v = asText(fieldOf(r, field));
    if (v !== undefined && v !== '') counts.set(v, (counts.get(v) ?? 0) + 1);
  }
  return [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
}
