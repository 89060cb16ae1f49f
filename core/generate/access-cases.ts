/**
 * The access matrix's requests (core/model/access.ts): for each rule the access oracle (checks/access-oracle.ts) can
 * fix, the requests whose answer it fixes — method × credential × header spelling × endpoint × merchant × query shape —
 * as a fast-check arbitrary plus the examples always tried first (among them the HEAD and OPTIONS classes of
 * safe-methods.ts and the header grammar's coverage phase, auth-header.ts). core/run/access-property.ts sends them.
 */
import fc from 'fast-check';
import {
  type AccessCase,
  type AccessRule,
  type Credential,
  type Endpoint,
  isValidCredential,
  type KeyModes,
  type MerchantRole,
  type Spelling,
} from '../model/access.ts';
import { type Auth, asKey, authLabel, isLiveKey, type KeySlot, NO_AUTH, VALID_SLOTS } from '../model/credentials.ts';
import { describeRequest, type PageRequest, paymentsPath, SPEC_STATUS, STATUS_PATH } from '../model/listing.ts';
import type { Target } from '../model/target.ts';
import { aroundCoverage, aroundKeys, grammarSummary, otherSpellings, spellingArb } from './auth-header.ts';
import { keyMutations, neverCreatedId } from './key-mutations.ts';
import { type MethodForm, methodCoverage, methodCoverageSummary, methodFormArb } from './safe-methods.ts';

export const CANONICAL: Spelling = { scheme: 'Bearer', gap: ' ' };
/** The spellings of `Bearer <key>` a target must treat alike (scheme case), and two spaces (refusal allowed). */
export const SPELLINGS: readonly Spelling[] = [
  CANONICAL,
  { scheme: 'bearer', gap: ' ' },
  { scheme: 'BEARER', gap: ' ' },
  { scheme: 'bEARER', gap: ' ' },
  { scheme: 'Bearer', gap: '  ' },
];
/** Made-up header values (none is a secret): a scheme alone, junk, another scheme, no scheme. */
export const MALFORMED: readonly string[] = [
  'Bearer',
  'Bearer ',
  'Bearer not-a-key',
  'Bearer null',
  'Bearer undefined',
  'Token abc123',
  'not-a-key',
];
/** Every parameter of the listing at once: a check skipped for any one of them shows here. */
const FULL_QUERY: PageRequest = { offset: 1, limit: 5, status: SPEC_STATUS, sort: '-amount' };

/** A query of the listing: any subset of offset, limit, filter[status] and sort, with legal values. */
const queryArb: fc.Arbitrary<PageRequest> = fc
  .record(
    {
      offset: fc.integer({ min: 0, max: 60 }),
      limit: fc.integer({ min: 1, max: 100 }),
      status: fc.constant(SPEC_STATUS),
      sort: fc.constantFrom('amount', '-amount'),
    },
    { requiredKeys: [] },
  )
  .map((q) => q as PageRequest);

const known = (t: Target) => Object.values(t.merchants).filter((m): m is string => !!m);

/** The merchant id of a role; `unknown` is a never-created id shaped like the sandbox merchant's. */
export function merchantId(t: Target, role: MerchantRole): string {
  if (role === 'unknown') return neverCreatedId(t.merchants.sandbox, 4, known(t));
  return t.merchants[role] as string;
}

export function authOf(c: AccessCase): Auth {
  const cred = c.credential;
  if (cred.kind === 'none') return NO_AUTH;
  if (cred.kind === 'malformed') return { kind: 'literal', header: cred.header };
  const { scheme, gap, lead, trail } = c.spelling;
  return asKey(cred.slot, { mutation: cred.mutation, around: cred.around, scheme, gap, lead, trail });
}

export function pathOf(t: Target, c: AccessCase): string {
  return c.endpoint === 'status' ? STATUS_PATH : paymentsPath(merchantId(t, c.merchant));
}

export const describeCase = (t: Target, c: AccessCase) =>
  `${authLabel(authOf(c))} on ${c.method ?? 'GET'} ${pathOf(t, c)}${Object.keys(c.query).length ? ` ${describeRequest(c.query)}` : ''}${c.preflight ? ' as a CORS pre-flight' : ''}`;

/** The case sent in a method form (GET stays implicit). */
const inForm = (c: AccessCase, form: MethodForm): AccessCase =>
  form.method === 'GET' ? c : { ...c, method: form.method, ...(form.preflight ? { preflight: true } : {}) };

/** Which mode each configured key works in: test and live by their slot, the others by their prefix. */
export function keyModes(t: Target): KeyModes {
  return (slot) => (slot === 'live' || (slot !== 'test' && isLiveKey(t.keys[slot])) ? 'live' : 'test');
}

interface Space {
  credentials: Credential[];
  endpoints: Endpoint[];
  merchants: MerchantRole[];
  /** Keys with more around them in the header (auth-header.ts), drawn by the property phase besides `credentials`. */
  grammar?: Credential[];
}

/** Keys tried in every spelling, on both endpoints and both kinds of merchant, among the examples. */
const EVERY_SPELLING: readonly KeySlot[] = ['revoked', 'old', 'restricted'];
/**
 * The rules whose keys of EVERY_SPELLING also meet every other spelling class of the header grammar in the coverage
 * phase, where a spelling a target accepts could let a key further than `Bearer <key>`: a revoked key, the restricted
 * key on the list (elsewhere the property phase samples them).
 */
const GRAMMAR_SPELLED: readonly AccessRule[] = ['AUTH-REVOKED', 'AUTH-FORBIDDEN'];

const key = (slot: KeySlot): Credential => ({ kind: 'key', slot });

/** The request space of each rule, restricted to what the configuration has. */
function spaceOf(t: Target, rule: AccessRule): Space | undefined {
  const has = (slot: KeySlot) => t.keys[slot] !== undefined;
  const merchants: MerchantRole[] = ['sandbox', ...(['otherSandbox', 'live'] as const).filter((m) => !!t.merchants[m])];
  const sandboxes = merchants.filter((m) => m !== 'live');
  const live: MerchantRole[] = t.merchants.live ? ['live'] : [];
  const spaces: Record<AccessRule, Space> = {
    'AUTH-MISSING': {
      credentials: [{ kind: 'none' }, { kind: 'malformed', header: '' }],
      endpoints: ['status', 'list'],
      merchants: [...merchants, 'unknown'],
    },
    'AUTH-INVALID': {
      credentials: [
        ...MALFORMED.map((header): Credential => ({ kind: 'malformed', header })),
        ...(['test', 'live', 'restricted'] as const).filter(has).flatMap((slot) => mutationsOf(t, slot)),
      ],
      endpoints: ['status', 'list'],
      merchants,
      grammar: aroundKeys(t.keys, slotsOf(distinctKeys(t, [...VALID_SLOTS]))),
    },
    'AUTH-REVOKED': {
      credentials: distinctKeys(t, ['revoked', 'old']),
      endpoints: ['status', 'list'],
      merchants,
      grammar: aroundKeys(t.keys, slotsOf(distinctKeys(t, ['revoked', 'old']))),
    },
    'AUTH-FIRST': {
      credentials: [
        { kind: 'malformed', header: 'Bearer not-a-key' },
        ...mutationsOf(t, 'test'),
        ...distinctKeys(t, ['revoked']),
      ],
      endpoints: ['list'],
      merchants: ['unknown'],
      grammar: aroundKeys(t.keys, ['test']),
    },
    'AUTH-FORBIDDEN': { credentials: distinctKeys(t, ['restricted']), endpoints: ['list'], merchants },
    'AUTH-STATUS': {
      credentials: distinctKeys(t, ['test', 'live', 'restricted']),
      endpoints: ['status'],
      merchants: ['sandbox'],
    },
    'MODE-TEST-SANDBOX': { credentials: [key('test')], endpoints: ['list'], merchants: sandboxes },
    'MODE-LIVE-SANDBOX': { credentials: distinctKeys(t, ['live']), endpoints: ['list'], merchants: sandboxes },
    'MODE-TEST-LIVE': { credentials: [key('test')], endpoints: ['list'], merchants: live },
    'MODE-LIVE-LIVE': { credentials: distinctKeys(t, ['live']), endpoints: ['list'], merchants: live },
    'ADV-UNKNOWN-MERCHANT': {
      credentials: distinctKeys(t, ['test', 'live', 'restricted']),
      endpoints: ['list'],
      merchants: ['unknown'],
    },
  };
  const space = spaces[rule];
  return space.credentials.length > 0 && space.merchants.length > 0 ? space : undefined;
}

/** The configured keys of these slots, one per distinct value (the bundled mock's old key is its revoked key). */
function distinctKeys(t: Target, slots: KeySlot[]): Credential[] {
  const seen = new Set<string>();
  return slots
    .filter((s) => {
      const value = t.keys[s];
      if (value === undefined || seen.has(value)) return false;
      seen.add(value);
      return true;
    })
    .map(key);
}

const slotsOf = (keys: Credential[]) => keys.flatMap((c) => (c.kind === 'key' ? [c.slot] : []));

function mutationsOf(t: Target, slot: KeySlot): Credential[] {
  const issued = Object.values(t.keys).filter((k): k is string => !!k);
  return keyMutations(t.keys[slot] as string, issued).map((mutation) => ({ kind: 'key', slot, mutation }));
}

/**
 * The examples of a rule: every credential on the last endpoint and first merchant, canonically and without a query;
 * the full query on every endpoint and merchant; the keys of EVERY_SPELLING in every spelling on the status
 * endpoint, the sandbox merchant and the live merchant; the header grammar's coverage phase; and the methods phase
 * (every method form × endpoint × credential class, on the first merchant).
 */
function examplesOf(t: Target, rule: AccessRule, space: Space): AccessCase[] {
  const [endpoint, merchant] = [space.endpoints.at(-1) as Endpoint, space.merchants[0] as MerchantRole];
  const at = (
    credential: Credential,
    e: Endpoint,
    m: MerchantRole,
    query: PageRequest,
    spelling = CANONICAL,
  ): AccessCase => ({
    credential,
    spelling,
    endpoint: e,
    merchant: m,
    query,
  });
  const cases = space.credentials.map((c) => at(c, endpoint, merchant, {}));
  const places = space.endpoints.flatMap(
    (e): Array<{ e: Endpoint; m: MerchantRole }> =>
      e === 'status' ? [{ e, m: merchant }] : space.merchants.map((m) => ({ e, m })),
  );
  for (const { e, m } of places) cases.push(at(space.credentials[0] as Credential, e, m, FULL_QUERY));
  const spelled = space.credentials.filter((c) => c.kind === 'key' && !c.mutation && EVERY_SPELLING.includes(c.slot));
  const spelledPlaces = places.filter((p) => p.m !== 'otherSandbox');
  for (const c of spelled) {
    for (const { e, m } of spelledPlaces) {
      for (const spelling of SPELLINGS) cases.push(at(c, e, m, {}, spelling));
    }
  }
  // The header grammar's coverage phase (auth-header.ts), places in turn: those keys in every other spelling class
  // (GRAMMAR_SPELLED); for AUTH-INVALID, the valid keys with each thing a header may carry around a key.
  const turn = <T>(list: readonly T[], i: number) => list[i % list.length] as T;
  const spelledAt = (c: Credential, p: { e: Endpoint; m: MerchantRole }, s: Spelling) => at(c, p.e, p.m, {}, s);
  for (const c of GRAMMAR_SPELLED.includes(rule) ? spelled : []) {
    for (const [i, s] of otherSpellings(SPELLINGS).entries()) cases.push(spelledAt(c, turn(spelledPlaces, i), s));
  }
  if (rule === 'AUTH-INVALID') {
    for (const [i, { slot, spelling, around }] of aroundCoverage(
      t.keys,
      slotsOf(distinctKeys(t, [...VALID_SLOTS])),
    ).entries()) {
      cases.push(spelledAt(around ? { kind: 'key', slot, around } : key(slot), turn(places, i), spelling));
    }
  }
  for (const m of methodCoverage([...space.credentials, ...(space.grammar ?? [])], space.endpoints)) {
    cases.push(inForm(at(m.credential, m.endpoint, merchant, {}), m.form));
  }
  const seen = new Set<string>();
  return cases.filter((c) => {
    const id = JSON.stringify([
      c.method ?? 'GET',
      c.preflight ?? false,
      c.credential,
      c.spelling,
      c.endpoint,
      c.endpoint === 'status' ? '' : c.merchant,
      c.query,
    ]);
    if (seen.has(id)) return false;
    seen.add(id);
    return true;
  });
}

/** Random requests beyond the examples, per rule. */
export const RANDOM_RUNS = 10;

/** The requests of one rule: its examples and an arbitrary over its space; undefined when nothing is configured. */
export function accessCases(t: Target, rule: AccessRule) {
  const space = spaceOf(t, rule);
  if (!space) return undefined;
  const credentials = [...space.credentials, ...(space.grammar ?? [])];
  const arb = fc
    .record({
      form: methodFormArb,
      credential: fc.constantFrom(...credentials),
      // A valid key glued to its scheme is another credential (AUTH-INVALID): only spaces where no key is valid draw it.
      spelling: spellingArb(!credentials.some(isValidCredential)),
      endpoint: fc.constantFrom(...space.endpoints),
      merchant: fc.constantFrom(...space.merchants),
      query: queryArb,
    })
    .map(({ form, ...c }): AccessCase => inForm(c, form));
  const examples = examplesOf(t, rule, space);
  const methods = methodCoverageSummary(methodCoverage(credentials, space.endpoints));
  return { arb, examples, grammar: grammarSummary(examples.map(authOf)), methods };
}

/** What each rule's request space needs beyond the test key and the sandbox merchant (when nothing of it is set). */
export const NEEDED: Record<AccessRule, string> = {
  'AUTH-MISSING': 'nothing more',
  'AUTH-INVALID': 'nothing more',
  'AUTH-REVOKED': 'API_REVOKED_KEY or API_OLD_KEY',
  'AUTH-FIRST': 'nothing more',
  'AUTH-FORBIDDEN': 'API_RESTRICTED_KEY',
  'AUTH-STATUS': 'nothing more',
  'MODE-TEST-SANDBOX': 'nothing more',
  'MODE-LIVE-SANDBOX': 'API_LIVE_KEY',
  'MODE-TEST-LIVE': 'LIVE_MERCHANT_ID',
  'MODE-LIVE-LIVE': 'API_LIVE_KEY and LIVE_MERCHANT_ID',
  'ADV-UNKNOWN-MERCHANT': 'nothing more',
};
