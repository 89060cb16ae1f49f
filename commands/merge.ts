/**
 * `payment-api-conformance merge [--reports DIR] RESULT…`: one rule matrix, one outcome and one exit code from the
 * results of several shards of one run (`-- --shard=i/n`, each written to <reports>/shard-i-of-n/). A RESULT is a
 * folder holding a conformance.json, a folder of shard folders, or the file itself. Every shard of the run must be
 * there (a missing one is named, exit 2); the checks of all shards are judged together, as one run would have.
 * Writes <reports>/conformance.json, conformance.md, conformance.html and junit.xml (default ./reports), judged against
 * the shards' baseline if they had one, and exits with the merged outcome's code. Each check keeps the lines of its
 * requests in its own shard's request log, and names that log (`requestLog`, relative to the merged reports folder).
 */

import { dirname, join, relative, resolve } from 'node:path';
import { EXIT_CODES, REPORT_FILES } from '../core/model/outputs.ts';
import { redact } from '../core/model/secrets.ts';
import { writeReports } from '../reporters/reports.ts';
import type { Summary } from '../reporters/summary.ts';
import { consoleTable, requestLogOf } from '../reporters/summary-text.ts';
import { commandArgs } from './options.ts';
import { mergeResults, readResult, resultFiles } from './results.ts';

const USAGE = 'Usage: payment-api-conformance merge [--reports DIR] RESULT… (folders of conformance.json files)';

/**
 * A shard's result as the merged reports in `dir` see it: each check names its shard's request log (beside the shard's
 * conformance.json), relative to `dir`, since its request lines count in that log, not in any the merged folder holds.
 */
function withRequestLog(summary: Summary, file: string, dir: string): Summary {
  const log = relative(dir, join(dirname(resolve(file)), requestLogOf({}))) || requestLogOf({});
  const checks = summary.checks.map((c) =>
    c.requestLines && !c.requestLog ? { ...c, requestLog: log.split('\\').join('/') } : c,
  );
  return { ...summary, checks };
}

/** The shards missing from a set of results of one sharded run. */
export function missingShards(results: readonly Summary[]): string[] {
  const totals = new Set(results.flatMap((r) => (r.shard ? [r.shard.total] : [])));
  if (totals.size === 0) return [];
  if (totals.size > 1) return [`shards of different runs (${[...totals].map((t) => `of ${t}`).join(', ')})`];
  const total = [...totals][0] as number;
  const present = new Set(results.flatMap((r) => (r.shard ? [r.shard.current] : [])));
  return Array.from({ length: total }, (_, i) => i + 1)
    .filter((i) => !present.has(i))
    .map((i) => `shard ${i} of ${total}`);
}

export async function main(args: string[]): Promise<number> {
  const parsed = commandArgs('merge', args, { reports: { type: 'string' } } as const, USAGE, true);
  if (typeof parsed === 'number') return parsed;
  const { values, positionals } = parsed;
  if (positionals.length === 0) {
    console.error(`merge: name the results to merge\n${USAGE}`);
    return EXIT_CODES['bad configuration'];
  }
  let results: Summary[];
  let files: string[];
  // As the command and `report` read it: an empty option or variable is none.
  const dir = resolve(values.reports?.trim() || process.env.CONFORMANCE_REPORTS_DIR?.trim() || 'reports');
  try {
    files = [...new Set(positionals.flatMap(resultFiles).map((f) => resolve(f)))];
    results = files.map((f) => withRequestLog(readResult(f), f, dir));
  } catch (error) {
    console.error(`merge: ${(error as Error).message}; nothing was merged`);
    return EXIT_CODES['bad configuration'];
  }
  const refused = results.filter((r) => r.outcome.result === 'bad configuration');
  const missing = missingShards(results);
  if (refused.length > 0 || missing.length > 0) {
    const why = [...missing.map((m) => `${m} is missing`), ...refused.flatMap((r) => r.outcome.decidedBy)];
    console.error(`merge: ${why.join('; ')}; nothing was merged`);
    return EXIT_CODES['bad configuration'];
  }
  const merged = mergeResults(results);
  writeReports(dir, merged);
  const shown = files.map((f) => relative(process.cwd(), f) || f).join(', ');
  console.log(`Merged ${results.length} result(s): ${shown}`);
  console.log(
    redact(consoleTable(merged, relative(process.cwd(), join(dir, REPORT_FILES.markdown)) || REPORT_FILES.markdown)),
  );
  return merged.outcome.exitCode;
}
