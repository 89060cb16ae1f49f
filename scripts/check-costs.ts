/**
 * `npm run costs`: measures what each check costs in requests — a whole run against the bundled mock, with the default
 * settings and a fixed seed — and writes reporters/check-costs.json, from which the progress line estimates the
 * requests left (reporters/progress.ts). Run it again when checks are added, renamed or changed much;
 * tests/unit/progress.test.ts fails when a check of specs/ has no cost.
 */

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { REPORT_FILES } from '../core/model/outputs.ts';
import { redact } from '../core/model/secrets.ts';
import type { CheckRecord } from '../core/model/verdict.ts';
import { listedChecks } from './listed-checks.ts';
import { runSuite } from './run-suite.ts';

/** The titles of the checks of a run against the bundled mock (payments alone), as Playwright lists them. */
export function specTitles(): Array<string | RegExp> {
  return listedChecks().map((c) => c.title);
}

/** Whether a check's title is one of `titles` (a string as is, a pattern by match). */
export const isTitleOf = (titles: ReadonlyArray<string | RegExp>, title: string): boolean =>
  titles.some((t) => (typeof t === 'string' ? t === title : t.test(title)));

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const dir = mkdtempSync(join(tmpdir(), 'check-costs-'));
  try {
    const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: process.env.HOME, FORCE_COLOR: '0' };
    const run = await runSuite({ ...env, CONFORMANCE_REPORTS_DIR: dir, FC_SEED: '20261122' });
    if (run.status !== 0) throw new Error(`the run against the bundled mock exited ${run.status}:\n${run.stdout}`);
    const { checks } = JSON.parse(readFileSync(join(dir, REPORT_FILES.json), 'utf8')) as { checks: CheckRecord[] };
    // The records' titles went through redaction (a title may look key-like): keyed by the title as written.
    const written = new Map(specTitles().flatMap((t) => (typeof t === 'string' ? [[redact(t), t] as const] : [])));
    const costs = Object.fromEntries(
      checks
        .map((c) => [written.get(c.check) ?? c.check, c.requests] as const)
        .sort((a, b) => a[0].localeCompare(b[0])),
    );
    writeFileSync(new URL('../reporters/check-costs.json', import.meta.url), `${JSON.stringify(costs, null, 2)}\n`);
    console.log(`costs: ${checks.length} checks, ${Object.values(costs).reduce((a, b) => a + b, 0)} requests`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
