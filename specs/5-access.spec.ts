/**
 * §5 Authentication, §5.3–§5.6 modes, §7 Errors (401, 403, 404): the access matrix on every collection the run checks
 * — which credential, under which spelling of the header, with which method and query, on which merchant, gets which
 * answer — one check per access rule of the catalogue (core/model/rules.ts declares the cells each owns), drawn by
 * core/generate/access-cases.ts and judged by checks/access-oracle.ts. The spec's collection takes /merchant/status in
 * ("both endpoints"). Read with reading.md "Keys, modes, merchants" and "Methods".
 */
import type { Collection } from '../core/model/collection.ts';
import { ACCESS_RULES, type AccessRule, accessCells } from '../core/model/rules.ts';
import { accessProperty } from '../core/run/access-property.ts';
import { eachCollection } from '../fixtures/collections.ts';

/** What a rule's access check says on a collection: its catalogue text, with the endpoints it is judged on. */
const what = (rule: AccessRule, c: Collection) =>
  accessCells(rule).check.replace('{endpoints}', c.spec ? 'both endpoints' : 'its path');

eachCollection('§5, §7 The access matrix:', (c, check) => {
  for (const rule of ACCESS_RULES) {
    // A rule of /merchant/status alone (AUTH-STATUS) goes with the spec's collection.
    if (!c.spec && !accessCells(rule).endpoints.includes('list')) continue;
    check(rule, what(rule, c), (ctx) => accessProperty(ctx, c));
  }
});
