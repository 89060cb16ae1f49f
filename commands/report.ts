/**
 * `payment-api-conformance report [--reports DIR]` (`npm run report`): the HTML reports of the run in DIR (default
 * ./reports, or CONFORMANCE_REPORTS_DIR), each one file that opens from disk, with the outcome as its headline:
 * - DIR/conformance.html, from conformance.json alone (the run writes it too; this writes it again, e.g. after merge);
 * - DIR/allure-report/index.html, from DIR/allure-results, with Allure 3 in single-file mode (its allure2 plugin), the
 *   outcome as the report's name, and no analytics tag (ALLURE_NO_ANALYTICS, then checked: nothing may load from the
 *   network). Allure is a devDependency of the suite: where it is not installed (the packaged command) this says how
 *   to get it, and conformance.html is the report.
 * Exit: 0 written; 2 no run in DIR, or Allure failed.
 */

import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { EXIT_CODES, REPORT_FILES, RUN_OUTPUTS } from '../core/model/outputs.ts';
import { redact } from '../core/model/secrets.ts';
import { conformanceHtml } from '../reporters/html.ts';
import type { Summary } from '../reporters/summary.ts';
import { headline } from '../reporters/summary-text.ts';
import { commandArgs } from './options.ts';
import { readResult } from './results.ts';

const USAGE = 'Usage: payment-api-conformance report [--reports DIR]   (the HTML reports of the run in DIR)';

/** The Allure version the suite is built with (package.json devDependencies). */
const ALLURE_VERSION = '3.18.0';

/** Allure's command line (its cli.js), from the suite's own node_modules or the current folder's; else undefined. */
function findAllure(from: string[] = [import.meta.url, join(process.cwd(), 'package.json')]): string | undefined {
  for (const base of from) {
    try {
      let dir = dirname(createRequire(base).resolve('allure'));
      while (dir !== dirname(dir) && !existsSync(join(dir, 'cli.js'))) dir = dirname(dir);
      if (existsSync(join(dir, 'cli.js'))) return join(dir, 'cli.js');
    } catch {
      // not installed there
    }
  }
  return undefined;
}

/** An analytics tag (and its inline gtag script), as Allure's templates write it. */
const TRACKER = /<script[^>]*googletagmanager[^>]*><\/script>\s*(<script>[\s\S]*?gtag[\s\S]*?<\/script>)?/g;

/** Removes any analytics tag from the report's HTML files; returns what is still wrong (a script loading remotely). */
function stripTrackers(dir: string): { stripped: number; problems: string[] } {
  let stripped = 0;
  const problems: string[] = [];
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const path = join(d, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (name.endsWith('.html')) {
        const html = readFileSync(path, 'utf8');
        const clean = html.replace(TRACKER, () => {
          stripped += 1;
          return '';
        });
        if (clean !== html) writeFileSync(path, clean);
        if (/googletagmanager|gtag\(|<script[^>]+src=["']https?:/i.test(clean))
          problems.push(`${path} still loads a script from the network`);
      }
    }
  };
  walk(dir);
  return { stripped, problems };
}

/** Builds DIR/allure-report/index.html; returns the problems (none: built). */
function allureReport(cli: string, results: string, output: string, summary: Summary): string[] {
  const name = `Payment API conformance: ${headline(summary)}`;
  // The outcome in the Executors widget too, next to the pass percentage Allure shows of the checks.
  writeFileSync(
    join(results, 'executor.json'),
    redact(JSON.stringify({ name: 'payment-api-conformance', type: 'conformance', buildName: name, reportName: name })),
  );
  const tmp = mkdtempSync(join(tmpdir(), 'allure-config-'));
  try {
    const config = join(tmp, 'allurerc.json');
    const options = { reportName: redact(name), singleFile: true };
    writeFileSync(config, JSON.stringify({ name: options.reportName, output, plugins: { allure2: { options } } }));
    rmSync(output, { recursive: true, force: true });
    const r = spawnSync(process.execPath, [cli, 'generate', results, '-c', config, '-o', output], {
      encoding: 'utf8',
      env: { ...process.env, ALLURE_NO_ANALYTICS: 'true' },
    });
    if (r.status !== 0) return [`allure generate exited ${r.status}: ${redact((r.stderr || r.stdout).slice(-400))}`];
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
  if (!existsSync(join(output, 'index.html'))) return [`allure generate wrote no ${join(output, 'index.html')}`];
  return stripTrackers(output).problems;
}

export async function main(args: string[]): Promise<number> {
  const parsed = commandArgs('report', args, { reports: { type: 'string' } } as const, USAGE);
  if (typeof parsed === 'number') return parsed;
  const { values } = parsed;
  const dir = resolve(values.reports ?? (process.env.CONFORMANCE_REPORTS_DIR?.trim() || 'reports'));
  const shown = (p: string) => {
    const rel = relative(process.cwd(), p);
    return rel && !rel.startsWith('..') ? rel : p;
  };
  let summary: Summary;
  try {
    summary = readResult(join(dir, REPORT_FILES.json));
  } catch (error) {
    const why = existsSync(join(dir, REPORT_FILES.json)) ? (error as Error).message : 'there is no conformance.json';
    console.error(`report: ${why} in ${shown(dir)}: run payment-api-conformance (with --reports ${shown(dir)}) first`);
    return EXIT_CODES['bad configuration'];
  }
  writeFileSync(join(dir, REPORT_FILES.html), conformanceHtml(summary));
  console.log(`Report: ${shown(join(dir, REPORT_FILES.html))} (one file, opens from disk) — ${headline(summary)}`);

  const results = join(dir, RUN_OUTPUTS.allureResults);
  if (!existsSync(results) || readdirSync(results).length === 0) {
    console.log(`No Allure results in ${shown(results)}: no Allure report.`);
    return 0;
  }
  const cli = findAllure();
  if (!cli) {
    console.log(
      [
        'The Allure report needs Allure 3, which is not installed with this command (a devDependency of the suite).',
        `Get it in this folder and run the command again: npm install --no-save allure@${ALLURE_VERSION} && npx payment-api-conformance report --reports ${shown(dir)}`,
        `Until then ${shown(join(dir, REPORT_FILES.html))} is the report.`,
      ].join('\n'),
    );
    return 0;
  }
  const output = join(dir, RUN_OUTPUTS.allureReport);
  const problems = allureReport(cli, results, output, summary);
  if (problems.length > 0) {
    for (const p of problems) console.error(`report: ${p}`);
    return EXIT_CODES['bad configuration'];
  }
  console.log(`Allure report: ${shown(join(output, 'index.html'))} (one file, opens from disk, no analytics)`);
  return 0;
}
