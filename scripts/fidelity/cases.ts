/**
 * The fidelity case list: one deterministic list from a seed, built before any request and sent unchanged to
 * both targets. Offsets that only make sense against a data set ("last page", "past the end") are kept
 * relative to each target's own `total` and resolved per target when the request is built.
 */
import fc from 'fast-check';
import {
  ABSURD_OFFSET,
  inCapLimitArb,
  oddValueArb,
  overCapLimitArb,
  pageRequestArb,
  unknownStatusArb,
} from '../../fixtures/arbitraries.ts';
import type { KeySlot } from '../../fixtures/config.ts';
import { KEY_VARS } from '../../fixtures/config.ts';
import type { QueryPairs } from '../../fixtures/http.ts';
import { describeRequest, MAX_LIMIT, type PageRequest, requestQuery, SPEC_STATUS } from '../../fixtures/listing.ts';
import type { RuleId } from '../../fixtures/rules.ts';

/** An offset, absolute or relative to the target's `total` of the listing. */
export type OffsetSpec =
  | { at: 'abs'; n: number }
  /** ⌊f·total⌋, at most total − 1: a position inside the data. */
  | { at: 'frac'; f: number }
  /** total + delta (never below 0): total − 1 is the last record, total the end, beyond it past the end. */
  | { at: 'end'; delta: number }
  /** The first offset of the last page at the limit sent (or the target's default limit). */
  | { at: 'last-page' };

/** A listing query whose offset may be relative. */
export interface CaseWindow {
  offset?: OffsetSpec;
  limit?: number;
  status?: string;
  sort?: string;
}

export type AuthSpec =
  | { kind: 'none' }
  /** `mutation`: the name of a key-mutations.ts derivation, or 'basic' (Base64 Basic credentials). */
  | { kind: 'key'; slot: KeySlot; mutation?: string; scheme?: string };

/** Which merchant: the file's SANDBOX_MERCHANT_ID, LIVE_MERCHANT_ID, or a never-created id derived from the first. */
export type MerchantSpec = 'sandbox' | 'live' | 'unknown';

export type CaseKind = 'window' | 'over-cap' | 'filter' | 'unknown-status' | 'sort' | 'odd' | 'auth' | 'status';

export interface Case {
  /** c01, c02, … in list order. */
  id: string;
  /** The rule the case informs; differences in the response as a whole (status, error body) count here. */
  rule: RuleId;
  kind: CaseKind;
  label: string;
  path: 'list' | 'status';
  merchant: MerchantSpec;
  auth: AuthSpec;
  /** A structured window (offset possibly relative), or `raw` pairs sent exactly as given. */
  window?: CaseWindow;
  raw?: QueryPairs;
  /** Variables both files must set for the case to be sent. */
  needs: string[];
}

/** The tampered-key derivations tried (AUTH-INVALID, AUTH-FIRST): names of fixtures/key-mutations.ts templates. */
export const TAMPERINGS = [
  'with the middle hash character flipped',
  'truncated by one character',
  'with every hash character shifted (an unknown key of valid format)',
] as const;
export const BASIC = 'basic';

/** Nominal `total` the window arbitraries are sampled against; offsets are then expressed relative to it. */
const NOMINAL_TOTAL = 1000;

export interface CaseOptions {
  seed: number;
  /** How many windows and odd inputs are sampled (default 12). */
  runs: number;
}

export function describeOffset(o: OffsetSpec): string {
  switch (o.at) {
    case 'abs':
      return String(o.n);
    case 'frac':
      return `⌊${o.f}·total⌋`;
    case 'end':
      return o.delta === 0 ? 'total' : o.delta < 0 ? `total${o.delta}` : `total+${o.delta}`;
    case 'last-page':
      return 'last page';
  }
}

export function describeCaseWindow(w: CaseWindow): string {
  const rest: PageRequest = {};
  if (w.limit !== undefined) rest.limit = w.limit;
  if (w.status !== undefined) rest.status = w.status;
  if (w.sort !== undefined) rest.sort = w.sort;
  const tail = Object.keys(rest).length > 0 ? describeRequest(rest) : '';
  if (w.offset === undefined) return tail || '(no query parameters)';
  return [`offset=${describeOffset(w.offset)}`, tail].filter(Boolean).join(' ');
}

/** The offset `o` of a window sampled against NOMINAL_TOTAL, re-expressed relative to `total`. */
function relativeOffset(o: number): OffsetSpec {
  if (o === 0 || o >= ABSURD_OFFSET) return { at: 'abs', n: o };
  if (o >= NOMINAL_TOTAL - 1) return { at: 'end', delta: o - NOMINAL_TOTAL };
  return { at: 'frac', f: Number((o / NOMINAL_TOTAL).toFixed(3)) };
}

const pastEnd = (o: OffsetSpec | undefined) =>
  o !== undefined && ((o.at === 'end' && o.delta >= 0) || (o.at === 'abs' && o.n >= ABSURD_OFFSET));

/** The rule a structured window informs, for differences in the response as a whole. */
export function windowRule(w: CaseWindow): RuleId {
  if (w.limit !== undefined && w.limit > MAX_LIMIT) return 'LIM-CAP';
  if (w.status !== undefined && w.status !== SPEC_STATUS) return 'FLT-STATUS';
  if (pastEnd(w.offset)) return 'PAG-EMPTY';
  if (w.limit === undefined) return 'PAG-DEFAULT';
  return 'ENV-SCHEMA';
}

function windowKind(w: CaseWindow): CaseKind {
  if (w.limit !== undefined && w.limit > MAX_LIMIT) return 'over-cap';
  if (w.status !== undefined && w.status !== SPEC_STATUS) return 'unknown-status';
  if (w.sort !== undefined) return 'sort';
  if (w.status !== undefined) return 'filter';
  return 'window';
}

const slotNeeds = (slot: KeySlot) => (slot === 'test' ? [] : [KEY_VARS[slot]]);

export function buildCases({ seed, runs }: CaseOptions): Case[] {
  const out: Omit<Case, 'id'>[] = [];
  const test: AuthSpec = { kind: 'key', slot: 'test' };
  const listing = (w: CaseWindow, rule = windowRule(w), kind = windowKind(w)) =>
    out.push({
      rule,
      kind,
      label: describeCaseWindow(w),
      path: 'list',
      merchant: 'sandbox',
      auth: test,
      window: w,
      needs: [],
    });
  const sample = <T>(arb: fc.Arbitrary<T>, n: number, salt: number): T[] =>
    n > 0 ? fc.sample(arb, { seed: seed + salt, numRuns: n }) : [];

  // Windows: fixed edges first, then sampled ones (ENV-SCHEMA, PAG-ECHO, PAG-SIZE, PAG-DEFAULT, PAG-EMPTY).
  listing({}, 'MODE-TEST-SANDBOX');
  listing({ offset: { at: 'abs', n: 0 }, limit: 10 });
  listing({ offset: { at: 'abs', n: 0 }, limit: MAX_LIMIT });
  listing({ offset: { at: 'last-page' }, limit: 10 }, 'PAG-SIZE');
  listing({ offset: { at: 'end', delta: 0 }, limit: 10 });
  for (const w of sample(pageRequestArb(NOMINAL_TOTAL, [SPEC_STATUS]), runs, 0)) {
    const cw: CaseWindow = {};
    if (w.offset !== undefined) cw.offset = relativeOffset(w.offset);
    if (w.limit !== undefined) cw.limit = w.limit;
    if (w.status !== undefined) cw.status = w.status;
    if (w.sort !== undefined) cw.sort = w.sort;
    listing(cw);
  }
  // Over the cap (LIM-CAP): clamp or 4xx.
  listing({ limit: MAX_LIMIT + 1 });
  for (const limit of sample(overCapLimitArb(), Math.max(2, Math.ceil(runs / 4)), 1)) listing({ limit });
  // Filters (FLT-STATUS): the named status, and values naming no status (empty or 4xx).
  listing({ status: SPEC_STATUS, limit: MAX_LIMIT });
  listing({ offset: { at: 'frac', f: 0.1 }, limit: 10, status: SPEC_STATUS });
  for (const status of sample(unknownStatusArb([SPEC_STATUS]), Math.max(2, Math.ceil(runs / 4)), 2))
    listing({ status });
  // Sorts (SRT-AMOUNT, SRT-FILTER).
  listing({ limit: MAX_LIMIT, sort: 'amount' }, 'SRT-AMOUNT');
  listing({ limit: MAX_LIMIT, sort: '-amount' }, 'SRT-AMOUNT');
  const sortArb = fc.record({
    f: fc.integer({ min: 0, max: 9 }),
    limit: inCapLimitArb(),
    sort: fc.constantFrom('amount', '-amount'),
  });
  for (const s of sample(sortArb, Math.max(2, Math.ceil(runs / 4)), 3)) {
    listing({ offset: { at: 'frac', f: s.f / 10 }, limit: s.limit, sort: s.sort }, 'SRT-AMOUNT');
  }
  listing({ limit: MAX_LIMIT, status: SPEC_STATUS, sort: '-amount' }, 'SRT-FILTER');
  // Odd inputs (INP-ROBUST), sent exactly as drawn.
  for (const odd of sample(oddValueArb(), runs, 4)) {
    out.push({
      rule: 'INP-ROBUST',
      kind: 'odd',
      label: odd.label,
      path: 'list',
      merchant: 'sandbox',
      auth: test,
      raw: odd.pairs,
      needs: [],
    });
  }

  // Keys, modes, merchants.
  const auth = (rule: RuleId, label: string, a: AuthSpec, more: Partial<Omit<Case, 'id'>> = {}) => {
    const path = more.path ?? 'list';
    const merchant = more.merchant ?? 'sandbox';
    const needs = [
      ...(a.kind === 'key' ? slotNeeds(a.slot) : []),
      ...(merchant === 'live' ? ['LIVE_MERCHANT_ID'] : []),
    ];
    out.push({ rule, kind: path === 'status' ? 'status' : 'auth', label, path, merchant, auth: a, needs, ...more });
  };
  auth('AUTH-MISSING', 'no Authorization header, payments list', { kind: 'none' });
  auth('AUTH-MISSING', 'no Authorization header, /merchant/status', { kind: 'none' }, { path: 'status' });
  for (const mutation of TAMPERINGS) {
    auth('AUTH-INVALID', `API_TEST_KEY ${mutation}, payments list`, { kind: 'key', slot: 'test', mutation });
  }
  auth(
    'AUTH-INVALID',
    `API_TEST_KEY ${TAMPERINGS[0]}, /merchant/status`,
    { kind: 'key', slot: 'test', mutation: TAMPERINGS[0] },
    { path: 'status' },
  );
  auth(
    'AUTH-FIRST',
    `API_TEST_KEY ${TAMPERINGS[0]}, unknown merchant`,
    { kind: 'key', slot: 'test', mutation: TAMPERINGS[0] },
    { merchant: 'unknown' },
  );
  auth('AUTH-REVOKED', 'API_REVOKED_KEY, payments list', { kind: 'key', slot: 'revoked' });
  auth('AUTH-FORBIDDEN', 'API_RESTRICTED_KEY, payments list', { kind: 'key', slot: 'restricted' });
  auth('MODE-LIVE-SANDBOX', 'API_LIVE_KEY on SANDBOX_MERCHANT_ID', { kind: 'key', slot: 'live' });
  auth('MODE-TEST-LIVE', 'API_TEST_KEY on LIVE_MERCHANT_ID', test, { merchant: 'live' });
  auth('ADV-UNKNOWN-MERCHANT', 'API_TEST_KEY on a never-created merchant id', test, { merchant: 'unknown' });
  auth('ADV-SCHEME', 'API_TEST_KEY as Basic credentials', {
    kind: 'key',
    slot: 'test',
    mutation: BASIC,
    scheme: 'Basic',
  });
  auth('ADV-SCHEME', 'API_TEST_KEY bare, without a scheme', { kind: 'key', slot: 'test', scheme: '' });
  for (const slot of ['test', 'live', 'restricted'] as const) {
    auth('AUTH-STATUS', `${KEY_VARS[slot]}, /merchant/status`, { kind: 'key', slot }, { path: 'status' });
  }

  // One case per distinct request: samples may repeat a fixed edge or each other.
  const seen = new Set<string>();
  const unique = out.filter((c) => {
    const key = JSON.stringify([c.path, c.merchant, c.auth, c.window ?? null, c.raw ?? null]);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  return unique.map((c, i) => ({ id: `c${String(i + 1).padStart(2, '0')}`, ...c }));
}

/** The offset a relative spec stands for on a target with `total` records, at limit `limit`. */
export function resolveOffset(o: OffsetSpec, total: number, limit: number): number {
  switch (o.at) {
    case 'abs':
      return o.n;
    case 'frac':
      return Math.max(0, Math.min(Math.floor(o.f * total), total - 1));
    case 'end':
      return Math.max(0, total + o.delta);
    case 'last-page':
      return total === 0 ? 0 : Math.floor((total - 1) / limit) * limit;
  }
}

/** The query pairs of a case for one target (offsets resolved against its `total` and default limit). */
export function queryOf(c: Case, total: number, defaultLimit: number): { pairs: QueryPairs; offset?: number } {
  if (c.raw) return { pairs: c.raw };
  const w = c.window ?? {};
  const resolved: PageRequest = { ...w, offset: undefined };
  if (w.offset !== undefined) resolved.offset = resolveOffset(w.offset, total, w.limit ?? defaultLimit);
  const pairs = requestQuery(resolved);
  return resolved.offset === undefined ? { pairs } : { pairs, offset: resolved.offset };
}
