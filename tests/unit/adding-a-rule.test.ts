/**
 * docs/adding-a-rule.md stays true: the files it names are the project's, and the rule list is written once — no
 * production file but the catalogue (core/model/rules.ts) holds a list of rule ids (an array of them, a table keyed by
 * them, a list of tuples headed by them) that a new rule would have to be added to by hand.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { RULES } from '../../core/model/rules.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const CATALOGUE = 'core/model/rules.ts';
const IDS = new Set<string>(RULES.map((r) => r.id));

/** The rule ids a literal lists: an array's string elements, an object's keys, or the heads of an array's tuples. */
function listed(n: ts.Node): string[] {
  const text = (e: ts.Node | undefined) => (e && ts.isStringLiteral(e) ? [e.text] : []);
  if (ts.isArrayLiteralExpression(n)) {
    const heads = n.elements.flatMap((e) => (ts.isArrayLiteralExpression(e) ? text(e.elements[0]) : text(e)));
    return heads.filter((t) => IDS.has(t));
  }
  if (ts.isObjectLiteralExpression(n)) {
    return n.properties
      .flatMap((p) => (p.name && (ts.isStringLiteral(p.name) || ts.isIdentifier(p.name)) ? [p.name.text] : []))
      .filter((t) => IDS.has(t));
  }
  return [];
}

/** Where a production file writes a list of two or more rule ids: `file:line (ids)`. */
function ruleLists(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(`${ROOT}${file}`, 'utf8'), ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (n: ts.Node) => {
    const ids = listed(n);
    if (ids.length >= 2) {
      const line = source.getLineAndCharacterOfPosition(n.getStart()).line + 1;
      found.push(`${file}:${line} (${ids.slice(0, 3).join(', ')}${ids.length > 3 ? ', …' : ''})`);
    }
    ts.forEachChild(n, visit);
  };
  visit(source);
  return found;
}

test('docs/adding-a-rule.md names files that exist, at most five for a rule of a kind the suite has', () => {
  const page = readFileSync(`${ROOT}docs/adding-a-rule.md`, 'utf8');
  const rows = [...page.matchAll(/^\| \d \| `([^`]+)` \|/gm)].map((m) => m[1] as string);
  assert.ok(rows.length > 0 && rows.length <= 5, `${rows.length} files in the table`);
  assert.equal(rows[0], CATALOGUE);
  for (const path of rows) {
    const concrete = path.replace('<concern>', 'filter').replace('<group>', 'filter-sort');
    assert.ok(existsSync(`${ROOT}${concrete}`), `${path}: no such file (as ${concrete})`);
  }
});

test('the rule list is written once: no production file but the catalogue lists rule ids', () => {
  const files = execFileSync('git', ['ls-files', '*.ts'], { cwd: ROOT, encoding: 'utf8' })
    .split('\n')
    .filter((f) => f && !f.startsWith('tests/') && !f.endsWith('.compiled.ts') && f !== CATALOGUE)
    .filter((f) => existsSync(`${ROOT}${f}`));
  assert.deepEqual(files.flatMap(ruleLists), []);
});
