/**
 * One run per reports folder. A run cleans parts of its folder (allure-results), resets the request ledger kept there
 * and writes its reports over the last ones, so a second run in the same folder at the same time would break the
 * first (`ENOTEMPTY … allure-results`) and mix their results. The run's main process takes the folder with a lock
 * file created exclusively (`.run.lock`: its pid and start); a second run finds it, sees that process alive, and stops
 * with one sentence that names it and the fix (`--reports DIR`). A lock whose process is gone (killed) is taken over.
 * bin/payment-api-conformance.js reads the same file before it touches the folder.
 */

import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { LOCK_FILE } from '../core/model/outputs.ts';

export interface LockHolder {
  pid: number;
  started: string;
}

/** Whether a process is alive (EPERM: alive, someone else's). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The live process that holds `dir`, if another one does. */
export function holderOf(dir: string, self = process.pid): LockHolder | undefined {
  let holder: LockHolder;
  try {
    holder = JSON.parse(readFileSync(join(dir, LOCK_FILE), 'utf8')) as LockHolder;
  } catch {
    return undefined;
  }
  return typeof holder.pid === 'number' && holder.pid !== self && alive(holder.pid) ? holder : undefined;
}

/**
 * Takes `dir` for this process; returns the holder when another live run has it. Released when this process exits.
 */
export function lockReports(dir: string): LockHolder | undefined {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, LOCK_FILE);
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fd = openSync(file, 'wx');
      writeSync(fd, JSON.stringify({ pid: process.pid, started: new Date().toISOString() }));
      closeSync(fd);
      process.once('exit', () => releaseReports(dir));
      return undefined;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = holderOf(dir);
      if (holder) return holder;
      if (readHolder(file)?.pid === process.pid) return undefined; // taken already (the config loaded twice)
      rmSync(file, { force: true }); // left by a run that was killed
    }
  }
  return holderOf(dir);
}

function readHolder(file: string): LockHolder | undefined {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as LockHolder;
  } catch {
    return undefined;
  }
}

/** Whether this process holds `dir` already (Playwright loads the config more than once in one process). */
export const heldByThisProcess = (dir: string): boolean => readHolder(join(dir, LOCK_FILE))?.pid === process.pid;

/** Gives `dir` back, if this process holds it. */
export function releaseReports(dir: string): void {
  const file = join(dir, LOCK_FILE);
  if (readHolder(file)?.pid === process.pid) rmSync(file, { force: true });
}

/** The sentence a second run prints. */
export const heldMessage = (dir: string, holder: LockHolder) =>
  `another run (pid ${holder.pid}, started ${holder.started}) is writing its reports to ${dir}: wait for it to end, or give this run its own folder with --reports DIR (CONFORMANCE_REPORTS_DIR)`;
