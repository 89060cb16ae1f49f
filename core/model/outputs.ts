/**
 * What a run writes and how it ends, named once: the report files, the folders of a run, a shard's folder, the lock of
 * a reports folder and the exit codes. The names are data (outputs.json) that the command (bin/, plain JavaScript)
 * reads too; this module types them for the suite.
 *
 * - report files: the rule matrix (conformance.json, .md, .html), JUnit, and every request of the run (requests.ndjson,
 *   requests.har); a shard writes them into its own folder (`shard-2-of-3/`);
 * - run outputs: Playwright's HTML report (html/), its JSON report (results.json), Allure's results and the report
 *   `report` builds from them, Playwright's output folder, a shard's blob report (CONFORMANCE_BLOB=1), and the run's
 *   shared files: the request ledger (.requests), each process's request log (.request-log) and watched answers
 *   (.watch), removed at the end;
 * - exit codes: 0 conformant, 1 nonconformant, 2 bad configuration, 3 inconclusive (reporters/outcome.ts decides).
 */
import outputs from './outputs.json' with { type: 'json' };

export type OutcomeResult = keyof typeof outputs.exitCodes;
type ExitCode = 0 | 1 | 2 | 3;

export const PACKAGE_NAME = outputs.package;
export const EXIT_CODES = outputs.exitCodes as Readonly<Record<OutcomeResult, ExitCode>>;
export const REPORT_FILES: Readonly<typeof outputs.reportFiles> = outputs.reportFiles;
export const RUN_OUTPUTS: Readonly<typeof outputs.runOutputs> = outputs.runOutputs;
/** The lock file of a reports folder: one run writes there at a time (reporters/reports-lock.ts). */
export const LOCK_FILE = outputs.lockFile;

/** Where a shard's results go, under the run's reports folder (the command reads its outcome there too). */
export const shardFolder = (shard: { current: number; total: number }): string =>
  outputs.shardFolder.replace('{current}', String(shard.current)).replace('{total}', String(shard.total));

/** A shard's folder by its name (`shard-2-of-3`). */
export const SHARD_FOLDER = /^shard-\d+-of-\d+$/;
