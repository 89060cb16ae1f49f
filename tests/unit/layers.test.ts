/**
 * The layers of the tree import downward only (README "Layout"): every relative import of the shipped code is
 * checked against what its folder may import, and no file imports itself back through others. `npm test` also runs
 * `madge --circular` over the whole tree (stage lint).
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** Each layer, in import order, and what it may import (besides itself). */
const LAYERS: Array<{ layer: string; may: string[] }> = [
  { layer: 'core/model', may: [] },
  { layer: 'checks', may: ['core/model', 'schemas'] },
  { layer: 'core/client', may: ['core/model'] },
  { layer: 'core/generate', may: ['core/model'] },
  { layer: 'core/run', may: ['core/model', 'core/client', 'core/generate', 'checks'] },
  { layer: 'reporters', may: ['core/model', 'core/client'] },
  {
    layer: 'fixtures',
    may: ['core/model', 'core/client', 'core/generate', 'core/run', 'checks', 'mock/index.ts', 'mock/identity.json'],
  },
  { layer: 'commands', may: ['core/model', 'core/client', 'core/run', 'checks', 'reporters'] },
  { layer: 'specs', may: ['core/model', 'core/client', 'core/generate', 'core/run', 'checks', 'fixtures'] },
  // The mock knows the suite's rule ids (each fault names the rule it breaks), and nothing else of it.
  { layer: 'mock', may: ['core/model/rules.ts'] },
];

const layerOf = (file: string) => LAYERS.find((l) => file === l.layer || file.startsWith(`${l.layer}/`));

function files(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts'))
    .map((f) => `${dir}/${f}`);
}

/** The repository-relative files a file imports (relative specifiers only: packages are not layers). */
function importsOf(file: string): string[] {
  const text = readFileSync(join(ROOT, file), 'utf8');
  const specs = [...text.matchAll(/(?:from|import)\s*\(?\s*'(\.{1,2}\/[^']+)'/g)].map((m) => m[1] as string);
  return specs.map((s) => relative(ROOT, join(ROOT, dirname(file), s)));
}

const SHIPPED = LAYERS.flatMap((l) => (l.layer.endsWith('.ts') ? [l.layer] : files(l.layer)));

describe('layers', () => {
  test('each layer imports only the layers below it', () => {
    const wrong: string[] = [];
    for (const file of SHIPPED) {
      const own = layerOf(file);
      if (!own) continue;
      for (const imported of importsOf(file)) {
        const allowed = [own.layer, ...own.may].some((l) => imported === l || imported.startsWith(`${l}/`));
        if (!allowed) wrong.push(`${file} -> ${imported}`);
      }
    }
    assert.deepEqual(wrong, []);
  });

  test('no file imports itself back through others', () => {
    const graph = new Map(SHIPPED.map((f) => [f, importsOf(f).filter((i) => i.endsWith('.ts'))]));
    const circles: string[] = [];
    const state = new Map<string, 'open' | 'done'>();
    const visit = (file: string, path: string[]) => {
      if (state.get(file) === 'done') return;
      if (state.get(file) === 'open') {
        circles.push([...path.slice(path.indexOf(file)), file].join(' -> '));
        return;
      }
      state.set(file, 'open');
      for (const next of graph.get(file) ?? []) visit(next, [...path, file]);
      state.set(file, 'done');
    };
    for (const file of graph.keys()) visit(file, []);
    assert.deepEqual(circles, []);
  });

  test('the scan sees the tree (every layer has files, and imports were found)', () => {
    for (const { layer } of LAYERS)
      assert.ok(
        SHIPPED.some((f) => layerOf(f)?.layer === layer),
        `${layer} is empty`,
      );
    assert.ok(SHIPPED.flatMap(importsOf).length > 100);
  });
});
