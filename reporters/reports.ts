/**
 * Every report of a run's rule matrix, written from its summary alone, so that a run (the end-of-run reporter) and a
 * merge of shards write the same set: conformance.json and conformance.md (summary-text.ts), junit.xml (junit.ts) and
 * conformance.html (html.ts), and under GitHub Actions the job summary and annotations (github.ts).
 *
 * A reports folder holds one run: the run clears what an earlier one wrote there before it writes anything
 * (`clearRun`, under the folder's lock), and a run refused at its set-up writes the whole set too
 * (`writeSetUpReports`), so that no report of an earlier run is ever read as this one's.
 */

import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPORT_FILES, RUN_OUTPUTS, SHARD_FOLDER } from '../core/model/outputs.ts';
import { redact } from '../core/model/secrets.ts';
import { reportToGitHub } from './github.ts';
import { conformanceHtml } from './html.ts';
import { junitXml } from './junit.ts';
import { type SetUpRun, type Summary, setUpSummary } from './summary.ts';
import { markdown } from './summary-text.ts';

/** The files of the rule matrix itself, in the run's folder (or its shard's). */
const MATRIX_FILES = Object.values(REPORT_FILES);

/**
 * Removes from `dir` what an earlier run wrote there, and nothing else (the folder may be the user's own, `--reports .`):
 * the rule matrix and its reports, Playwright's and Allure's reports, the ledger and the request log. A shard's run
 * (`shard` its folder, shard-2-of-3) keeps the other shards' folders, which are its siblings in one run; an unsharded
 * run removes them. The lock (.run.lock) stays: the caller holds it.
 */
export function clearRun(dir: string, shard?: string): void {
  if (!existsSync(dir)) return;
  const ledgerFiles = readdirSync(dir).filter((f) => f.startsWith(`${RUN_OUTPUTS.ledger}.`));
  const shards = readdirSync(dir).filter((f) => SHARD_FOLDER.test(f) && (!shard || f === shard));
  for (const name of [...MATRIX_FILES, ...Object.values(RUN_OUTPUTS), ...ledgerFiles, ...shards]) {
    rmSync(join(dir, name), { recursive: true, force: true });
  }
}

export function writeReports(dir: string, summary: Summary, env: NodeJS.ProcessEnv = process.env): void {
  writeSummary(dir, summary);
  writeFileSync(join(dir, REPORT_FILES.junit), junitXml(summary));
  writeFileSync(join(dir, REPORT_FILES.html), conformanceHtml(summary));
  reportToGitHub(summary, dir, env);
}

/**
 * The reports of a run refused at its set-up — by the config loader (playwright.config.ts, before any request), the
 * command's options, the baseline, a --grep that selects nothing, or the preflight (after its few requests): the whole
 * set (conformance.json, .md, .html, and junit.xml with one failing "set-up" test case), the outcome "bad
 * configuration" (exit 2) decided by the problems, which name variables, never key values.
 */
export function writeSetUpReports(dir: string, problems: string[], run: SetUpRun = {}): Summary {
  const summary = setUpSummary(problems, run);
  writeReports(dir, summary);
  return summary;
}

/** Writes conformance.json and conformance.md into `dir`, secret-free. */
function writeSummary(dir: string, summary: Summary): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, REPORT_FILES.json), redact(`${JSON.stringify(summary, null, 2)}\n`));
  writeFileSync(join(dir, REPORT_FILES.markdown), redact(markdown(summary)));
}
