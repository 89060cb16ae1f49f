/**
 * §5 Authentication and §7 Errors (401, 403): the configured keys; on every collection the run checks, the spellings
 * of its path a router may serve without its middleware, that no response gives a key back, paths beside it, and the
 * header's other schemes and spellings. Read with reading.md "Keys, modes, merchants". The access matrix (which
 * credential gets which answer, with any query, spelling and method) is specs/5-access.spec.ts.
 */

import {
  firstViolation,
  keyLeakViolation,
  spelledPathViolation,
  spellingRefusedViolation,
  unauthorizedViolation,
  unknownPathViolation,
} from '../checks/auth.ts';
import { keyFormatViolation } from '../checks/keys.ts';
import { merchantId } from '../core/generate/access-cases.ts';
import { SCHEMES } from '../core/generate/auth-header.ts';
import { BASIC_CREDENTIALS, keyMutations, unknownKeyOfValidFormat } from '../core/generate/key-mutations.ts';
import { type Collection, collectionPath, directions } from '../core/model/collection.ts';
import { type Auth, asKey, isLiveKey, NO_AUTH } from '../core/model/credentials.ts';
import type { QueryPairs } from '../core/model/exchange.ts';
import { type Listing, listingPath, requestQuery, STATUS_PATH } from '../core/model/listing.ts';
import type { Target } from '../core/model/target.ts';
import { assertNoViolation } from '../core/model/verdict.ts';
import { NotRun } from '../core/run/check.ts';
import { firstFilters, readable } from '../core/run/learn.ts';
import { pathSpellings } from '../core/run/spellings.ts';
import { eachCollection, listedBy } from '../fixtures/collections.ts';
import { type CheckContext, settle, test } from '../fixtures/test.ts';

/** The collection's list for a merchant role (the sandbox one by default); an account-wide one has one path. */
const listOf = (t: Target, c: Collection, role: 'sandbox' | 'live' | 'unknown' = 'sandbox') =>
  collectionPath(c, c.access.scope === 'merchant' ? merchantId(t, role) : '');

/** The paths a check asks on a collection: its list, and /merchant/status with the spec's collection. */
const endpointsOf = (t: Target, c: Collection) => [...(c.spec ? [STATUS_PATH] : []), listOf(t, c)];

/** The endpoints in a title: both of the spec's, or a collection's own path. */
const endpointWords = (c: Collection) => (c.spec ? 'both endpoints' : 'its path');

/** Paths no endpoint of the run serves: beside the list, another version segment, beside /merchant/status. */
const unknownPaths = (t: Target, c: Collection) => {
  const list = listOf(t, c);
  const version = list.replace(/\/n\d+\//, '/n2/');
  return [`${list}/no-such-path`, ...(version !== list ? [version] : []), ...(c.spec ? ['/merchant/statuses'] : [])];
};

test.describe('§2, §5.1 The configured keys', () => {
  // §2: "An API key is a secret string in the format sk_[ENVIRONMENT]_[RANDOM_HASH]"; "Sandbox (test) keys begin with
  // sk_test_. Live keys begin with sk_live_." Judged from the configuration, before any request: a run whose keys
  // fail it does not start (bad configuration); against keys a target announced (the bundled mock) it judges them.
  test(
    'CFG-KEYS every configured key has the sk_test_ / sk_live_ format of its slot (judged before any request)',
    { tag: '@cutover' },
    settle(async ({ target }) => assertNoViolation(keyFormatViolation(target.keys))),
  );

  // §5.8: "generate a new key, switch applications to it, verify it works, then delete the old key".
  test(
    'AUTH-REVOKED old key is refused after key rotation (401)',
    { tag: '@cutover' },
    settle(
      async ({ api }) => {
        const e = await api.get(STATUS_PATH, { auth: asKey('old') });
        assertNoViolation(unauthorizedViolation('AUTH-REVOKED', e, 'the rotated-out key'));
      },
      { needs: ['old'] },
    ),
  );
});

eachCollection('§5.2 Spellings of the paths:', (c, check) => {
  // reading: 401 "under any spelling of those paths that the target serves (a trailing slash, a percent-encoded
  // segment, a doubled slash)": a router that takes the spelling for the path while the auth middleware does not.
  // What a router normalises (a dot segment, a ;parameter, a format extension) skips the whole auth middleware where it
  // bypasses it: the request without a key shows it; the other credentials meet those spellings in a deep run.
  const spelled =
    (auth: (t: Target) => Auth, whenServed: number[], why: string, list = false, router = false) =>
    async ({ api, target, rule }: CheckContext) => {
      const credential = auth(target);
      const answers = [];
      for (const s of await pathSpellings(api, target, c, { listOnly: list, router })) {
        const e = await api.get(s.path, { auth: credential });
        // The answer of the spec's spelling is right whether or not the target serves this one.
        const served = whenServed.includes(e.status) || (await s.served());
        answers.push(spelledPathViolation(rule, e, { name: s.name, served, whenServed, why }));
      }
      assertNoViolation(firstViolation(answers));
    };
  const paths = c.spec ? 'the spec paths' : 'its path';
  check(
    'AUTH-MISSING',
    `no spelling of ${paths} the target serves answers without a key (401)`,
    spelled(() => NO_AUTH, [401], 'no key', false, true),
  );
  check(
    'AUTH-INVALID',
    `no spelling of ${paths} the target serves accepts a never-issued key (401)`,
    spelled((t) => asKey('test', { mutation: unknownKeyOfValidFormat(t.keys.test) }), [401], 'a never-issued key'),
  );
  check(
    'AUTH-REVOKED',
    `no spelling of ${paths} the target serves accepts the revoked key (401)`,
    spelled(() => asKey('revoked'), [401], 'the revoked key'),
    { needs: ['revoked'] },
  );
  if (c.access.scope !== 'merchant') return;
  check(
    'MODE-LIVE-SANDBOX',
    `no spelling of a sandbox merchant's path lists its ${c.name} to the live key (404)`,
    spelled(
      () => {
        listedBy(c, 'live');
        return asKey('live');
      },
      [404],
      'the live key',
      true,
    ),
    { needs: ['live'] },
  );
  check(
    'AUTH-FORBIDDEN',
    `no spelling of the ${c.name} path lists ${c.name} to the restricted key (403)`,
    spelled(
      (t) => {
        if (c.access.restrictedKey !== 'forbidden')
          throw new NotRun(
            'needs input',
            `the collections file does not say that API_RESTRICTED_KEY may not list ${c.name}`,
          );
        if (t.keys.restricted && isLiveKey(t.keys.restricted)) {
          // A live restricted key meets a sandbox merchant of the other mode (404 as legal as 403): nothing to show.
          throw new NotRun(
            'needs input',
            'API_RESTRICTED_KEY is a live key; this check needs a restricted sandbox key',
          );
        }
        return asKey('restricted');
      },
      [403],
      'the restricted key',
      true,
    ),
    { needs: ['restricted'] },
  );
});

eachCollection('§5.9, §5.1, §5.2 Keys stay secret; schemes; paths beside:', (c, check) => {
  // §5.9: "Keys must stay out of client-side code and must not be shared." reading: "The key never appears in any
  // response, body or header: not whole, not encoded, and not as a large part of it." One exchange of each kind.
  check(
    'KEY-SECRET',
    'no response gives a key back, whole, encoded or most of it (200, 401, 403, 404, 4xx; GET, HEAD, OPTIONS)',
    async (ctx) => {
      const { api, target: t } = ctx;
      const list = listOf(t, c);
      const mutation = (name: string) => keyMutations(t.keys.test).find((m) => m.name.startsWith(name));
      const [filter] = await firstFilters(ctx, c);
      const full = requestQuery({ limit: 3, filter, sort: c.sorts[0] ? directions(c.sorts[0])[1] : undefined });
      const requests: Array<[string, Auth, QueryPairs?]> = [
        [list, asKey('test'), full],
        ...endpointsOf(t, c)
          .slice(0, -1)
          .map((path): [string, Auth] => [path, asKey('test')]),
        [list, asKey('test', { mutation: mutation('extended') })],
        [
          endpointsOf(t, c)[0] as string,
          asKey('test', { mutation: mutation('with its mode prefix swapped'), scheme: 'bearer' }),
        ],
        [list, asKey('test', { mutation: BASIC_CREDENTIALS, scheme: 'Basic' })],
        ...(c.access.scope === 'merchant' ? [[listOf(t, c, 'unknown'), asKey('test')] as [string, Auth]] : []),
        [list, asKey('test'), [['limit', '-1']]],
        [unknownPaths(t, c)[0] as string, asKey('test')],
        [unknownPaths(t, c).at(-1) as string, NO_AUTH],
      ];
      if (t.keys.live) requests.push([list, asKey('live')]);
      if (t.keys.live && t.merchants.live && c.access.scope === 'merchant')
        requests.push([listOf(t, c, 'live'), asKey('live')]);
      if (t.keys.restricted) requests.push([list, asKey('restricted')]);
      if (t.keys.revoked) requests.push([list, asKey('revoked')]);
      const exchanges = [];
      for (const [path, auth, query] of requests) exchanges.push(await api.get(path, { auth, query }));
      // reading "Methods": HEAD and OPTIONS answers carry headers too, and may come from another code path (a HEAD
      // route, CORS middleware): a served HEAD and a refused OPTIONS, each with a key.
      exchanges.push(await api.request('HEAD', list, { auth: asKey('test') }));
      const options = endpointsOf(t, c)[0] as string;
      exchanges.push(
        await api.request('OPTIONS', options, { auth: asKey('test', { mutation: mutation('extended') }) }),
      );
      assertNoViolation(firstViolation(exchanges.map(keyLeakViolation)));
    },
  );

  // reading: the service has more operations than the spec lists, so the suite cannot know that a path does not
  // exist. Without a valid key 401 is expected there; a 404 (a target that routes before it authenticates) is
  // accepted and reported.
  check(
    'ADV-UNKNOWN-PATH',
    `no valid key on a path ${c.spec ? 'the spec does not show' : 'beside it'} gets 401 (404 reported)`,
    async ({ api, target }) => {
      const answers = [];
      for (const path of unknownPaths(target, c))
        answers.push(unknownPathViolation(await api.get(path, { auth: NO_AUTH }), 'no key'));
      const bad = asKey('test', { mutation: unknownKeyOfValidFormat(target.keys.test) });
      const path = unknownPaths(target, c)[0] as string;
      answers.push(unknownPathViolation(await api.get(path, { auth: bad }), 'a never-issued key'));
      assertNoViolation(firstViolation(answers));
    },
  );

  // §5.1: "Every request carries the header `Authorization: Bearer <API_KEY>`". reading: the spec asks for that
  // spelling only; RFC 9110 makes the scheme case-insensitive, so a target should also take `bearer`/`BEARER` (and
  // more spaces), but refusing them with 401 is an advisory finding, not a failure (the access matrix holds every
  // spelling to "the canonical answer or a 401"). Whether other schemes are accepted is an advisory finding too; more
  // than the key in the header (another token, a comma, quotes, a second credential) is AUTH-INVALID's.
  check(
    'ADV-SCHEME',
    'Basic credentials, other schemes (Basic, Token, "Bearer:") and a bare key are refused with 401',
    async ({ api, target }) => {
      const path = listingPath(readable(target, c)[0] as Listing);
      const other: Auth[] = [
        asKey('test', { scheme: 'Basic', mutation: BASIC_CREDENTIALS }),
        // Every scheme of the header grammar (auth-header.ts) that is not Bearer in some case, and none.
        ...SCHEMES.filter((s) => s.value.toLowerCase() !== 'bearer').map((s) => asKey('test', { scheme: s.value })),
      ];
      const answers = [];
      for (const auth of other) {
        answers.push(unauthorizedViolation('ADV-SCHEME', await api.get(path, { auth }), 'a scheme other than Bearer'));
      }
      assertNoViolation(firstViolation(answers));
    },
  );

  check(
    'ADV-SCHEME',
    `the test key written bearer, BEARER or with two spaces gets the answer of Bearer on ${endpointWords(c)}`,
    async ({ api, target }) => {
      const [listing] = readable(target, c);
      const slot = listing?.auth.kind === 'key' ? listing.auth.slot : 'test';
      const spellings = [
        { scheme: 'bearer', gap: ' ' },
        { scheme: 'BEARER', gap: ' ' },
        { scheme: 'Bearer', gap: '  ' },
      ];
      const answers = [];
      const paths = [...(c.spec ? [STATUS_PATH] : []), listingPath(listing as Listing)];
      // Every spelling on every endpoint; at strength 1 (quick) each spelling once, the endpoints in turn (the list first).
      const pairs = paths.flatMap((path) => spellings.map((spelling) => ({ path, spelling })));
      const sent =
        target.depth.strength === 1
          ? spellings.map((spelling, i) => ({ path: paths.at(-1 - (i % paths.length)) as string, spelling }))
          : pairs;
      for (const { path, spelling } of sent) {
        const e = await api.get(path, { auth: asKey(path === STATUS_PATH ? 'test' : slot, spelling) });
        answers.push(spellingRefusedViolation(e));
      }
      assertNoViolation(firstViolation(answers));
    },
  );
});
