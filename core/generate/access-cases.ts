/**
 * The access matrix's requests (core/model/access.ts): for each access rule, on each collection, the requests whose
 * answer the rule fixes — method × credential × header spelling × endpoint × merchant × query — from the cells the
 * catalogue declares (core/model/rules.ts), as a fast-check arbitrary plus the examples always tried first (among them
 * the HEAD and OPTIONS classes of safe-methods.ts, the header grammar's coverage phase, auth-header.ts, and the
 * query-shape phase, access-coverage.ts: a covering array at the depth's strength). The query is the collection's own
 * (its first filter, its sorts, its maximum limit). core/run/access-property.ts sends them.
 */
import fc from 'fast-check';
import {
  type AccessCase,
  type Credential,
  type Endpoint,
  isValidCredential,
  type KeyModes,
  type MerchantRole,
} from '../model/access.ts';
import { type Collection, collectionPath, directions } from '../model/collection.ts';
import {
  type Auth,
  asKey,
  authLabel,
  type HeaderSpelling,
  isLiveKey,
  KEY_VARS,
  type KeySlot,
  NO_AUTH,
} from '../model/credentials.ts';
import { describeRequest, type FieldFilter, MAX_LIMIT, type PageRequest, STATUS_PATH } from '../model/listing.ts';
import { type AccessCells, type AccessRule, accessCells } from '../model/rules.ts';
import type { Target } from '../model/target.ts';
import { accessShapes, coverAtOnce, shapeSummary } from './access-coverage.ts';
import { aroundCoverage, aroundKeys, grammarSummary, otherSpellings, spellingArb } from './auth-header.ts';
import { keyMutations, neverCreatedId } from './key-mutations.ts';
import { queryFeatures } from './query-shapes.ts';
import {
  firstOfEachClass,
  type MethodForm,
  methodCoverage,
  methodCoverageSummary,
  methodFormArb,
} from './safe-methods.ts';

export const CANONICAL: HeaderSpelling = { scheme: 'Bearer', gap: ' ' };
/** The spellings of `Bearer <key>` a target must treat alike (scheme case), and two spaces (refusal allowed). */
export const SPELLINGS: readonly HeaderSpelling[] = [
  CANONICAL,
  { scheme: 'bearer', gap: ' ' },
  { scheme: 'BEARER', gap: ' ' },
  { scheme: 'bEARER', gap: ' ' },
  { scheme: 'Bearer', gap: '  ' },
];
/** Made-up header values (none is a secret): a scheme alone, junk, another scheme, no scheme. */
const MALFORMED: readonly string[] = [
  'Bearer',
  'Bearer ',
  'Bearer not-a-key',
  'Bearer null',
  'Bearer undefined',
  'Token abc123',
  'not-a-key',
];
/**
 * The query dimensions of a collection's list, with legal values: offsets into the data, limits up to its maximum,
 * a value of its first filter (one it has), each direction of each sort.
 */
interface QueryDimensions {
  offset: { min: number; max: number };
  limit: { min: number; max: number };
  filter?: FieldFilter;
  sorts: string[];
}

const queryDimensions = (c: Collection, filter?: FieldFilter): QueryDimensions => ({
  offset: { min: 0, max: 60 },
  limit: { min: 1, max: c.maxLimit ?? MAX_LIMIT },
  ...(filter ? { filter } : {}),
  sorts: c.sorts.flatMap(directions),
});

/** A query of the listing: any subset of offset, limit, its filter and sort, with legal values. */
const queryArb = (q: QueryDimensions): fc.Arbitrary<PageRequest> =>
  fc
    .record(
      {
        offset: fc.integer(q.offset),
        limit: fc.integer(q.limit),
        filter: q.filter ? fc.constant(q.filter) : fc.constant(undefined),
        sort: q.sorts.length ? fc.constantFrom(...q.sorts) : fc.constant(undefined),
      },
      { requiredKeys: [] },
    )
    .map((r) => Object.fromEntries(Object.entries(r).filter(([, v]) => v !== undefined)) as PageRequest);

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

/** The path of a case: /merchant/status, or its collection's list for its merchant (an unknown one's too). */
export function pathOf(t: Target, c: AccessCase): string {
  if (c.endpoint === 'status') return STATUS_PATH;
  const scoped = c.collection.access.scope === 'merchant';
  return collectionPath(c.collection, scoped ? merchantId(t, c.merchant) : '');
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

const key = (slot: KeySlot): Credential => ({ kind: 'key', slot });

const KEY_CLASSES: readonly KeySlot[] = ['test', 'live', 'restricted', 'revoked', 'old'];

/** The credentials of the cells, restricted to what the configuration has: made-up ones, mutated keys, then keys. */
function credentialsOf(t: Target, cells: AccessCells): Credential[] {
  const made: Credential[] = cells.credentials.flatMap((k): Credential[] => {
    if (k === 'none') return [{ kind: 'none' }];
    if (k === 'empty') return [{ kind: 'malformed', header: '' }];
    if (k === 'malformed') return MALFORMED.map((header) => ({ kind: 'malformed', header }));
    if (k === 'not-a-key') return [{ kind: 'malformed', header: 'Bearer not-a-key' }];
    if (k.startsWith('mutated:')) {
      const slot = k.slice('mutated:'.length) as KeySlot;
      return t.keys[slot] === undefined ? [] : mutationsOf(t, slot);
    }
    return [];
  });
  return [
    ...made,
    ...distinctKeys(
      t,
      KEY_CLASSES.filter((k) => cells.credentials.includes(k)),
    ),
  ];
}

/** The merchant roles of the cells that the configuration has (an account-wide collection has one path). */
function merchantsOf(t: Target, cells: AccessCells, c: Collection): MerchantRole[] {
  if (c.access.scope === 'account') return cells.merchants.includes('configured') ? ['sandbox'] : [];
  const other = t.merchants.otherSandbox ? (['otherSandbox'] as const) : [];
  const live = t.merchants.live ? (['live'] as const) : [];
  return cells.merchants.flatMap((m): MerchantRole[] => {
    if (m === 'configured') return ['sandbox', ...other, ...live];
    if (m === 'sandboxes') return ['sandbox', ...other];
    if (m === 'live') return [...live];
    return ['unknown'];
  });
}

/**
 * The valid keys whose answer on the collection its access declares (a key that may list it, the restricted key
 * `forbidden`): a key the collections file does not say may list it could be refused for its permission (403) before
 * the merchant is looked up, and is judged by no rule of the spec's there. Why a key is left out, in words.
 */
function undeclared(c: Collection, slot: KeySlot): string | undefined {
  if (slot === 'restricted')
    return c.access.restrictedKey === 'forbidden'
      ? undefined
      : `the collections file does not say that API_RESTRICTED_KEY lacks the permission to list ${c.name} (access.restrictedKey: "forbidden")`;
  if (slot !== 'test' && slot !== 'live') return undefined;
  return c.access.modes.includes(slot) ? undefined : `the ${slot} key does not list ${c.name} (access.keys)`;
}

/** The request space of a rule on a collection, restricted to what the configuration and the collection have. */
function spaceOf(t: Target, rule: AccessRule, c: Collection): Space | string {
  const cells = accessCells(rule);
  const endpoints = cells.endpoints.filter((e) => e === 'list' || c.spec);
  if (endpoints.length === 0) return `${rule} is about /merchant/status, no collection's`;
  const merchants = merchantsOf(t, cells, c);
  if (merchants.length === 0 && c.access.scope === 'account')
    return `${c.name} is account-wide: ${rule} is about a merchant's listing`;
  // On a known merchant's list, a valid key's answer is what the collection's access declares for it.
  const judged = (k: Credential) =>
    k.kind !== 'key' ||
    k.mutation !== undefined ||
    !endpoints.includes('list') ||
    merchants.every((m) => m === 'unknown') ||
    undeclared(c, k.slot) === undefined;
  const all = credentialsOf(t, cells);
  const credentials = all.filter(judged);
  if (all.length > 0 && credentials.length === 0) {
    const left = all.find((k) => !judged(k));
    return left?.kind === 'key' ? (undeclared(c, left.slot) as string) : `nothing of ${rule} is declared`;
  }
  if (credentials.length === 0 || merchants.length === 0) return `needs ${needed(cells)}`;
  const around = cells.around ? aroundKeys(t.keys, slotsOf(distinctKeys(t, [...cells.around]))) : [];
  return { credentials, endpoints, merchants, ...(around.length ? { grammar: around } : {}) };
}

/** What a rule's space needs beyond the test key and the sandbox merchant (when nothing of it is set), in words. */
function needed(cells: AccessCells): string {
  const keys = KEY_CLASSES.filter((k) => k !== 'test' && cells.credentials.includes(k)).map((k) => KEY_VARS[k]);
  const live = cells.merchants.includes('live') ? ['LIVE_MERCHANT_ID'] : [];
  return [...(keys.length ? [keys.join(' or ')] : []), ...live].join(' and ') || 'nothing more';
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
 * the keys of EVERY_SPELLING in every spelling on the status endpoint, the sandbox merchant and the live merchant;
 * the header grammar's coverage phase; and the methods phase (every method form × endpoint × credential class, on
 * the first merchant; on a listing, HEAD and OPTIONS with each key class are the query-shape phase's). The queries
 * are the query-shape phase's (access-coverage.ts, in accessCases).
 */
function examplesOf(t: Target, rule: AccessRule, space: Space, c: Collection, share: Share): AccessCase[] {
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
    collection: c,
    query,
  });
  const cases = space.credentials.map((k) => at(k, endpoint, merchant, {}));
  const places = space.endpoints.flatMap(
    (e): Array<{ e: Endpoint; m: MerchantRole }> =>
      e === 'status' ? [{ e, m: merchant }] : space.merchants.map((m) => ({ e, m })),
  );
  const spelled = space.credentials.filter((k) => k.kind === 'key' && !k.mutation && EVERY_SPELLING.includes(k.slot));
  const spelledPlaces = places.filter((p) => p.m !== 'otherSandbox');
  for (const k of spelled) {
    for (const { e, m } of spelledPlaces) {
      for (const spelling of SPELLINGS) cases.push(at(k, e, m, {}, spelling));
    }
  }
  // The header grammar's coverage phase (auth-header.ts), places in turn: the keys of EVERY_SPELLING in every other
  // spelling class (`spellings`), or the valid keys with each thing a header may carry around a key (`around`). The
  // grammar is what the run's collections share (the parsing of the header): each class goes to one of them in turn.
  const turn = <T>(list: readonly T[], i: number) => list[i % list.length] as T;
  const spelledAt = (k: Credential, p: { e: Endpoint; m: MerchantRole }, s: HeaderSpelling) => at(k, p.e, p.m, {}, s);
  const coverage = accessCells(rule).coverage;
  const mine = (i: number) => i % share.of === share.index;
  let n = 0;
  for (const k of coverage === 'spellings' ? spelled : []) {
    for (const [i, s] of otherSpellings(SPELLINGS).entries())
      if (mine(n++)) cases.push(spelledAt(k, turn(spelledPlaces, i), s));
  }
  const aroundSlots = slotsOf(distinctKeys(t, [...(accessCells(rule).around ?? [])]));
  for (const [i, { slot, spelling, around }] of (coverage === 'around'
    ? aroundCoverage(t.keys, aroundSlots)
    : []
  ).entries()) {
    if (mine(n++)) cases.push(spelledAt(around ? { kind: 'key', slot, around } : key(slot), turn(places, i), spelling));
  }
  for (const m of methodCoverage([...space.credentials, ...(space.grammar ?? [])], space.endpoints)) {
    // HEAD and OPTIONS with each key class on the list: the query-shape phase sends them (access-coverage.ts).
    if (m.endpoint === 'list' && !m.form.preflight && firstOfEachClass(space.credentials).includes(m.credential))
      continue;
    cases.push(inForm(at(m.credential, m.endpoint, merchant, {}), m.form));
  }
  return distinct(cases, caseKey);
}

/** What tells two cases apart: the request they send. */
const caseKey = (c: AccessCase) =>
  JSON.stringify([
    c.method ?? 'GET',
    c.preflight ?? false,
    c.credential,
    c.spelling,
    c.endpoint,
    c.endpoint === 'status' ? '' : c.merchant,
    c.query,
  ]);
/**
 * What quick tries once: a credential in a spelling with a method, wherever (endpoint, merchant, query); a tampered
 * key by its mutation, whichever key it tampers with.
 */
const onceKey = (c: AccessCase) => {
  const k = c.credential;
  const credential = k.kind === 'key' && k.mutation ? `mutation ${k.mutation.name}` : k;
  return JSON.stringify([c.method ?? 'GET', c.preflight ?? false, credential, c.spelling]);
};

/** The cases of `cases` with a key not seen before, in order. */
function distinct(cases: readonly AccessCase[], keyOf: (c: AccessCase) => string): AccessCase[] {
  const seen = new Set<string>();
  return cases.filter((c) => !seen.has(keyOf(c)) && !!seen.add(keyOf(c)));
}

/**
 * Quick's examples: one covering array over every factor of the rule at once (access-coverage.ts, coverAtOnce): each
 * credential as its examples write it (a mutation by its name, whichever key it tampers with), once with GET.
 */
function quickCover(t: Target, space: Space, c: Collection, base: readonly AccessCase[], filter?: FieldFilter) {
  const written = distinct(
    base.filter((x) => x.method === undefined),
    onceKey,
  );
  // On a merchant that does not exist (AUTH-FIRST, ADV-UNKNOWN-MERCHANT) what quick asks is the order of the checks
  // (the key's before the merchant's): each credential class once. How the header is written and how a key is tampered
  // with are judged on the known merchants by the rules of the key (AUTH-INVALID, AUTH-REVOKED, AUTH-FORBIDDEN).
  const unknownOnly = space.merchants.every((m) => m === 'unknown');
  const classes = new Set(firstOfEachClass(written.map((x) => x.credential)));
  const items = unknownOnly ? written.filter((x) => classes.has(x.credential) && sameSpelling(x.spelling)) : written;
  const features = queryFeatures(t.defaultLimit, c, filter ? { filter } : {});
  const max = c.maxLimit ?? MAX_LIMIT;
  const rows = coverAtOnce(items, space.endpoints, space.merchants, features, { limit: max + 1 });
  return rows.map((r) => inForm({ ...r.item, endpoint: r.endpoint, merchant: r.merchant, query: r.query }, r.form));
}

const sameSpelling = (s: HeaderSpelling) => JSON.stringify(s) === JSON.stringify(CANONICAL);

/** The quick cover in words, for the check's notes. */
const coverSummary = (cases: readonly AccessCase[]) =>
  `quick: ${cases.length} requests, one covering array over credential as written × endpoint × merchant × filter × sort × offset × limit × method, every value once (a limit past the maximum, HEAD and OPTIONS each alone)`;

/** A case on a collection's list, written canonically. */
const onList = (credential: Credential, merchant: MerchantRole, c: Collection, query: PageRequest): AccessCase => ({
  credential,
  spelling: CANONICAL,
  endpoint: 'list',
  merchant,
  collection: c,
  query,
});

/** Which of the run's collections this is (`index` of `of`): what they share goes to each in turn. */
interface Share {
  index: number;
  of: number;
}
const ALONE: Share = { index: 0, of: 1 };

/**
 * Random requests beyond the examples, per rule at depth standard (quick draws one, deep five times as many): the
 * query shapes are covered by construction before them (access-coverage.ts), the draws add spellings and mixes.
 */
export const RANDOM_RUNS = 4;

/**
 * The requests of one rule on a collection (its filter: a value it has): its examples and an arbitrary over its space;
 * why it is not judged there instead, in words, when the configuration or the collection leaves it nothing.
 */
export function accessCases(t: Target, rule: AccessRule, c: Collection, filter?: FieldFilter, share: Share = ALONE) {
  const space = spaceOf(t, rule, c);
  if (typeof space === 'string') return space;
  const q = queryDimensions(c, filter);
  const credentials = [...space.credentials, ...(space.grammar ?? [])];
  const arb = fc
    .record({
      form: methodFormArb,
      credential: fc.constantFrom(...credentials),
      // A valid key glued to its scheme is another credential (AUTH-INVALID): only spaces where no key is valid draw it.
      spelling: spellingArb(!credentials.some(isValidCredential)),
      endpoint: fc.constantFrom(...space.endpoints),
      merchant: fc.constantFrom(...space.merchants),
      query: queryArb(q),
    })
    .map(({ form, ...k }): AccessCase => inForm({ ...k, collection: c }, form));
  const strength = t.depth.strength;
  const base = examplesOf(t, rule, space, c, share);
  if (strength === 1) {
    // The methods are factors of the quick cover: its summary says what it sent.
    const examples = quickCover(t, space, c, base, filter);
    return { arb, examples, grammar: grammarSummary(examples.map(authOf)), methods: coverSummary(examples), notes: [] };
  }
  const methods = methodCoverageSummary(methodCoverage(credentials, space.endpoints));
  const features = queryFeatures(t.defaultLimit, c, { ...(filter ? { filter } : {}), overMax: true });
  const shapes = space.endpoints.includes('list') ? accessShapes(space.credentials, space.merchants, features) : [];
  const shaped = shapes.map((r) => inForm(onList(r.credential, r.merchant, c, r.query), r.form));
  const examples = distinct([...base, ...shaped], caseKey);
  const shapesNote = shapes.length ? [shapeSummary(shapes)] : [];
  return { arb, examples, grammar: grammarSummary(examples.map(authOf)), methods, notes: shapesNote };
}
