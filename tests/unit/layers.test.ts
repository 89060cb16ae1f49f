/**
 * The layers of the tree import downward only (README "Layout"): every relative import of every production folder
 * and root file — the scripts, the commands, the bin and playwright.config.ts too — is checked against what its layer
 * may import; no file imports itself back through others, and no folder does either (madge --circular, stage lint,
 * sees the files; the folders are checked here).
 *
 *   core/model <- core/client <- core/generate <- core/run;  core/model <- checks <- core/run
 *   core/model <- reporters <- commands;  everything <- fixtures <- specs;  the mock knows only the rule ids;
 *   the suite's layers and the mock's entry <- fidelity
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

const CORE = ['core/model', 'core/client', 'core/generate', 'core/run'];
const SHIPPED = [...CORE, 'checks', 'reporters', 'commands', 'fixtures', 'schemas', 'fidelity'];

/** Each layer, and what it may import besides itself. The first layer that holds a file is its own. */
const LAYERS: Array<{ layer: string; may: string[] }> = [
  // The model imports nothing of the project but the JSON Schemas (the key formats).
  { layer: 'core/model', may: ['schemas'] },
  { layer: 'checks', may: ['core/model', 'schemas'] },
  { layer: 'core/client', may: ['core/model'] },
  { layer: 'core/generate', may: ['core/model'] },
  // The run layer asks the pure judges of checks/ itself (the access oracle, the spelling judge): no judge is handed in.
  { layer: 'core/run', may: ['core/model', 'core/client', 'core/generate', 'checks'] },
  { layer: 'reporters', may: ['core/model'] },
  { layer: 'commands', may: ['core/model', 'reporters'] },
  { layer: 'fixtures', may: [...CORE, 'checks', 'mock/index.ts', 'mock/identity.json'] },
  { layer: 'specs', may: [...CORE, 'checks', 'fixtures'] },
  // The fidelity diff and the calibration of the bundled mock (a subcommand): the suite's client, cases and checks,
  // the reporters' page, and the mock it starts in-process.
  { layer: 'fidelity', may: [...CORE, 'checks', 'reporters', 'commands/options.ts', 'mock/index.ts'] },
  // The mock knows the suite's rule ids (each fault names the rule it breaks), and nothing else of it.
  { layer: 'mock', may: ['core/model/rules.ts'] },
  // The command is plain JavaScript: it reaches the suite's modules by path at run time, never by an import.
  { layer: 'bin', may: ['core/model/outputs.json'] },
  { layer: 'playwright.config.ts', may: [...CORE, 'fixtures', 'reporters'] },
  // The project's own scripts use the shipped code and the mock; `npm test` runs the tests, and the docs' figures
  // count the proof's projects.
  { layer: 'scripts/selftest.ts', may: [...SHIPPED, 'scripts', 'mock/identity.json', 'tests'] },
  { layer: 'scripts/docs.ts', may: [...SHIPPED, 'scripts', 'mock/index.ts', 'tests/proof'] },
  { layer: 'scripts', may: [...SHIPPED, 'mock/index.ts'] },
];

const layerOf = (file: string) => LAYERS.find((l) => file === l.layer || file.startsWith(`${l.layer}/`));

/** The source files of a folder (or the root file itself). */
function filesOf(path: string): string[] {
  if (/\.(ts|js)$/.test(path)) return [path];
  return readdirSync(join(ROOT, path), { recursive: true, encoding: 'utf8' })
    .filter((f) => /\.(ts|js)$/.test(f))
    .map((f) => `${path}/${f}`);
}

/** The repository-relative files a file imports, static and dynamic, as TypeScript's own scanner finds them. */
function importsOf(file: string): string[] {
  const info = ts.preProcessFile(readFileSync(join(ROOT, file), 'utf8'), true, true);
  return info.importedFiles
    .map((i) => i.fileName)
    .filter((s) => s.startsWith('.'))
    .map((s) => relative(ROOT, join(ROOT, dirname(file), s)));
}

const FILES = [...new Set(LAYERS.flatMap((l) => filesOf(l.layer)))].filter((f) => !f.endsWith('.compiled.ts'));

/** Every relative specifier written in a file, counted from its text: the scanner must find each. */
const written = (file: string) =>
  [...readFileSync(join(ROOT, file), 'utf8').matchAll(/(?:from\s+|import\s*\(\s*|^import\s+)'\.{1,2}\/[^']+'/gm)]
    .length;

describe('layers', () => {
  test('each layer imports only the layers below it', () => {
    const wrong: string[] = [];
    for (const file of FILES) {
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
    const graph = new Map(FILES.map((f) => [f, importsOf(f).filter((i) => /\.(ts|js)$/.test(i))]));
    assert.deepEqual(circles(graph), []);
  });

  test('no folder imports itself back through others (checks <-> core and the like)', () => {
    const folderOf = (file: string) => layerOf(file)?.layer ?? dirname(file);
    const graph = new Map<string, string[]>();
    for (const file of FILES) {
      const from = folderOf(file);
      const to = importsOf(file)
        .map(folderOf)
        .filter((f) => f !== from);
      graph.set(from, [...new Set([...(graph.get(from) ?? []), ...to])]);
    }
    assert.deepEqual(circles(graph), []);
  });

  test('the scan sees the tree: every layer has files, and every relative import written is found', () => {
    for (const { layer } of LAYERS) {
      assert.ok(
        FILES.some((f) => layerOf(f)?.layer === layer),
        `${layer} is empty`,
      );
    }
    const missed = FILES.filter((f) => importsOf(f).length !== written(f));
    assert.deepEqual(missed, []);
    const total = FILES.reduce((n, f) => n + written(f), 0);
    assert.equal(
      FILES.flatMap(importsOf).length,
      total,
      `the scanner found every one of the ${total} relative imports`,
    );
  });
});

/** The import circles of a graph, each as `a -> b -> a`. */
function circles(graph: Map<string, string[]>): string[] {
  const found: string[] = [];
  const state = new Map<string, 'open' | 'done'>();
  const visit = (node: string, path: string[]) => {
    if (state.get(node) === 'done') return;
    if (state.get(node) === 'open') {
      found.push([...path.slice(path.indexOf(node)), node].join(' -> '));
      return;
    }
    state.set(node, 'open');
    for (const next of graph.get(node) ?? []) visit(next, [...path, node]);
    state.set(node, 'done');
  };
  for (const node of graph.keys()) visit(node, []);
  return found;
}
