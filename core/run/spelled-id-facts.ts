/**
 * What the run knows of the spellings of a merchant id (core/generate/spelled-ids.ts): the test key's answer
 * on each, asked once per worker (the coverage set in order, drawn spellings when a check needs them), whether the
 * target serves it, whether it resolved it to the merchant the id names, and the records of the canonical listings
 * to compare with. Every request goes through the one client.
 */

import type { ApiClient } from '../client/http.ts';
import { coverageSpellings, type MerchantSpelling, spelledPaymentsPath } from '../generate/spelled-ids.ts';
import type { MerchantRole, SpellingFacts } from '../model/access.ts';
import { PAYMENTS } from '../model/collection.ts';
import { type Auth, asKey } from '../model/credentials.ts';
import { type Exchange, is2xx } from '../model/exchange.ts';
import { envelopeOfJson, identity, listingOf, MAX_LIMIT, type PageRequest, requestQuery } from '../model/listing.ts';
import type { ResultSet } from '../model/result-set.ts';
import type { Target } from '../model/target.ts';
import type { CheckContext } from './check.ts';
import { enumerate, Unusable } from './walk.ts';

export type Role = Exclude<MerchantRole, 'unknown'>;

/** Every spelled request asks for a full page, so that its records say whose listing it is. */
export const SPELLING_QUERY: PageRequest = { limit: MAX_LIMIT };

/** The configured merchants, sandbox first. */
export function spelledMerchants(t: Target): Array<{ role: Role; id: string }> {
  const roles: Role[] = ['sandbox', 'otherSandbox', 'live'];
  return roles.flatMap((role) => (t.merchants[role] ? [{ role, id: t.merchants[role] as string }] : []));
}

export const roleOf = (t: Target, id: string): Role =>
  (spelledMerchants(t).find((m) => m.id === id) as { role: Role }).role;

/** A spelling and the test key's answer there. */
export interface AskedSpelling {
  spelling: MerchantSpelling;
  role: Role;
  answer: Exchange;
  served: boolean;
}

export const spelledPath = (s: MerchantSpelling) => spelledPaymentsPath(s.segment);

/** One spelling with one credential, with the spelled requests' query. */
export function sendSpelled(api: ApiClient, s: MerchantSpelling, auth: Auth): Promise<Exchange> {
  return api.get(spelledPath(s), { auth, query: requestQuery(SPELLING_QUERY) });
}

const answers = new WeakMap<ApiClient, Map<string, Promise<Exchange>>>();

/** The test key's answer on a spelling, asked once per worker. */
export async function askSpelling(api: ApiClient, t: Target, s: MerchantSpelling): Promise<AskedSpelling> {
  let seen = answers.get(api);
  if (!seen) {
    seen = new Map();
    answers.set(api, seen);
  }
  const path = spelledPath(s);
  let answer = seen.get(path);
  if (!answer) {
    answer = sendSpelled(api, s, asKey('test'));
    seen.set(path, answer);
    answer.catch(() => seen?.delete(path));
  }
  const e = await answer;
  return { spelling: s, role: roleOf(t, s.merchant), answer: e, served: is2xx(e.status) };
}

const coverage = new WeakMap<ApiClient, Promise<AskedSpelling[]>>();

/**
 * The merchants of the coverage set: every configured one; at strength 1 (quick) one of each mode (the other sandbox
 * merchant is the sandbox's mode), each class once with the merchants in turn.
 */
const coverageMerchants = (t: Target) =>
  spelledMerchants(t)
    .filter((m) => t.depth.strength === 2 || m.role !== 'otherSandbox')
    .map((m) => m.id);

/**
 * One spelling of every class on the merchant of `role`, the member the coverage set takes there: at strength 1, where
 * the set takes the merchants in turn, what a check about that merchant alone (the role its rule names) adds.
 */
export function classesOn(t: Target, role: Role): MerchantSpelling[] {
  const id = t.merchants[role] as string;
  const merchants = coverageMerchants(t);
  return coverageSpellings(merchants.includes(id) ? merchants : [...merchants, id], { only: id });
}

/** The coverage set with the test key's answers, asked in order once per worker. */
export function askedCoverage(api: ApiClient, t: Target): Promise<AskedSpelling[]> {
  let found = coverage.get(api);
  if (!found) {
    found = (async () => {
      const out: AskedSpelling[] = [];
      const inTurn = t.depth.strength === 1;
      for (const s of coverageSpellings(coverageMerchants(t), { inTurn })) out.push(await askSpelling(api, t, s));
      return out;
    })();
    coverage.set(api, found);
    found.catch(() => coverage.delete(api));
  }
  return found;
}

/** The records of an answer (none when it is not a listing). */
/** The records a 2xx answer lists (any 2xx: a 203 or 206 carrying a listing shows its records as a 200 would). */
export const recordsOf = (e: Exchange): unknown[] => (is2xx(e.status) ? envelopeOfJson(e.json)?.data : undefined) ?? [];

/** A canonical listing (memoised per worker), or undefined when it is not readable (another rule judges that). */
export async function canonicalSet(
  ctx: CheckContext,
  merchant: string,
  slot: 'test' | 'live',
): Promise<ResultSet | undefined> {
  try {
    return await enumerate(ctx, listingOf(PAYMENTS, merchant, slot));
  } catch (error) {
    if (error instanceof Unusable) return undefined;
    throw error;
  }
}

const canonicalRecords = async (ctx: CheckContext, merchant: string, slot: 'test' | 'live') =>
  (await canonicalSet(ctx, merchant, slot))?.records;

/** How many of `records` are among `set` (by the reading's record identity over both). */
function shared(records: readonly unknown[], set: readonly unknown[]): number {
  if (records.length === 0 || set.length === 0) return 0;
  const id = identity([...records, ...set]);
  const inSet = new Set(set.map(id));
  return records.filter((r) => inSet.has(id(r))).length;
}

/**
 * The facts a spelled answer is judged on. `resolved`: the test key's page there holds a record of the merchant's
 * own listing (an empty listing cannot show it, so it is never taken as resolved). `forbiddenRecords`: for the
 * restricted key every record (it may list none), for the live key the records of the sandbox merchants' listings.
 */
export async function factsOf(
  ctx: CheckContext,
  learned: AskedSpelling,
  slot: 'test' | 'live' | 'restricted' | undefined,
  answer: Exchange,
): Promise<SpellingFacts> {
  const { served } = learned;
  const own = served ? await canonicalRecords(ctx, learned.spelling.merchant, 'test') : undefined;
  const resolved = own !== undefined && shared(recordsOf(learned.answer), own) > 0;
  let forbiddenRecords = 0;
  const records = is2xx(answer.status) ? recordsOf(answer) : [];
  if (records.length > 0 && slot === 'restricted') forbiddenRecords = records.length;
  if (records.length > 0 && slot === 'live') {
    for (const m of spelledMerchants(ctx.target).filter((x) => x.role !== 'live')) {
      forbiddenRecords += shared(records, (await canonicalRecords(ctx, m.id, 'test')) ?? []);
    }
  }
  return { served, resolved, forbiddenRecords };
}
