/**
 * The fidelity cases: one deterministic list of requests built from a seed before any request, with the suite's own
 * request builders and arbitraries, each naming the rule its answer as a whole informs. Offsets that only make sense
 * against data are kept relative, and each target places them against its own `total`; a request that depends on a
 * target's own ids (an unknown merchant, a spelling of its merchant's id) is described, and each target spells it
 * with its own.
 */
import fc from 'fast-check';
import { accessCases, authOf } from '../core/generate/access-cases.ts';
import * as arbitrary from '../core/generate/arbitraries.ts';
import { oddValueArb } from '../core/generate/odd-input.ts';
import { SPELLING_CLASSES } from '../core/generate/spelling-classes.ts';
import type { AccessCase } from '../core/model/access.ts';
import { type Collection, PAYMENTS } from '../core/model/collection.ts';
import { authLabel, KEY_VARS } from '../core/model/credentials.ts';
import { DEPTH_PROFILES } from '../core/model/depth.ts';
import type { QueryPairs } from '../core/model/exchange.ts';
import { describeRequest, type FieldFilter, MAX_LIMIT, type PageRequest } from '../core/model/listing.ts';
import { ACCESS_RULES, type RuleId } from '../core/model/rules.ts';
import type { Target } from '../core/model/target.ts';

/** An offset kept relative: as is (0, absurd offsets), a share of `total` (inside), or a distance from its end. */
type Offset = { abs: number } | { share: number } | { end: number };
type CaseWindow = Omit<PageRequest, 'offset'> & { offset?: Offset };
/** A request neither a listing window nor the access matrix makes: a path the spec does not show, a spelling. */
type OtherRequest =
  | { kind: 'unknown-path'; path: 'status sibling' | 'other version'; key: boolean }
  | { kind: 'spelling'; klass: string };
/**
 * `rule`: what the status informs; `needs`: variables both files must set. The test key's sandbox listing is a
 * `window` or `pairs` sent as drawn (`cap`: the limit meant, if written plainly); else `access` or `other`.
 * `collection`: another collection than payments (its name), whose listing the window, pairs or access case reads.
 */
export type Case = { id: string; rule: RuleId; label: string; needs: string[]; access?: AccessCase } & {
  window?: CaseWindow;
  pairs?: QueryPairs;
  cap?: number | 'notation';
  unknownStatus?: boolean;
  other?: OtherRequest;
  collection?: string;
};

/** The `total` windows are drawn against, before their offsets are made relative. */
export const NOMINAL = 1000;
export function relative(o: number): Offset {
  if (o === 0 || o >= arbitrary.ABSURD_OFFSET) return { abs: o };
  return o >= NOMINAL - 1 ? { end: o - NOMINAL } : { share: o / NOMINAL };
}
export function place(o: Offset, total: number): number {
  if ('abs' in o) return o.abs;
  if ('end' in o) return Math.max(0, total + o.end);
  return Math.max(0, Math.min(Math.floor(o.share * total), total - 1));
}
export function describeWindow(w: CaseWindow): string {
  const rest = describeRequest({ ...w, offset: undefined });
  const o = w.offset;
  if (o === undefined) return rest;
  const end = 'end' in o ? `total${o.end > 0 ? '+' : ''}${o.end || ''}` : '';
  const at = 'abs' in o ? o.abs : 'share' in o ? `⌊${o.share}·total⌋` : end;
  return `offset=${at}${rest.startsWith('(') ? '' : ` ${rest}`}`;
}

/** Keys and merchants in every slot: the access cases do not depend on what the two files configure. */
const EVERY_SLOT = {
  keys: { test: 'sk_test_a1', live: 'sk_live_a2', restricted: 'sk_test_a3', revoked: 'sk_test_a4', old: 'sk_live_a5' },
  merchants: { sandbox: 'sandbox', live: 'live', otherSandbox: 'otherSandbox' },
  // The query shapes of the access matrix: the default run's, at the default limit of the spec's examples.
  defaultLimit: 10,
  depth: DEPTH_PROFILES.standard,
} as Target;
const MERCHANTS: Record<string, string[]> = { live: ['LIVE_MERCHANT_ID'], otherSandbox: ['OTHER_SANDBOX_MERCHANT_ID'] };

type Draft = Omit<Case, 'id'>;

/** The status the spec names (§3), tried first; a filter on payments' status. */
const SPEC_STATUS = PAYMENTS.filters[0]?.named?.[0] ?? 'COMPLETED';
const status = (value: string): FieldFilter => ({ field: 'status', value });
type Sample = <T>(a: fc.Arbitrary<T>, n: number, salt: number) => T[];

/** A window of a listing, with the rule its status informs. */
function windowCase(w: PageRequest, known: readonly string[], max: number, collection?: string): Draft {
  const window = { ...w, offset: w.offset === undefined ? undefined : relative(w.offset) };
  const value = w.filter?.value;
  const unknownStatus = value !== undefined && !known.includes(value);
  const rule = (w.limit ?? 0) > max ? 'LIM-CAP' : unknownStatus ? 'FLT-STATUS' : 'ENV-SCHEMA';
  return {
    rule,
    label: describeWindow(window),
    needs: [],
    window,
    unknownStatus,
    ...(collection ? { collection } : {}),
  };
}

/** Up to `runs` cases of each rule of the access matrix (the examples of `accessCases`). */
function accessDrafts(sample: Sample, runs: number): Draft[] {
  const out: Draft[] = [];
  for (const rule of ACCESS_RULES) {
    const cases = accessCases(EVERY_SLOT, rule, PAYMENTS, status(SPEC_STATUS));
    // A limit over the cap is LIM-CAP's difference (its own drafts): the access rules' cases stay within it.
    const examples = typeof cases === 'string' ? [] : cases.examples.filter((c) => (c.query.limit ?? 0) <= MAX_LIMIT);
    const n = Math.min(runs, examples.length);
    for (const access of sample(fc.shuffledSubarray(examples, { minLength: n, maxLength: n }), 1, 4)[0] ?? []) {
      const { credential: cred, endpoint, merchant, query } = access;
      const verb = `${access.method ?? 'GET'}${access.preflight ? ' (CORS pre-flight)' : ''}`;
      const where = endpoint === 'status' ? `${verb} /merchant/status` : `${verb} the ${merchant} merchant's payments`;
      const q = Object.keys(query).length > 0 ? ` ${describeRequest(query)}` : '';
      const label = `${authLabel(authOf(access))} on ${where}${q}`;
      const key = cred.kind === 'key' && cred.slot !== 'test' ? [KEY_VARS[cred.slot]] : [];
      out.push({ rule, label, needs: [...key, ...((endpoint === 'list' && MERCHANTS[merchant]) || [])], access });
    }
  }
  return out;
}

/** Paths the spec does not show (without a key, and with the test key), and a spelling of the merchant's id per class. */
function otherDrafts(): Draft[] {
  const paths = (['status sibling', 'other version'] as const).flatMap((path) =>
    [false, true].map(
      (key): Draft => ({
        rule: 'ADV-UNKNOWN-PATH',
        label: `${key ? 'Authorization: Bearer $API_TEST_KEY' : 'no Authorization header'} on a path the spec does not show (${path})`,
        needs: [],
        other: { kind: 'unknown-path', path, key },
      }),
    ),
  );
  // A spelling a target resolves to the merchant serves it (the test key's 200); one it does not, 404 (or 403).
  const spellings = SPELLING_CLASSES.map(
    ({ name: klass }): Draft => ({
      rule: 'MODE-TEST-SANDBOX',
      label: `Authorization: Bearer $API_TEST_KEY on the sandbox merchant's id in ${klass}`,
      needs: [],
      other: { kind: 'spelling', klass },
    }),
  );
  return [...paths, ...spellings];
}

/**
 * The cases of a seed: windows (fixed edges, `requestArb`, unknown statuses), over-cap limits in any notation, odd
 * values, up to `runs` cases per rule of the access matrix, paths the spec does not show and spellings of the
 * merchant's id; then, for each other collection, its own. `statuses` (seen on the targets) are never "unknown".
 */
export function buildCases(
  seed: number,
  runs: number,
  statuses: readonly string[] = [],
  collections: readonly CollectionCases[] = [],
): Case[] {
  const sample: Sample = (a, n, salt) => fc.sample(a, { seed: seed + salt, numRuns: n });
  const known = [...new Set([SPEC_STATUS, ...statuses])];
  const out: Draft[] = [];
  const edges: PageRequest[] = [{}, { offset: 0, limit: MAX_LIMIT }, { offset: NOMINAL, limit: 10 }];
  const field = { field: 'status', known, exactCase: true };
  const unknown = sample(arbitrary.unknownValueArb(field), Math.ceil(runs / 4), 1).map((v) => ({ filter: status(v) }));
  const drawn = sample(arbitrary.requestArb(NOMINAL, [field], ['amount', '-amount']), runs, 0);
  const windows: PageRequest[] = [...edges, ...drawn, ...unknown];
  for (const w of windows) out.push(windowCase(w, known, MAX_LIMIT));
  // The plain limit just over the cap first, then notations drawn from every one a number may be written in.
  const plainOver = {
    notation: 'plain' as const,
    value: MAX_LIMIT + 1,
    pairs: arbitrary.writeLimit('plain', MAX_LIMIT + 1),
  };
  for (const { notation, value, pairs } of [
    plainOver,
    ...sample(arbitrary.overCapNotationArb(), Math.ceil(runs / 3), 2),
  ]) {
    const label = `${pairs.map(([k, v]) => `${k}=${v}`).join('&')} (${notation})`;
    out.push({ rule: 'LIM-CAP', label, needs: [], pairs, cap: notation === 'plain' ? value : 'notation' });
  }
  for (const { label, pairs } of sample(oddValueArb({ filter: status(SPEC_STATUS), sort: 'amount' }), runs, 3)) {
    out.push({ rule: 'INP-ROBUST', label, needs: [], pairs });
  }
  // A sort the spec does not name (§4.2 r6): refused, or served in some order.
  for (const sort of ['createdAt', '-no_such_field']) {
    out.push({
      rule: 'INP-ROBUST',
      label: `sort=${sort} (a sort the spec does not name)`,
      needs: [],
      pairs: [['sort', sort]],
    });
  }
  out.push(...accessDrafts(sample, runs), ...otherDrafts());
  for (const c of collections) out.push(...collectionDrafts(c, sample, runs));
  const seen = new Set<string>();
  const unique = out.filter((c) => {
    const id = `${c.collection ?? ''}\u0000${c.label}`;
    return !seen.has(id) && seen.add(id);
  });
  return unique.map((c, i) => ({ id: `c${String(i + 1).padStart(3, '0')}`, ...c }));
}

/** Another collection's part of the case list: its declaration, and the values of its filters seen on the targets. */
export interface CollectionCases {
  collection: Collection;
  values: Readonly<Record<string, readonly string[]>>;
}

/**
 * The cases of another collection: its windows (its filters with the values seen, its sorts), unknown filter values,
 * limits over its own maximum, a few odd values, and the access matrix's list cases moved onto its path (the same
 * credentials, merchants and methods; its own filter and sort in place of the payments').
 */
function collectionDrafts({ collection: c, values }: CollectionCases, sample: Sample, runs: number): Draft[] {
  const max = c.maxLimit ?? MAX_LIMIT;
  const filters = c.filters.flatMap((f) => (values[f.field] ?? []).map((value) => ({ field: f.field, value })));
  const sorts = c.sorts.flatMap((s) => [s.field, `-${s.field}`]);
  const known = filters.map((f) => f.value);
  const field = c.filters[0]?.field;
  const unknown = field
    ? [arbitrary.noSuchValue(field), ...arbitrary.patternValues(known.slice(0, 3), new Set(known))]
        .slice(0, Math.ceil(runs / 4))
        .map((value): PageRequest => ({ filter: { field, value } }))
    : [];
  const over = [max + 1, 2 * max, 1000].map((limit): PageRequest => ({ offset: 0, limit }));
  const byField = c.filters.flatMap((f) =>
    values[f.field]?.length ? [{ field: f.field, known: values[f.field] ?? [] }] : [],
  );
  const windows = [{}, ...sample(arbitrary.requestArb(NOMINAL, byField, sorts), runs, 5), ...unknown, ...over];
  const out = windows.map((w) => windowCase(w, known, max, c.name));
  for (const { label, pairs } of sample(oddValueArb({}), Math.ceil(runs / 2), 6)) {
    if (pairs.every(([k]) => k === 'offset' || k === 'limit'))
      out.push({ rule: 'INP-ROBUST', label, needs: [], pairs, collection: c.name });
  }
  const moved = (q: PageRequest): PageRequest => ({
    ...(q.offset === undefined ? {} : { offset: q.offset }),
    ...(q.limit === undefined ? {} : { limit: Math.min(q.limit, max) }),
    ...(q.filter !== undefined && filters[0] ? { filter: filters[0] } : {}),
    ...(q.sort !== undefined && sorts[0] ? { sort: q.sort.startsWith('-') ? `-${c.sorts[0]?.field}` : sorts[0] } : {}),
  });
  for (const d of accessDrafts(sample, Math.ceil(runs / 2))) {
    if (d.access?.endpoint !== 'list' || d.access.preflight) continue;
    const access = { ...d.access, query: moved(d.access.query), collection: c };
    const q = Object.keys(access.query).length > 0 ? ` ${describeRequest(access.query)}` : '';
    const label = `${d.label.replace(/ payments.*$/, ` ${c.name}`)}${q}`;
    out.push({ ...d, label, access, collection: c.name });
  }
  return out;
}
