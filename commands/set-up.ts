/**
 * The reports of a run the command refused for its options (an unknown option, an option without its value), before
 * Playwright starts. Like a run its configuration refused (playwright.config.ts), it takes the reports folder, clears
 * what an earlier run wrote there and writes the whole set: bad configuration, exit 2. Not a subcommand: the command
 * (bin/payment-api-conformance.js) calls it.
 */

import { clearRun, writeSetUpReports } from '../reporters/reports.ts';
import { type LockHolder, lockReports, releaseReports } from '../reporters/reports-lock.ts';

/** Writes the refused run's reports into `dir`; returns the other run that holds `dir` instead (nothing is touched). */
export function refuseRun(dir: string, problems: string[]): LockHolder | undefined {
  const holder = lockReports(dir);
  if (holder) return holder;
  try {
    clearRun(dir);
    writeSetUpReports(dir, problems, { durationSeconds: Number(process.uptime().toFixed(2)) });
  } finally {
    releaseReports(dir);
  }
  return undefined;
}
