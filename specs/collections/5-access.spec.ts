/**
 * §5 Authentication, §5.5–§5.6 modes, §1 isolation, §5.9 keys and §7 errors on every other collection the run was
 * given (`--collections`): the access rules on its path (core/run/collection-access.ts: AUTH-*, and MODE-* where it is
 * merchant-scoped), its listings of different modes and merchants sharing no record under a filter and a sort
 * (MODE-ISOLATION, MER-ISOLATION), no answer on its path giving a key back (KEY-SECRET), and the header's other
 * spellings (ADV-SCHEME). The checks of every answer (specs/every-answer.spec.ts) judge its answers with the rest.
 */

import { ACCESS_ORACLE } from '../../checks/access-oracle.ts';
import {
  firstViolation,
  keyLeakViolation,
  spellingRefusedViolation,
  unauthorizedViolation,
  unknownPathViolation,
} from '../../checks/auth.ts';
import { sharedRecordsViolation } from '../../checks/isolation.ts';
import { BASIC_CREDENTIALS, keyMutations, unknownKeyOfValidFormat } from '../../core/generate/key-mutations.ts';
import type { Collection } from '../../core/model/collection.ts';
import { type Auth, asKey, NO_AUTH } from '../../core/model/credentials.ts';
import type { Exchange } from '../../core/model/exchange.ts';
import {
  describeListing,
  type Listing,
  listingPath,
  requestQuery,
  type Selection,
  withSelection,
} from '../../core/model/listing.ts';
import { assertNoViolation } from '../../core/model/verdict.ts';
import { type CheckContext, NotRun, notExercised } from '../../core/run/check.ts';
import { COLLECTION_ACCESS_RULES, collectionAccessProperty } from '../../core/run/collection-access.ts';
import { collectionListings, learnCollection, selectionsOf } from '../../core/run/collection-listings.ts';
import { enumerate, Unusable } from '../../core/run/walk.ts';
import { detailsOf, eachCollection, onCollection, titled } from '../../fixtures/collections.ts';
import { test } from '../../fixtures/test.ts';

const WHAT: Partial<Record<(typeof COLLECTION_ACCESS_RULES)[number]['rule'], string>> = {
  'AUTH-MISSING': 'no Authorization header (or an empty one) gets 401 on every merchant, with any query, GET or HEAD',
  'AUTH-INVALID': 'malformed headers and tampered keys get 401 on every merchant, with any query',
  'AUTH-REVOKED': 'the revoked key gets 401 in every spelling, on every merchant',
  'AUTH-FIRST': 'bad keys get 401 on an unknown merchant, with any query',
  'AUTH-FORBIDDEN': 'the restricted key gets 403 on every merchant, with any query and spelling (never 401 or 200)',
  'MODE-TEST-SANDBOX': 'the test key lists the sandbox merchants with any query (200)',
  'MODE-LIVE-SANDBOX': 'the live key on a sandbox merchant gets 404 with any query',
  'MODE-TEST-LIVE': 'the test key lists the live merchant with any query (200)',
  'MODE-LIVE-LIVE': 'the live key lists the live merchant with any query (200)',
  'ADV-UNKNOWN-MERCHANT': 'a valid key on an unknown merchant gets 404 (403 acceptable), with any query',
};

/** A filter value the collection has (declared, or seen on its first listing), for the requests with a full query. */
async function someFilter(ctx: CheckContext, c: Collection) {
  if (collectionListings(ctx.target, c).length === 0) return undefined;
  return (await learnCollection(ctx, c)).filters(0)[0];
}

/** Two listings that share no record under the first selections; the check is not exercised when one is empty. */
async function isolated(ctx: CheckContext, c: Collection, a: Listing, b: Listing) {
  const filter = await someFilter(ctx, c);
  const selections: Selection[] = selectionsOf(c, filter ? [filter] : []).slice(0, 3);
  for (const [k, s] of selections.entries()) {
    const read = async (l: Listing) => {
      try {
        const set = await enumerate(ctx, withSelection(l, s));
        return { label: describeListing(set.listing), records: set.records, pages: set.pages, complete: set.complete };
      } catch (error) {
        if (!(error instanceof Unusable)) throw error;
        throw new NotRun(
          'blocked',
          `${describeListing(l)} is not readable (${error.violation.received}); see the MODE-* checks of ${c.name}`,
        );
      }
    };
    const [left, right] = [await read(a), await read(b)];
    assertNoViolation(sharedRecordsViolation(ctx.rule as 'MODE-ISOLATION' | 'MER-ISOLATION', left, right));
    if (k > 0) continue;
    for (const l of [left, right])
      if (l.records.length === 0) notExercised(ctx, `${l.label} is empty: nothing to compare`);
  }
}

eachCollection('§5, §7 Access:', (c) => {
  for (const { rule } of COLLECTION_ACCESS_RULES) {
    test(
      titled(rule, c, WHAT[rule] ?? 'its answers on the path'),
      detailsOf(c),
      onCollection(c, async (ctx) => collectionAccessProperty(ctx, ACCESS_ORACLE, c, await someFilter(ctx, c))),
    );
  }

  const of = (merchant: string, slot: 'test' | 'live'): Listing => ({ merchant, auth: asKey(slot), collection: c });
  if (c.access.scope === 'merchant') {
    test(
      titled(
        'MODE-ISOLATION',
        c,
        'test-key and live-key listings of the live merchant share no record (unfiltered, filtered, sorted)',
      ),
      detailsOf(c),
      onCollection(
        c,
        async (ctx) => {
          const live = ctx.target.merchants.live as string;
          await isolated(ctx, c, of(live, 'test'), of(live, 'live'));
        },
        { needs: ['live', 'liveMerchant'] },
      ),
    );
    test(
      titled(
        'MER-ISOLATION',
        c,
        'the listings of different merchants (test key) share no record (unfiltered, filtered, sorted)',
      ),
      detailsOf(c),
      onCollection(c, async (ctx) => {
        const { sandbox, live, otherSandbox } = ctx.target.merchants;
        const others = [otherSandbox, live].filter((m): m is string => !!m);
        if (others.length === 0) throw new NotRun('needs input', 'needs LIVE_MERCHANT_ID or OTHER_SANDBOX_MERCHANT_ID');
        for (const other of others) await isolated(ctx, c, of(sandbox, 'test'), of(other, 'test'));
      }),
    );
  } else {
    test(
      titled(
        'MODE-ISOLATION',
        c,
        "the test key's and the live key's listings share no record (unfiltered, filtered, sorted)",
      ),
      detailsOf(c),
      onCollection(c, async (ctx) => isolated(ctx, c, of('', 'test'), of('', 'live')), { needs: ['live'] }),
    );
  }

  test(
    titled(
      'KEY-SECRET',
      c,
      'no answer on its path gives a key back, whole, encoded or most of it (200, 401, 403, 404; GET, HEAD, OPTIONS)',
    ),
    detailsOf(c),
    onCollection(c, async (ctx) => {
      const { target: t, api } = ctx;
      const merchant = t.merchants.sandbox;
      const path = listingPath({ collection: c, merchant: c.access.scope === 'merchant' ? merchant : '' });
      const filter = await someFilter(ctx, c);
      const mutation = keyMutations(t.keys.test).find((m) => m.name.startsWith('extended'));
      const requests: Array<[Auth, Selection?]> = [
        [asKey('test'), { filter, sort: c.sorts[0]?.field }],
        [asKey('test', { mutation })],
        [asKey('test', { mutation: BASIC_CREDENTIALS, scheme: 'Basic' })],
        ...(['live', 'restricted', 'revoked'] as const).filter((s) => t.keys[s]).map((s): [Auth] => [asKey(s)]),
      ];
      const answers: Exchange[] = [];
      for (const [auth, s] of requests)
        answers.push(await api.get(path, { auth, query: requestQuery({ limit: 3, ...(s ?? {}) }) }));
      answers.push(await api.request('HEAD', path, { auth: asKey('test') }));
      answers.push(await api.request('OPTIONS', path, { auth: asKey('test', { mutation }) }));
      answers.push(await api.get(path, { auth: NO_AUTH }));
      assertNoViolation(firstViolation(answers.map(keyLeakViolation)));
    }),
  );

  test(
    titled(
      'ADV-UNKNOWN-PATH',
      c,
      'no valid key on a path beside it that the collections file does not declare gets 401 (404 reported)',
    ),
    detailsOf(c),
    onCollection(c, async (ctx) => {
      const [listing] = collectionListings(ctx.target, c);
      const base = listing
        ? listingPath(listing)
        : listingPath({ collection: c, merchant: ctx.target.merchants.sandbox });
      const bad = asKey('test', { mutation: unknownKeyOfValidFormat(ctx.target.keys.test) });
      const answers = [];
      for (const [path, auth, why] of [
        [`${base}/no-such-path`, NO_AUTH, 'no key'],
        [`${base}-none`, bad, 'a never-issued key'],
      ] as const) {
        answers.push(unknownPathViolation(await ctx.api.get(path, { auth }), why));
      }
      assertNoViolation(firstViolation(answers));
    }),
  );

  test(
    titled(
      'ADV-SCHEME',
      c,
      'the test key written bearer, BEARER or with two spaces gets the answer of Bearer; Basic and other schemes get 401',
    ),
    detailsOf(c),
    onCollection(c, async (ctx) => {
      const [listing] = collectionListings(ctx.target, c);
      if (!listing) throw new NotRun('needs input', `no configured key may list ${c.name}`);
      const path = listingPath(listing);
      const answers = [];
      for (const spelling of [
        { scheme: 'bearer', gap: ' ' },
        { scheme: 'BEARER', gap: ' ' },
        { scheme: 'Bearer', gap: '  ' },
      ]) {
        answers.push(
          spellingRefusedViolation(
            await ctx.api.get(path, {
              auth: asKey(listing.auth.kind === 'key' ? listing.auth.slot : 'test', spelling),
            }),
          ),
        );
      }
      for (const auth of [
        asKey('test', { scheme: 'Basic', mutation: BASIC_CREDENTIALS }),
        asKey('test', { scheme: 'Token' }),
      ]) {
        answers.push(
          unauthorizedViolation('ADV-SCHEME', await ctx.api.get(path, { auth }), 'a scheme other than Bearer'),
        );
      }
      assertNoViolation(firstViolation(answers));
    }),
  );
});
