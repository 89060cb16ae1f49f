/**
 * §5.2 Authentication, §5.6 modes, §1 isolation, under spellings of a merchant id: the id in the payments path in
 * other Unicode forms, look-alike letters, another case, truncated or extended, percent-encoded in part or twice,
 * with white space, dots or slashes around it (core/generate/spelled-ids.ts). Read with reading.md "Keys,
 * modes, merchants": a spelling the target resolves to a merchant obeys that merchant's rules; one it does not
 * resolve may get 404, 403, 401 or a redirect, never a 2xx to a credential that may not list the merchant.
 */

import { unknownKeyOfValidFormat } from '../core/generate/key-mutations.ts';
import { spelledCredential, spelledIsolation } from '../core/run/spelled-id-property.ts';
import { settle, test } from '../fixtures/test.ts';

test.describe('§5.2, §5.6, §1 Spellings of a merchant id', () => {
  // One worker asks the test key once what each spelling is, for every check here (the learning is memoised per
  // worker): the checks run in order in that worker.
  test.describe.configure({ mode: 'default' });

  // reading: without a valid key, 401 on the payments list "of any merchant id, existing or not … and on any spelling
  // of those paths that the target serves".
  test(
    'AUTH-MISSING no spelling of a merchant id lists payments without a key (401 where the test key is served, never a 2xx)',
    settle((ctx) => spelledCredential(ctx, { kind: 'none' })),
  );
  test(
    'AUTH-INVALID no spelling of a merchant id accepts a never-issued key (401 where the test key is served, never a 2xx)',
    settle((ctx) =>
      spelledCredential(ctx, {
        kind: 'key',
        slot: 'test',
        mutation: unknownKeyOfValidFormat(ctx.target.keys.test),
      }),
    ),
  );
  test(
    'AUTH-REVOKED no spelling of a merchant id accepts the revoked key (401 where the test key is served, never a 2xx)',
    settle((ctx) => spelledCredential(ctx, { kind: 'key', slot: 'revoked' }), { needs: ['revoked'] }),
  );
  // §5.6 "Only test keys can be used with sandbox merchants", §7 404 for an object of the other mode: on a spelling
  // that resolves to a sandbox merchant too. Tried on a spelling of every class, served or not: a lookup only the live
  // key's path takes is the defect this finds.
  test(
    "MODE-LIVE-SANDBOX no spelling of a sandbox merchant's id lists its payments to the live key (404 where it resolves to it)",
    settle(
      (ctx) =>
        spelledCredential(
          ctx,
          { kind: 'key', slot: 'live' },
          { roles: ['sandbox', 'otherSandbox'], everyClassOn: 'sandbox' },
        ),
      {
        needs: ['live'],
      },
    ),
  );
  // §7 403 for a key without the permission: on every spelling that resolves to a merchant, never 401 or 200.
  test(
    'AUTH-FORBIDDEN no spelling of a merchant id lists payments to the restricted key (403 where it resolves to the merchant)',
    settle((ctx) => spelledCredential(ctx, { kind: 'key', slot: 'restricted' }), {
      needs: ['restricted'],
    }),
  );
  // reading: "A listing holds only that merchant's payments": the listing a spelling resolves to as well.
  test(
    "MER-ISOLATION a spelling of a merchant id that the test key is served lists no other merchant's payments",
    settle((ctx) => spelledIsolation(ctx, 'MER-ISOLATION')),
  );
  // §1 "Objects created in one mode are not accessible from the other": the test key on a spelling of the live
  // merchant sees its test payments only.
  test(
    'MODE-ISOLATION a spelling of the live merchant lists the test key no live payment',
    settle((ctx) => spelledIsolation(ctx, 'MODE-ISOLATION'), { needs: ['live', 'liveMerchant'] }),
  );
});
