/**
 * Every report of a run's rule matrix, written from its summary alone, so that a run (the rule-matrix reporter) and a
 * merge of shards write the same set: conformance.json and conformance.md (summary.ts), junit.xml (junit.ts) and
 * conformance.html (html.ts), and under GitHub Actions the job summary and annotations (github.ts).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { reportToGitHub } from './github.ts';
import { conformanceHtml } from './html.ts';
import { junitXml } from './junit.ts';
import { type Summary, writeSummary } from './summary.ts';

export const HTML_FILE = 'conformance.html';
export const JUNIT_FILE = 'junit.xml';

export function writeReports(dir: string, summary: Summary, env: NodeJS.ProcessEnv = process.env): void {
  writeSummary(dir, summary);
  writeFileSync(join(dir, JUNIT_FILE), junitXml(summary));
  writeFileSync(join(dir, HTML_FILE), conformanceHtml(summary));
  reportToGitHub(summary, dir, env);
}
