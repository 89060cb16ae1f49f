/**
 * The access rules on another collection's path (§5, §7; reading "Keys, modes, merchants"): for each rule the access
 * oracle fixes (checks/access-oracle.ts, handed in by the spec), the requests whose answer it fixes on that path — a narrower space than the
 * payments' access matrix (core/run/access-property.ts), whose grammar of headers and spellings covers the code the
 * paths share: every credential of the rule, on every merchant of the collection, without a query and with a full one
 * (a filter and a sort of its own), as GET and HEAD, and a few drawn cases. A merchant-scoped collection answers like
 * payments; an account-wide one is judged only where the rule does not depend on a merchant (the refusals).
 */
import fc from 'fast-check';
import { authOf, CANONICAL, keyModes, MALFORMED, merchantId, SPELLINGS } from '../generate/access-cases.ts';
import { keyMutations } from '../generate/key-mutations.ts';
import type { AccessCase, AccessOracle, AccessRule, Credential, MerchantRole } from '../model/access.ts';
import type { Collection } from '../model/collection.ts';
import { authLabel } from '../model/credentials.ts';
import { describeRequest, type FieldFilter, listingPath, type PageRequest, requestQuery } from '../model/listing.ts';
import type { Target } from '../model/target.ts';
import { type CheckContext, NotRun } from './check.ts';
import { forAll } from './property.ts';

/** The rules of the oracle judged on another collection, and where each needs a merchant-scoped path. */
export const COLLECTION_ACCESS_RULES: ReadonlyArray<{ rule: AccessRule; merchantScoped?: true }> = [
  { rule: 'AUTH-MISSING' },
  { rule: 'AUTH-INVALID' },
  { rule: 'AUTH-REVOKED' },
  { rule: 'AUTH-FIRST', merchantScoped: true },
  { rule: 'AUTH-FORBIDDEN' },
  { rule: 'MODE-TEST-SANDBOX', merchantScoped: true },
  { rule: 'MODE-LIVE-SANDBOX', merchantScoped: true },
  { rule: 'MODE-TEST-LIVE', merchantScoped: true },
  { rule: 'MODE-LIVE-LIVE', merchantScoped: true },
  { rule: 'ADV-UNKNOWN-MERCHANT', merchantScoped: true },
];

/** Cases drawn beyond the examples (the payments' access matrix draws more of the grammar the paths share). */
const DRAWN = 3;

const key = (slot: 'test' | 'live' | 'restricted' | 'revoked' | 'old'): Credential => ({ kind: 'key', slot });

/** Why a rule cannot be judged on this collection with this configuration, or undefined when it can. */
function unjudged(t: Target, c: Collection, rule: AccessRule): string | undefined {
  const has = (slot: keyof Target['keys']) => t.keys[slot] !== undefined;
  const modes = c.access.modes;
  const needs: Partial<Record<AccessRule, string | undefined>> = {
    'AUTH-REVOKED': has('revoked') || has('old') ? undefined : 'needs API_REVOKED_KEY or API_OLD_KEY',
    'AUTH-FORBIDDEN': !has('restricted')
      ? 'needs API_RESTRICTED_KEY'
      : c.access.restrictedKey !== 'forbidden'
        ? `the collections file does not say that API_RESTRICTED_KEY lacks the permission to list ${c.name} (access.restrictedKey: "forbidden")`
        : undefined,
    'MODE-TEST-SANDBOX': modes.includes('test') ? undefined : `the test key does not list ${c.name} (access.keys)`,
    // A key the file does not let list the collection may be refused for its permission (403) before the merchant
    // is looked up: the 404 of the other mode's merchant is then no rule of the spec's.
    'MODE-LIVE-SANDBOX': !has('live')
      ? 'needs API_LIVE_KEY'
      : modes.includes('live')
        ? undefined
        : `the live key does not list ${c.name} (access.keys)`,
    'MODE-TEST-LIVE': !t.merchants.live
      ? 'needs LIVE_MERCHANT_ID'
      : modes.includes('test')
        ? undefined
        : `the test key does not list ${c.name} (access.keys)`,
    'MODE-LIVE-LIVE':
      !has('live') || !t.merchants.live
        ? 'needs API_LIVE_KEY and LIVE_MERCHANT_ID'
        : modes.includes('live')
          ? undefined
          : `the live key does not list ${c.name} (access.keys)`,
  };
  const scoped = COLLECTION_ACCESS_RULES.find((r) => r.rule === rule)?.merchantScoped;
  if (scoped && c.access.scope !== 'merchant')
    return `${c.name} is account-wide: ${rule} is about a merchant's listing`;
  return needs[rule];
}

/** The credentials and merchants of a rule on this collection. */
function spaceOf(t: Target, c: Collection, rule: AccessRule): { credentials: Credential[]; merchants: MerchantRole[] } {
  // An account-wide collection has one path: judged as a sandbox merchant's, once.
  const account = c.access.scope === 'account';
  const configured = (['sandbox', 'otherSandbox', 'live'] as const).filter(
    (m) => m === 'sandbox' || (!account && !!t.merchants[m]),
  );
  const sandboxes = configured.filter((m) => m !== 'live');
  const issued = Object.values(t.keys).filter((k): k is string => !!k);
  const mutations = (slot: 'test' | 'live') =>
    keyMutations(t.keys[slot] as string, issued).map((mutation): Credential => ({ kind: 'key', slot, mutation }));
  const keys = (slots: Array<'live' | 'restricted' | 'revoked' | 'old'>) => slots.filter((s) => t.keys[s]).map(key);
  switch (rule) {
    case 'AUTH-MISSING':
      return {
        credentials: [{ kind: 'none' }, { kind: 'malformed', header: '' }],
        merchants: account ? configured : [...configured, 'unknown'],
      };
    case 'AUTH-INVALID':
      return {
        // A sample of each kind: the payments' access matrix covers the header grammar and every key mutation.
        credentials: [
          ...MALFORMED.slice(0, 3).map((header): Credential => ({ kind: 'malformed', header })),
          ...mutations('test').filter((_, i) => i % 2 === 0),
        ],
        merchants: configured,
      };
    case 'AUTH-REVOKED':
      return { credentials: keys(['revoked', 'old']).slice(0, 1), merchants: configured };
    case 'AUTH-FIRST':
      return {
        credentials: [
          { kind: 'malformed', header: 'Bearer not-a-key' },
          ...mutations('test').slice(0, 3),
          ...keys(['revoked']),
        ],
        merchants: ['unknown'],
      };
    case 'AUTH-FORBIDDEN':
      return { credentials: keys(['restricted']), merchants: configured };
    case 'MODE-TEST-SANDBOX':
      return { credentials: [key('test')], merchants: sandboxes };
    case 'MODE-LIVE-SANDBOX':
      return { credentials: keys(['live']), merchants: sandboxes };
    case 'MODE-TEST-LIVE':
      return { credentials: [key('test')], merchants: ['live'] };
    case 'MODE-LIVE-LIVE':
      return { credentials: keys(['live']), merchants: ['live'] };
    default:
      return { credentials: [key('test'), ...keys(['live', 'restricted'])], merchants: ['unknown'] };
  }
}

/** The path of a case on the collection: its merchant's (an unknown one's too), or the account's. */
const pathOf = (t: Target, c: Collection, a: AccessCase) =>
  listingPath({ collection: c, merchant: c.access.scope === 'merchant' ? merchantId(t, a.merchant) : '' });

/**
 * One rule of the oracle on another collection: every credential of its space on every merchant, without a query and
 * with `full` (a filter value it has and a sort of its own), as GET, HEAD and in the header's other spellings for the
 * keys that stay refused or restricted; then drawn cases. Not run, with the reason, when the configuration or the
 * collections file leaves the rule without a request to judge.
 */
export async function collectionAccessProperty(
  ctx: CheckContext,
  oracle: AccessOracle,
  c: Collection,
  filter?: FieldFilter,
): Promise<void> {
  const { api, target: t } = ctx;
  const rule = ctx.rule as AccessRule;
  const why = unjudged(t, c, rule);
  if (why) throw new NotRun('needs input', why);
  const { credentials, merchants } = spaceOf(t, c, rule);
  if (credentials.length === 0 || merchants.length === 0)
    throw new NotRun('needs input', `nothing of ${rule} is configured`);
  const sort = c.sorts[0] ? `-${c.sorts[0].field}` : undefined;
  const full: PageRequest = { offset: 1, limit: 5, ...(filter ? { filter } : {}), ...(sort ? { sort } : {}) };
  const at = (
    credential: Credential,
    merchant: MerchantRole,
    query: PageRequest,
    extra: Partial<AccessCase> = {},
  ): AccessCase => ({
    credential,
    spelling: CANONICAL,
    endpoint: 'list',
    merchant,
    query,
    list: c.name,
    ...extra,
  });
  // Every credential on the first merchant, the first on every merchant, each merchant with the full query.
  const examples: AccessCase[] = [
    ...credentials.map((cred) => at(cred, merchants[0] as MerchantRole, {})),
    ...merchants.slice(1).map((m) => at(credentials[0] as Credential, m, {})),
    ...merchants.map((m) => at(credentials[0] as Credential, m, full)),
    at(credentials[0] as Credential, merchants[0] as MerchantRole, {}, { method: 'HEAD' }),
    ...credentials
      .filter((cred) => cred.kind === 'key' && !cred.mutation && ['revoked', 'old', 'restricted'].includes(cred.slot))
      .flatMap((cred) =>
        SPELLINGS.slice(1).map((spelling) => at(cred, merchants[0] as MerchantRole, {}, { spelling })),
      ),
  ];
  const arb = fc
    .record({
      credential: fc.constantFrom(...credentials),
      merchant: fc.constantFrom(...merchants),
      full: fc.boolean(),
      head: fc.boolean(),
    })
    .map((k) => at(k.credential, k.merchant, k.full ? full : {}, k.head ? { method: 'HEAD' } : {}));
  const modes = keyModes(t);
  const describe = (a: AccessCase) =>
    `${authLabel(authOf(a))} on ${a.method ?? 'GET'} ${pathOf(t, c, a)}${Object.keys(a.query).length ? ` ${describeRequest(a.query)}` : ''}`;
  await forAll(
    ctx,
    arb,
    async (a) => {
      const expectation = oracle.expected(a, modes);
      if (expectation.rule !== rule)
        throw new Error(`access space of ${rule} on ${c.name} drew a case of ${expectation.rule}`);
      const e = await api.request(a.method ?? 'GET', pathOf(t, c, a), {
        query: requestQuery(a.query),
        auth: authOf(a),
      });
      return oracle.violation(expectation, e, a.query);
    },
    { describe, examples, numRuns: examples.length + Math.min(t.fcNumRuns, DRAWN) },
  );
}
