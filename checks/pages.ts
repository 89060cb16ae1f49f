/**
 * Set-level pure checks: several listing responses of one selection, compared with each other or with the
 * whole result set (a walk at limit 100, core/run/walk.ts). `(exchanges, what was sent, reference) →
 * Violation | undefined`; the specs decide which requests to send. A violation whose expectation was computed from a
 * set names what that set's pages break of other rules (`basedOn`): it may follow from their failure.
 */

import type { Exchange } from '../core/model/exchange.ts';
import { readEnvelope } from '../core/model/listing.ts';
import { basedOn, pageHolding, type ResultSet } from '../core/model/result-set.ts';
import { derive, excerpt, type Violation } from '../core/model/verdict.ts';
import { pastEndBasis } from './envelope.ts';

/** Record identity (fixtures/listing.ts `identity`): the `id` field, or the whole record's JSON. */
type IdOf = (record: unknown) => string;

/** One read of a selection, with what it was (`offset=120 limit=7 sort=-amount`) for failure reports. */
interface Sample {
  label: string;
  exchange: Exchange;
}

const MAX_SHOWN = 3;

/** An identity short enough for a report line. */
export function shortId(id: string): string {
  const bare = id.startsWith('id:') ? id.slice(3) : id;
  return bare.length > 40 ? `${bare.slice(0, 40)}…` : bare;
}

function showIds(ids: readonly string[]): string {
  const shown = ids.slice(0, MAX_SHOWN).map(shortId).join(', ');
  return ids.length > MAX_SHOWN ? `${shown} and ${ids.length - MAX_SHOWN} more` : shown || 'none';
}

/**
 * PAG-TOTAL: every read of one query (any window, any sort) reports the total of the reference read.
 * A read that is not a usable 200 fails too: they are all requests the spec defines.
 */
export function totalAgreementViolation(reference: Sample, other: Sample): Violation | undefined {
  const ref = readEnvelope(reference.exchange);
  const got = readEnvelope(other.exchange);
  if (!ref || !got) {
    const bad = ref ? other : reference;
    return {
      rule: 'PAG-TOTAL',
      expected: `HTTP 200 listing for ${bad.label}`,
      received: excerpt(bad.exchange),
      exchange: bad.exchange,
    };
  }
  if (got.total === ref.total) return undefined;
  return {
    rule: 'PAG-TOTAL',
    expected: `total ${ref.total} (as for ${reference.label}) for ${other.label}`,
    received: `total ${got.total} (${got.data.length} records on the page)`,
    exchange: other.exchange,
    related: [reference.exchange],
  };
}

const exchanges = (pages: ResultSet['pages']) => pages.map((p) => p.exchange);

/** PAG-TOTAL: `total` equals the number of distinct records the limit-100 enumeration delivered. */
export function countViolation(set: ResultSet, idOf: IdOf, label: string): Violation | undefined {
  if (!set.complete) return undefined; // only part of the set was read
  const distinct = new Set(set.records.map(idOf)).size;
  if (distinct === set.total) return undefined;
  return basedOn(
    {
      rule: 'PAG-TOTAL',
      expected: `total = the number of records of ${label} (${set.pages.length} pages at limit 100)`,
      received: `total ${set.total}, ${distinct} distinct records enumerated`,
      exchange: set.pages[0]?.exchange,
      related: exchanges(set.pages.slice(-1)),
    },
    set,
  );
}

/** The first record that occurs twice in `ids`: its two positions. */
function firstDuplicate(ids: readonly string[]): [number, number] | undefined {
  const seen = new Map<string, number>();
  for (const [i, id] of ids.entries()) {
    const before = seen.get(id);
    if (before !== undefined) return [before, i];
    seen.set(id, i);
  }
  return undefined;
}

/**
 * PAG-PARTITION: the limit-100 enumeration holds every record once: no record twice, and (unless capped) at
 * least `total` distinct records (fewer is a gap). More records than `total` is PAG-TOTAL's (countViolation).
 */
export function enumerationViolation(set: ResultSet, idOf: IdOf, label: string): Violation | undefined {
  return basedOn(enumerationGap(set, idOf, label), set);
}

function enumerationGap(set: ResultSet, idOf: IdOf, label: string): Violation | undefined {
  const ids = set.records.map(idOf);
  const dup = firstDuplicate(ids);
  if (dup) {
    const [a, b] = dup.map((p) => pageHolding(set, p).page);
    return {
      rule: 'PAG-PARTITION',
      expected: `the pages of ${label} at limit 100 hold each record once`,
      received: `record ${shortId(ids[dup[0]] as string)} at positions ${dup[0]} and ${dup[1]}`,
      exchange: a?.exchange,
      related: a === b || !b ? [] : [b.exchange],
    };
  }
  if (set.complete && ids.length < set.total) {
    return {
      rule: 'PAG-PARTITION',
      expected: `the pages of ${label} at limit 100 hold all ${set.total} records (total)`,
      received: `${ids.length} records: ${set.total - ids.length} missing`,
      exchange: set.pages[0]?.exchange,
      related: exchanges(set.pages.slice(1, 3)),
    };
  }
  return undefined;
}

/** PAG-PARTITION: sorting does not change the result set: `other` (a sort of it) holds the same records. */
export function sameSetViolation(
  base: ResultSet,
  other: ResultSet,
  idOf: IdOf,
  labels: [string, string],
): Violation | undefined {
  if (!base.complete || !other.complete) return undefined;
  const a = new Set(base.records.map(idOf));
  const b = new Set(other.records.map(idOf));
  const missing = [...a].filter((id) => !b.has(id));
  const extra = [...b].filter((id) => !a.has(id));
  if (missing.length === 0 && extra.length === 0) return undefined;
  const v: Violation = {
    rule: 'PAG-PARTITION',
    expected: `${labels[1]} pages through the same ${a.size} records as ${labels[0]}`,
    received: `missing ${showIds(missing)}; not in ${labels[0]}: ${showIds(extra)}`,
    exchange: other.pages[0]?.exchange,
    related: exchanges(base.pages.slice(0, 1)),
  };
  return basedOn(v, base, other);
}

/**
 * PAG-PARTITION: the pages of a walk at offsets 0, L, 2L, … concatenate to the limit-100 enumeration `reference`,
 * in its order: no record twice, none missing, each page the matching slice. When the enumeration was capped,
 * only the part it covers is compared.
 */
export function walkViolation(
  w: Pick<ResultSet, 'pages' | 'limit'>,
  reference: ResultSet,
  idOf: IdOf,
): Violation | undefined {
  return basedOn(walkDifference(w, reference, idOf), reference);
}

function walkDifference(
  w: Pick<ResultSet, 'pages' | 'limit'>,
  reference: ResultSet,
  idOf: IdOf,
): Violation | undefined {
  const { pages, limit } = w;
  const seen = new Map<string, ResultSet['pages'][number]>();
  const walked: string[] = [];
  for (const page of pages) {
    const env = readEnvelope(page.exchange);
    if (!env) {
      return {
        rule: 'PAG-PARTITION',
        expected: `HTTP 200 listing at offset ${page.offset}, limit ${limit}`,
        received: excerpt(page.exchange),
        exchange: page.exchange,
      };
    }
    for (const record of env.data) {
      const id = idOf(record);
      const first = seen.get(id);
      if (first) {
        return {
          rule: 'PAG-PARTITION',
          expected: `pages at limit ${limit} hold each record once`,
          received: `record ${shortId(id)} on the pages at offset ${first.offset} and ${page.offset}`,
          exchange: page.exchange,
          related: first === page ? [] : [first.exchange],
        };
      }
      seen.set(id, page);
      walked.push(id);
    }
  }
  const expected = reference.records.slice(0, pages.length * limit).map(idOf);
  const pageAt = (position: number) =>
    pages[Math.min(Math.floor(position / limit), pages.length - 1)] as ResultSet['pages'][number];
  const missing = expected.filter((id) => !seen.has(id));
  if (missing.length > 0) {
    const at = expected.indexOf(missing[0] as string);
    return {
      rule: 'PAG-PARTITION',
      expected: `pages at limit ${limit} hold every record of the limit-100 enumeration`,
      received: `${missing.length} missing: ${showIds(missing)} (the first belongs at position ${at})`,
      exchange: pageAt(at).exchange,
    };
  }
  const compared = reference.complete ? walked : walked.slice(0, expected.length);
  const differs = expected.findIndex((id, i) => compared[i] !== id);
  if (differs < 0 && compared.length === expected.length) return undefined;
  const at = differs >= 0 ? differs : expected.length;
  const page = pageAt(at);
  const show = (id: string | undefined) => (id === undefined ? 'nothing' : shortId(id));
  return {
    rule: 'PAG-PARTITION',
    expected: `the page at offset ${page.offset}, limit ${limit} is records ${page.offset}..${page.offset + limit - 1} of the limit-100 enumeration`,
    received: `position ${at} holds ${show(compared[at])} instead of ${show(expected[at])}`,
    exchange: page.exchange,
  };
}

/**
 * PAG-PARTITION: a window (the offset sent, the limit in force) holds the matching slice of the limit-100
 * enumeration `reference`. When the enumeration was capped, only the part it covers is compared.
 */
export function sliceViolation(
  e: Exchange,
  window: { offset: number; limit: number },
  reference: ResultSet,
  idOf: IdOf,
): Violation | undefined {
  const env = readEnvelope(e);
  if (!env) return undefined; // not a usable 200: other checks judge it
  const last = window.offset + window.limit - 1;
  const want = reference.records.slice(window.offset, last + 1).map(idOf);
  const all = env.data.map(idOf);
  const got = reference.complete ? all : all.slice(0, want.length);
  if (got.length === want.length && want.every((id, i) => got[i] === id)) return undefined;
  const differs = want.findIndex((id, i) => got[i] !== id);
  const page = Math.floor(window.offset / 100);
  const v: Violation = {
    rule: 'PAG-PARTITION',
    expected: `records ${window.offset}..${last} of the limit-100 enumeration: ${want.length} records (${showIds(want)})`,
    received: `${got.length} records (${showIds(got)}), first difference at window position ${differs >= 0 ? differs : want.length}`,
    exchange: e,
    related: exchanges(reference.pages.slice(page, page + 1)),
  };
  return derive(basedOn(v, reference), pastEndBasis(e));
}
