/**
 * §5 Authentication and §7 Errors (401, 403): which credentials are refused, on which endpoints, under which
 * spelling of the header and of the path, with which query, and that no response gives a key back. Read with
 * reading.md "Keys, modes, merchants". The access-matrix checks draw their requests from
 * core/generate/access-cases.ts and judge them with the oracle of checks/access-oracle.ts; each check covers the
 * requests whose answer its rule fixes.
 */

import { ACCESS_ORACLE } from '../checks/access-oracle.ts';
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
import { type Auth, asKey, isLiveKey, NO_AUTH } from '../core/model/credentials.ts';
import { paymentsPath, STATUS_PATH } from '../core/model/listing.ts';
import type { Target } from '../core/model/target.ts';
import { assertNoViolation } from '../core/model/verdict.ts';
import { accessProperty } from '../core/run/access-property.ts';
import { NotRun } from '../core/run/check.ts';
import { servedSpellings } from '../core/run/spellings.ts';
import { type CheckContext, type Need, settle, test } from '../fixtures/test.ts';

/** Paths no endpoint of the spec serves: a sibling of the list, another version segment, a sibling of status. */
const unknownPaths = (t: Target) => [
  `${paymentsPath(t.merchants.sandbox).replace(/\/payments$/, '')}/refunds`,
  paymentsPath(t.merchants.sandbox).replace('/n1/', '/n2/'),
  '/merchant/statuses',
];

/** The access-matrix property of the check's own rule. */
const ownAccessProperty = async (ctx: CheckContext) => {
  await accessProperty(ctx, ACCESS_ORACLE);
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
});

test.describe('§5 Authentication: missing and invalid keys, on every query and header spelling', () => {
  // §5.2: "A request without a valid key is rejected with status 401." §7: 401 when "the API key is missing".
  // An empty header carries no key either.
  test(
    'AUTH-MISSING no Authorization header gets 401 on both endpoints, any merchant, any query',
    settle(ownAccessProperty),
  );

  // §5.1: the header is `Authorization: Bearer <API_KEY>`; reading: "A key is valid only as the exact string that
  // was issued": malformed headers and case-changed, truncated, extended, altered or prefix-swapped keys get 401.
  test(
    'AUTH-INVALID malformed headers, tampered keys and more than the key in the header get 401 on both endpoints, any merchant, query and spelling',
    settle(ownAccessProperty),
  );

  // §7: 401 when the key is "invalid or expired"; reading: "Revoked, deleted or expired: 401, on every endpoint,
  // however the header is spelled."
  test(
    'AUTH-REVOKED revoked and rotated-out keys get 401 in every spelling, on both endpoints and merchants',
    settle(ownAccessProperty, { needs: ['revoked'] }),
  );

  // §5.8: "generate a new key, switch applications to it, verify it works, then delete the old key".
  test(
    'AUTH-REVOKED old key is refused after key rotation (401)',
    { tag: '@cutover' },
    settle(
      async ({ api, rule }) => {
        assertNoViolation(
          unauthorizedViolation(
            rule as 'AUTH-REVOKED',
            await api.get(STATUS_PATH, { auth: asKey('old') }),
            'the rotated-out key',
          ),
        );
      },
      { needs: ['old'] },
    ),
  );

  // reading: "a request without a valid key gets 401 on … the payments list of any merchant id, existing or not,
  // with any query (anything else tells an attacker which merchants exist)".
  test('AUTH-FIRST bad keys get 401 on an unknown merchant, with any query and spelling', settle(ownAccessProperty));
});

test.describe('§7 Errors: 403 for a key without the permission', () => {
  // §7: 403 when "the key lacks the permissions required". reading: the restricted key "is still a valid key: 403
  // on what it may not do, never 401, never 200" — on every merchant, with every query and spelling.
  test(
    'AUTH-FORBIDDEN the restricted key gets 403 on every merchant, with any query and spelling (never 401 or 200)',
    settle(ownAccessProperty, { needs: ['restricted'] }),
  );
});

test.describe('§5.2 Spellings of the spec paths', () => {
  // reading: 401 "under any spelling of those paths that the target serves (a trailing slash, a percent-encoded
  // segment, a doubled slash)": a router that takes the spelling for the path while the auth middleware does not.
  const spelled = (
    auth: (t: Target) => Auth,
    whenServed: number[],
    why: string,
    endpoints: Array<'status' | 'list'> = ['status', 'list'],
    needs: Need[] = [],
  ) =>
    settle(
      async ({ api, target, rule }) => {
        const credential = auth(target);
        const answers = [];
        for (const s of (await servedSpellings(api, target)).filter((p) => endpoints.includes(p.endpoint))) {
          const e = await api.get(s.path, { auth: credential });
          answers.push(spelledPathViolation(rule, e, { name: s.name, served: s.served, whenServed, why }));
        }
        assertNoViolation(firstViolation(answers));
      },
      { needs },
    );

  test(
    'AUTH-MISSING no spelling of the spec paths the target serves answers without a key (401)',
    spelled(() => NO_AUTH, [401], 'no key'),
  );
  test(
    'AUTH-INVALID no spelling of the spec paths the target serves accepts a never-issued key (401)',
    spelled((t) => asKey('test', { mutation: unknownKeyOfValidFormat(t.keys.test) }), [401], 'a never-issued key'),
  );
  test(
    'AUTH-REVOKED no spelling of the spec paths the target serves accepts the revoked key (401)',
    spelled(() => asKey('revoked'), [401], 'the revoked key', ['status', 'list'], ['revoked']),
  );
  test(
    "MODE-LIVE-SANDBOX no spelling of a sandbox merchant's path lists its payments to the live key (404)",
    spelled(() => asKey('live'), [404], 'the live key', ['list'], ['live']),
  );
  test(
    'AUTH-FORBIDDEN no spelling of the payments path lists payments to the restricted key (403)',
    spelled(
      (t) => {
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
      ['list'],
      ['restricted'],
    ),
  );
});

test.describe('§5.9 Keys stay secret', () => {
  // §5.9: "Keys must stay out of client-side code and must not be shared." reading: "The key never appears in any
  // response, body or header: not whole, not encoded, and not as a large part of it." One exchange of each kind.
  test(
    'KEY-SECRET no response gives a key back, whole, encoded or most of it (200, 401, 403, 404, 4xx; GET, HEAD, OPTIONS)',
    settle(async ({ api, target }) => {
      const list = paymentsPath(target.merchants.sandbox);
      const mutation = (name: string) => keyMutations(target.keys.test).find((m) => m.name.startsWith(name));
      const requests: Array<[string, Auth, Array<[string, string]>?]> = [
        [
          list,
          asKey('test'),
          [
            ['limit', '3'],
            ['filter[status]', 'COMPLETED'],
            ['sort', '-amount'],
          ],
        ],
        [STATUS_PATH, asKey('test')],
        [list, asKey('test', { mutation: mutation('extended') })],
        [STATUS_PATH, asKey('test', { mutation: mutation('with its mode prefix swapped'), scheme: 'bearer' })],
        [list, asKey('test', { mutation: BASIC_CREDENTIALS, scheme: 'Basic' })],
        [paymentsPath(merchantId(target, 'unknown')), asKey('test')],
        [list, asKey('test'), [['limit', '-1']]],
        [unknownPaths(target)[0] as string, asKey('test')],
        [unknownPaths(target)[2] as string, NO_AUTH],
      ];
      if (target.keys.live) requests.push([list, asKey('live')]);
      if (target.keys.live && target.merchants.live)
        requests.push([paymentsPath(target.merchants.live), asKey('live')]);
      if (target.keys.restricted) requests.push([list, asKey('restricted')]);
      if (target.keys.revoked) requests.push([list, asKey('revoked')]);
      const exchanges = [];
      for (const [path, auth, query] of requests) exchanges.push(await api.get(path, { auth, query }));
      // reading "Methods": HEAD and OPTIONS answers carry headers too, and may come from another code path (a HEAD
      // route, CORS middleware): a served HEAD and a refused OPTIONS, each with a key.
      exchanges.push(await api.request('HEAD', list, { auth: asKey('test') }));
      exchanges.push(
        await api.request('OPTIONS', STATUS_PATH, { auth: asKey('test', { mutation: mutation('extended') }) }),
      );
      assertNoViolation(firstViolation(exchanges.map(keyLeakViolation)));
    }),
  );
});

test.describe('§5.2 Paths the spec does not show (advisory)', () => {
  // reading: the service has more operations than the spec lists, so the suite cannot know that a path does not
  // exist. Without a valid key 401 is expected there; a 404 (a target that routes before it authenticates) is
  // accepted and reported.
  test(
    'ADV-UNKNOWN-PATH no valid key on a path the spec does not show gets 401 (404 reported)',
    settle(async ({ api, target }) => {
      const answers = [];
      for (const path of unknownPaths(target))
        answers.push(unknownPathViolation(await api.get(path, { auth: NO_AUTH }), 'no key'));
      const bad = asKey('test', { mutation: unknownKeyOfValidFormat(target.keys.test) });
      const path = unknownPaths(target)[0] as string;
      answers.push(unknownPathViolation(await api.get(path, { auth: bad }), 'a never-issued key'));
      assertNoViolation(firstViolation(answers));
    }),
  );
});

test.describe('§5.1 Authorization scheme (advisory)', () => {
  // §5.1: "Every request carries the header `Authorization: Bearer <API_KEY>`". reading: the spec asks for that spelling
  // only; RFC 9110 makes the scheme case-insensitive, so a target should also take `bearer`/`BEARER` (and more
  // spaces), but refusing them with 401 is an advisory finding, not a failure (the access matrix holds every
  // spelling to "the canonical answer or a 401"). Whether other schemes are accepted is an advisory finding too; more
  // than the key in the header (another token, a comma, quotes, a second credential) is AUTH-INVALID's (the ownAccessProperty).
  test(
    'ADV-SCHEME Basic credentials, other schemes (Basic, Token, "Bearer:") and a bare key are refused with 401',
    settle(async ({ api, target }) => {
      const path = paymentsPath(target.merchants.sandbox);
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
    }),
  );

  test(
    'ADV-SCHEME the test key written bearer, BEARER or with two spaces gets the answer of Bearer on both endpoints',
    settle(async ({ api, target }) => {
      const spellings = [
        { scheme: 'bearer', gap: ' ' },
        { scheme: 'BEARER', gap: ' ' },
        { scheme: 'Bearer', gap: '  ' },
      ];
      const answers = [];
      for (const path of [STATUS_PATH, paymentsPath(target.merchants.sandbox)]) {
        for (const spelling of spellings) {
          const e = await api.get(path, { auth: asKey('test', spelling) });
          answers.push(spellingRefusedViolation(e));
        }
      }
      assertNoViolation(firstViolation(answers));
    }),
  );
});
