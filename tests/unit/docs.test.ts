/**
 * The rule, fault and variant tables of the docs are generated (`npm run docs`, scripts/docs.ts) from the
 * catalogues: a committed file that differs from what the generator writes is stale.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { RULES } from '../../core/model/rules.ts';
import { checkedIn, expectedDocs } from '../../scripts/docs.ts';

for (const [path, expected] of expectedDocs()) {
  test(`${path} is up to date with the catalogues (npm run docs)`, () => {
    const actual = readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');
    assert.ok(actual === expected, `${path} is stale: run npm run docs and commit the result`);
  });
}

test('every rule of the catalogue has a check', () => {
  const where = checkedIn();
  assert.deepEqual(
    RULES.filter((r) => !where.has(r.id)).map((r) => r.id),
    [],
  );
});
