/**
 * A name is exported because another file needs it (issue 27): of the production files' named exports (tests/ and
 * scripts/ aside), at most a handful are named by no other file of the project (a file loaded by path, bin/'s
 * commands, counts as naming what it loads). knip (the lint stage) finds exports nothing imports but lets a module's own
 * use keep one; this counts the names no other file so much as mentions.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { test } from 'node:test';

const ROOT = new URL('../..', import.meta.url).pathname;
const SKIP = new Set(['node_modules', 'dist', 'reports', 'test-results', 'playwright-report', '.git']);

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    if (SKIP.has(e.name) || e.name.startsWith('.')) return [];
    const path = join(dir, e.name);
    return e.isDirectory() ? files(path) : /\.(ts|js)$/.test(e.name) ? [relative(ROOT, path)] : [];
  });
}

const DECLARED =
  /^export\s+(?:declare\s+)?(?:async\s+)?(?:function\*?|const|let|class|interface|type|enum|abstract class)\s+([A-Za-z_$][\w$]*)/gm;

/** The production files' exported names no other file mentions. */
function unnamedExports(): string[] {
  const all = files(ROOT);
  const text = new Map(all.map((f) => [f, readFileSync(join(ROOT, f), 'utf8')]));
  const production = all.filter((f) => f.endsWith('.ts') && !/^(tests|scripts)\//.test(f));
  return production.flatMap((f) =>
    [...new Set([...(text.get(f) ?? '').matchAll(DECLARED)].map((m) => m[1] as string))]
      .filter((name) => {
        const word = new RegExp(`\\b${name.replace(/\$/g, '\\$')}\\b`);
        return !all.some((g) => g !== f && word.test(text.get(g) ?? ''));
      })
      .map((name) => `${f}: ${name}`),
  );
}

test('at most 10 exports that no other file names', () => {
  const unnamed = unnamedExports();
  assert.ok(unnamed.length <= 10, `${unnamed.length} exports no other file names:\n${unnamed.join('\n')}`);
});
