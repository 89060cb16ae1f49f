/**
 * GitHub Actions (GITHUB_ACTIONS=true): the rule matrix goes into the job's summary ($GITHUB_STEP_SUMMARY) and each
 * failing MUST rule becomes one `::error` annotation (an expired baseline entry too; a fixed one a `::notice`), so a
 * reader of the workflow run sees the verdict without opening an artifact.
 */

import { appendFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describeEntry } from '../core/model/baseline.ts';
import { REPORT_FILES } from '../core/model/outputs.ts';
import { redact } from '../core/model/secrets.ts';
import type { Summary } from './summary.ts';
import { failingRules } from './summary-text.ts';

/** A workflow command's message, escaped as GitHub reads it (%, CR, LF), and its properties (also : and ,). */
const data = (s: string) => s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
const prop = (s: string) => data(s).replace(/:/g, '%3A').replace(/,/g, '%2C');

/** The annotation lines of a run: one ::error per rule that fails the run and per expired baseline entry. */
function annotations(s: Summary): string[] {
  const failed = failingRules(s);
  return [
    ...failed.map(
      (r) =>
        `::error title=${prop(`${r.id} (${r.level}, ${r.section}) failed`)}::${data(`${r.id} failed: ${r.evidence}`)}`,
    ),
    ...(s.deviations?.expired ?? []).map(
      (e) =>
        `::error title=${prop(`baseline entry expired: ${e.rule}`)}::${data(`${describeEntry(e)} expired on ${e.until}: renew its date or remove it`)}`,
    ),
    ...(s.deviations?.fixed ?? []).map(
      (e) =>
        `::notice title=${prop(`fixed: ${e.rule}`)}::${data(`${describeEntry(e)} matched no failure: remove it from the baseline`)}`,
    ),
  ].map(redact);
}

/** Under GitHub Actions: prints the annotations and appends conformance.md (written in `dir`) to the step summary. */
export function reportToGitHub(s: Summary, dir: string, env: NodeJS.ProcessEnv = process.env): void {
  if (env.GITHUB_ACTIONS !== 'true') return;
  for (const line of annotations(s)) console.log(line);
  const summaryFile = env.GITHUB_STEP_SUMMARY?.trim();
  if (summaryFile) appendFileSync(summaryFile, `${readFileSync(join(dir, REPORT_FILES.markdown), 'utf8')}\n`);
}
