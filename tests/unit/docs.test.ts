/**
 * The rule, fault and variant tables of the docs are generated (`npm run docs`, scripts/docs.ts) from the
 * catalogues: a committed file that differs from what the generator writes is stale.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { RULES } from '../../core/model/rules.ts';
import { checkedIn, expectedDocs, FIGURES } from '../../scripts/docs.ts';
import { fenceProblems, markdownFiles } from '../../scripts/lint-markdown.ts';

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
  // A check declared for each collection by a fixture is checked in the spec that asks for it.
  for (const files of where.values()) for (const f of files) assert.match(f, /^specs\/[\w.-]+\.spec\.ts$/);
});

test("the figures the docs quote are the code's: the fault count, retries, the pace's margin, the layout version", () => {
  const figure = (name: string) => (FIGURES[name] as () => string)();
  assert.deepEqual(
    ['retries-429', 'retries-transport', 'retry-after-cap', 'pace-margin', 'schema-version', 'target-gone-after'].map(
      figure,
    ),
    ['5', 'twice', '30 s', '2 %', '2', '3'],
  );
  assert.equal(
    Number(figure('proof-projects')),
    Number(figure('faults')) + Number(figure('variant-sets')) + 12 + Number(figure('collection-projects')),
  );
  // The example collection's: five faults switched on for it alone (every project checks it too).
  assert.equal(figure('collection-projects'), '5');
});

test('markdown code fences: one that never closes, or text after a closing fence, is named by its line', () => {
  assert.deepEqual(fenceProblems('a\n```sh\nx\n```\nb\n~~~\n```\n~~~\n'), []);
  assert.deepEqual(fenceProblems('a\n```sh\nx\n``` Where the package is installed\nmore\n'), [
    'line 4: text after a fence inside the block opened at line 2 ("``` Where the package is installed"): it closes nothing; put the fence on a line of its own',
    'line 2: a code fence that never closes',
  ]);
  assert.deepEqual(fenceProblems('````md\n```\n````\n'), [], 'a shorter fence inside a longer one is text');
  for (const file of markdownFiles()) {
    assert.deepEqual(fenceProblems(readFileSync(file, 'utf8')), [], file);
  }
});
