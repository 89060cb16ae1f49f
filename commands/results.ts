/**
 * Runs as conformance.json files hold them, for the commands that read them (`merge`, `diff`, `report`): the files a
 * path names (a file, a folder, a sharded run's folder), one read and checked for its layout version, and the results
 * of a run's shards judged together as one run would have been.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { REPORT_FILES, SHARD_FOLDER } from '../core/model/outputs.ts';
import { SEVERITY } from '../core/model/verdict.ts';
import { SCHEMA_VERSION, type Summary, summarize } from '../reporters/summary.ts';

/** The conformance.json files a RESULT names: the file, those of the folder's shard folders, or the folder's own. */
export function resultFiles(path: string): string[] {
  if (!existsSync(path)) throw new Error(`${path} does not exist`);
  if (statSync(path).isFile()) return [path];
  const shards = readdirSync(path)
    .filter((d) => SHARD_FOLDER.test(d) && existsSync(join(path, d, REPORT_FILES.json)))
    .map((d) => join(path, d, REPORT_FILES.json));
  if (shards.length > 0) return shards;
  const own = join(path, REPORT_FILES.json);
  if (existsSync(own)) return [own];
  throw new Error(`${path} holds no conformance.json (nor shard folders with one)`);
}

/** A conformance.json, checked for the layout version this suite reads. */
export function readResult(file: string): Summary {
  const summary = JSON.parse(readFileSync(file, 'utf8')) as Summary;
  if (summary.schemaVersion !== SCHEMA_VERSION) {
    throw new Error(`${file} has layout version ${summary.schemaVersion}; this suite reads ${SCHEMA_VERSION}`);
  }
  return summary;
}

const STATUS_ORDER = ['interrupted', 'timedout', 'failed', 'passed'];

/** The results of a run's shards as one summary: their checks judged together. */
export function mergeResults(results: readonly Summary[]): Summary {
  // One record per check; a check given twice (the same folder twice) counts once, by its most telling verdict.
  const byCheck = new Map<string, Summary['checks'][number]>();
  for (const c of results.flatMap((r) => r.checks)) {
    const seen = byCheck.get(c.check);
    if (!seen || SEVERITY.indexOf(c.verdict) < SEVERITY.indexOf(seen.verdict)) byCheck.set(c.check, c);
  }
  const seeds = new Set(results.map((r) => r.seed));
  const worst = results.map((r) => r.status).sort((a, b) => STATUS_ORDER.indexOf(a) - STATUS_ORDER.indexOf(b))[0];
  const sum = (f: (r: Summary) => number) => results.reduce((n, r) => n + (f(r) ?? 0), 0);
  const depth = results.find((r) => r.depth)?.depth;
  const maxTimeMs = results.find((r) => r.maxTimeMs)?.maxTimeMs;
  return summarize([...byCheck.values()], {
    seed: seeds.size === 1 ? ([...seeds][0] ?? null) : null,
    status: worst ?? 'passed',
    durationSeconds: Math.max(0, ...results.map((r) => r.durationSeconds ?? 0)),
    requests: sum((r) => r.requests),
    preflightRequests: sum((r) => r.preflightRequests),
    transportFailures: sum((r) => r.transportFailures),
    globalErrors: results.flatMap((r) => r.globalErrors ?? []),
    strict: results.some((r) => r.strict),
    shard: null,
    target: results.find((r) => r.target)?.target ?? null,
    // The shards of one run were judged against one baseline: the merged run is judged against it again, as a whole.
    baseline: results.find((r) => r.baseline)?.baseline ?? null,
    // The shards of one run share its depth and time budget.
    ...(depth ? { depth } : {}),
    ...(maxTimeMs ? { maxTimeMs } : {}),
  });
}
