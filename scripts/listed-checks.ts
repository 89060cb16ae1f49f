/**
 * The suite's checks as Playwright lists them (`playwright test --list`, nothing run, nothing written): each title
 * and the spec file that declares it, against the bundled mock with the collections file given. The docs' "checked
 * in" column and the cost table read the checks from here rather than from the specs' text, whose titles are built
 * from each collection's data.
 */
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

export interface ListedCheck {
  title: string;
  /** The spec file, relative to the project (`specs/4.2-sort.spec.ts`). */
  file: string;
}

interface JsonSuite {
  file?: string;
  suites?: JsonSuite[];
  specs?: Array<{ title: string }>;
}

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const listed = new Map<string, ListedCheck[]>();

/** Every check of a run against the bundled mock with `collections` (a collections file; '' for payments alone). */
export function listedChecks(collections = ''): ListedCheck[] {
  const known = listed.get(collections);
  if (known) return known;
  const cli = createRequire(import.meta.url).resolve('@playwright/test/cli');
  const run = spawnSync(process.execPath, [cli, 'test', '--list', '--reporter=json'], {
    cwd: ROOT,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
    env: { ...process.env, API_COLLECTIONS: collections, CONFORMANCE_GREP: '', API_BASE_URL: '' },
  });
  if (run.status !== 0) throw new Error(`playwright test --list exited ${run.status}: ${run.stderr}`);
  const checks: ListedCheck[] = [];
  // A check's own location may be the fixture that declares it for each collection: its file is the spec's, the
  // top suite's.
  const walk = (s: JsonSuite, file: string) => {
    for (const spec of s.specs ?? []) checks.push({ title: spec.title, file: `specs/${file}` });
    for (const inner of s.suites ?? []) walk(inner, file);
  };
  for (const s of (JSON.parse(run.stdout) as { suites: JsonSuite[] }).suites) walk(s, s.file ?? '');
  listed.set(collections, checks);
  return checks;
}
