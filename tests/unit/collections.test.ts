/**
 * The collections file (core/run/collections*.ts): the example files read, every problem of a bad file named by its
 * file, line and JSON pointer (exit 2 before any request), an OpenAPI document's collections derived from its
 * operations; and what a collection's listing sends (core/model/listing.ts).
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import {
  type Collection,
  collectionPath,
  PAYMENTS,
  placeholders,
  publishedCollections,
} from '../../core/model/collection.ts';
import { asKey } from '../../core/model/credentials.ts';
import { describeListing, listingPath, maxLimitOf, requestQuery } from '../../core/model/listing.ts';
import { accessProperty } from '../../core/run/access-property.ts';
import { type CheckContext, NotRun } from '../../core/run/check.ts';
import { loadCollections, publishCollections } from '../../core/run/collections.ts';
import { ConfigError } from '../../core/run/config.ts';

import { everyKeyTarget } from '../support/target.ts';

const EXAMPLES = fileURLToPath(new URL('../../examples/', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'collections-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const file = (name: string, text: string) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};

async function problems(path: string): Promise<string[]> {
  try {
    await loadCollections(path);
  } catch (error) {
    assert.ok(error instanceof ConfigError, String(error));
    return error.problems;
  }
  assert.fail('expected a ConfigError');
}

describe('a collections file', () => {
  test('the example file: refunds, merchant-scoped, a learned filter, a date-time and a code-point sort, its limits', async () => {
    const { collections, notes } = await loadCollections(join(EXAMPLES, 'collections.json'));
    assert.deepEqual(notes, []);
    const [refunds] = collections as [Collection];
    assert.equal(collections.length, 1);
    assert.equal(refunds.name, 'refunds');
    assert.deepEqual(refunds.access, { scope: 'merchant', modes: ['test', 'live'], restrictedKey: 'forbidden' });
    assert.deepEqual(refunds.filters, [{ field: 'reason', values: 'learn' }]);
    assert.deepEqual(refunds.sorts, [
      { field: 'createdAt', type: 'date-time' },
      { field: 'customer', type: 'string', collation: 'codepoint' },
    ]);
    assert.equal(refunds.defaultLimit, 20);
    assert.equal(refunds.maxLimit, 50);
    assert.match(refunds.source, /collections\.json line \d+ \(\/collections\/0\)/);
  });

  test('YAML, with defaults: account-wide without {merchantId}, both keys, the restricted key unknown, "learn"', async () => {
    const path = file(
      'ok.yaml',
      'collections:\n  - name: users\n    path: /orgs/{orgId}/users\n    params: { orgId: org 1 }\n    filters: [role]\n',
    );
    const [users] = (await loadCollections(path)).collections as [Collection];
    assert.deepEqual(users.access, { scope: 'account', modes: ['test', 'live'], restrictedKey: 'unknown' });
    assert.deepEqual(users.filters, [{ field: 'role', values: 'learn' }]);
    assert.equal(collectionPath(users), '/orgs/org%201/users');
    assert.equal(users.maxLimit, undefined);
  });

  test('each problem names the file, the line, the JSON pointer and what is wrong (a near miss too)', async () => {
    const path = file(
      'bad.json',
      JSON.stringify(
        {
          collections: [
            {
              name: 'refunds',
              path: '/m/{merchantId}/refunds',
              filter: ['reason'],
              sorts: [{ field: 'a', type: 'datetime' }],
            },
            { name: 'Users', path: '/users' },
          ],
        },
        null,
        2,
      ),
    );
    const found = await problems(path);
    assert.equal(found.length, 3, found.join('\n'));
    assert.match(
      found[0] as string,
      /bad\.json line 6 \(\/collections\/0\/filter\): unknown field "filter": did you mean "filters"\?/,
    );
    assert.match(
      found[1] as string,
      /line \d+ \(\/collections\/0\/sorts\/0\/type\): must be one of "number", "string", "date-time"/,
    );
    assert.match(found[2] as string, /\(\/collections\/1\/name\): a name is a lower-case word/);
  });

  test('what the schema cannot say: parameters without a value or not in the path, scope, collation, limits, twice', async () => {
    const path = file(
      'semantic.yaml',
      [
        'collections:',
        '  - name: users',
        '    path: /orgs/{orgId}/users',
        '    params: { org: x }',
        '    access: { scope: merchant }',
        '    sorts: [{ field: n, type: number, collation: en }]',
        '    limits: { default: 80, max: 50 }',
        '  - name: users',
        '    path: /payments/n1/merchant/{id}/payments',
      ].join('\n'),
    );
    const found = (await problems(path)).join('\n');
    for (const want of [
      /line 3 \(\/collections\/0\/path\): the path parameter \{orgId\} has no value/,
      /line 4 \(\/collections\/0\/params\/org\): "org" is no parameter of the path/,
      /\(\/collections\/0\/access\/scope\): a merchant-scoped collection's path names \{merchantId\}/,
      /\(\/collections\/0\/sorts\/0\/collation\): only a string field has a collation/,
      /\(\/collections\/0\/limits\/default\): the default limit 80 is over the maximum 50/,
      /\(\/collections\/1\/name\): payments is the spec's own collection/,
      /\(\/collections\/1\/name\): "users" is declared twice/,
    ]) {
      assert.match(found, want);
    }
  });

  test('a file with several mistakes is named whole, in the order of its lines: the schema and the rest at once', async () => {
    const path = file(
      'many.json',
      [
        '{ "collections": [',
        '  { "name": "users", "path": "/orgs/{orgId}/users" },',
        '  { "name": "refunds", "path": "/r/{merchantId}", "filter": ["reason"] },',
        '  { "name": "Bad Name", "path": "/x" },',
        '  { "name": "users", "path": "/items", "params": { "foo": "1" } }',
        '] }',
      ].join('\n'),
    );
    const found = await problems(path);
    assert.deepEqual(
      found.map((p) => p.replace(`${path} `, '')),
      [
        'line 2 (/collections/0/path): the path parameter {orgId} has no value: give it one in "params"',
        'line 3 (/collections/1/filter): unknown field "filter": did you mean "filters"?',
        'line 4 (/collections/2/name): a name is a lower-case word (letters, digits, -; up to 40 characters), e.g. "refunds"',
        `line 5 (/collections/3/params/foo): "foo" is no parameter of the path /items`,
        `line 5 (/collections/3/name): "users" is declared twice (first at ${path} line 2 (/collections/0/name))`,
      ],
    );
  });

  test('a file that is not there, or not JSON or YAML, is named with its line', async () => {
    assert.match(
      (await problems(join(dir, 'missing.json')))[0] as string,
      /names .*missing\.json, which does not exist/,
    );
    const broken = await problems(file('broken.yaml', 'collections:\n  - name: a\n    path: /x\n   bad: [\n'));
    assert.match(broken[0] as string, /broken\.yaml line 4: not JSON or YAML/);
  });

  test('published once, read by the workers', () => {
    const env: NodeJS.ProcessEnv = {};
    assert.deepEqual(publishedCollections(env), []);
    const c = { name: 'x' } as Collection;
    publishCollections([c], env);
    assert.deepEqual(publishedCollections(env), [c]);
    publishCollections([], env);
    assert.deepEqual(publishedCollections(env), []);
  });
});

describe('an OpenAPI document', () => {
  test("the example: refunds from its GET operation (filter enum, sort enum typed by the record, limit's default and maximum); payments skipped", async () => {
    const { collections, notes } = await loadCollections(join(EXAMPLES, 'openapi.yaml'));
    const [refunds] = collections as [Collection];
    assert.equal(collections.length, 1);
    assert.equal(refunds.path, '/payments/n1/merchant/{merchantId}/refunds');
    assert.equal(refunds.filters[0]?.field, 'reason');
    assert.deepEqual(refunds.sorts, [
      { field: 'createdAt', type: 'date-time' },
      { field: 'customer', type: 'string' },
    ]);
    assert.deepEqual([refunds.defaultLimit, refunds.maxLimit], [20, 50]);
    assert.equal(refunds.access.restrictedKey, 'forbidden');
    assert.match(notes[0] as string, /the payments list, checked from the spec/);
  });

  test('names, other path parameters from examples, merchantParam; invalid documents and none without a collection', async () => {
    const doc = (paths: string) =>
      `openapi: 3.1.0\ninfo: { title: x, version: '1' }\npaths:\n${paths}\ncomponents:\n  schemas:\n    Page: { type: object, properties: { data: { type: array, items: { type: object, properties: { n: { type: integer } } } }, offset: { type: integer }, limit: { type: integer }, total: { type: integer } } }\n`;
    const op = (params: string, ext = '') =>
      `    get:\n      parameters: [${params}]\n      responses:\n        '200': { description: ok, content: { application/json: { schema: { $ref: '#/components/schemas/Page' } } } }\n${ext}`;
    const path = file(
      'users.yaml',
      doc(
        `  /v1/orgs/{org}/Users:\n${op('{ name: org, in: path, required: true, schema: { type: string, example: o1 } }, { name: sort, in: query, schema: { enum: [n, -n] } }')}` +
          `  /m/{mid}/items:\n${op('{ name: mid, in: path, required: true, schema: { type: string } }', '      x-conformance: { merchantParam: mid, name: items }\n')}`,
      ),
    );
    const { collections } = await loadCollections(path);
    assert.deepEqual(
      collections.map((c) => [c.name, c.path, c.params, c.access.scope, c.sorts]),
      [
        ['users', '/v1/orgs/{org}/Users', { org: 'o1' }, 'account', [{ field: 'n', type: 'number' }]],
        ['items', '/m/{merchantId}/items', {}, 'merchant', []],
      ],
    );
    const invalid = await problems(file('invalid.yaml', 'openapi: 3.0.3\ninfo: { title: x }\npaths: {}\n'));
    assert.match(
      invalid[0] as string,
      /invalid\.yaml line 2 \(\/info\): not a valid OpenAPI document: must have required property 'version'/,
    );
    const none = await problems(
      file('none.yaml', doc("  /x:\n    get:\n      responses: { '200': { description: ok } }")),
    );
    assert.match(none[0] as string, /no GET operation whose 200 answer is the collection envelope/);
  });
});

describe("a collection's listing", () => {
  const c: Collection = {
    name: 'refunds',
    path: '/payments/n1/merchant/{merchantId}/refunds',
    params: {},
    access: { scope: 'merchant', modes: ['test', 'live'], restrictedKey: 'unknown' },
    filters: [],
    sorts: [],
    maxLimit: 50,
    source: 'x',
  };
  test('its path, query (its filter as filter[<field>]), description and limits', () => {
    const l = {
      merchant: 'msb 1',
      auth: asKey('test'),
      collection: c,
      filter: { field: 'reason', value: 'dup' },
      sort: '-createdAt',
    };
    assert.deepEqual(placeholders(c.path), ['merchantId']);
    assert.equal(listingPath(l), '/payments/n1/merchant/msb%201/refunds');
    assert.deepEqual(requestQuery({ ...l, offset: 2 }), [
      ['offset', '2'],
      ['filter[reason]', 'dup'],
      ['sort', '-createdAt'],
    ]);
    assert.equal(
      describeListing(l),
      'refunds of merchant msb 1 (Authorization: Bearer $API_TEST_KEY) filter[reason]=dup sort=-createdAt',
    );
    assert.equal(maxLimitOf(l), 50);
    assert.equal(maxLimitOf({ collection: PAYMENTS }), 100);
  });
});

describe('the access oracle on a collection only where the file says the key may list it', () => {
  const testOnly: Collection = {
    name: 'refunds',
    path: '/payments/n1/merchant/{merchantId}/refunds',
    params: {},
    access: { scope: 'merchant', modes: ['test'], restrictedKey: 'unknown' },
    filters: [],
    sorts: [],
    source: 'x',
  };
  const ctx = (rule: string) => ({ api: undefined, target: everyKeyTarget(), rule }) as unknown as CheckContext;
  for (const rule of ['MODE-LIVE-SANDBOX', 'MODE-LIVE-LIVE']) {
    test(`${rule}: not run when the live key may not list it (a 403 before the merchant is looked up is legal)`, async () => {
      await assert.rejects(
        accessProperty(ctx(rule), testOnly),
        (e: unknown) => e instanceof NotRun && /the live key does not list refunds/.test(e.message),
      );
    });
  }
});
