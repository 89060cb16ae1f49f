/**
 * The reference measured once for a calibration: its first pages and its answer to every case — the requests of one
 * fidelity run — kept on disk (in the reports folder's fidelity-cache/, by a hash of what decides the answers: the
 * target, its keys and merchants, the seed, the runs, the collections), so that calibrating again sends nothing.
 * What is kept is what the suite would write of those answers anyway: judged aspects, features and scrubbed shapes,
 * every text redacted; the record ids it showed, so that nothing written later repeats one.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Collection } from '../core/model/collection.ts';
import { redact } from '../core/model/secrets.ts';
import { buildCases, type Case } from './cases.ts';
import { type Choice, withMock } from './mock-runs.ts';
import { askAll, collectionCases, firstPages, lacking, type Seen } from './run.ts';
import type { Answer, Side } from './targets.ts';

export interface Measurement {
  format: 'fidelity-measurement';
  key: string;
  target: { file: string; baseURL: string };
  seed: number;
  runs: number;
  seen: Seen;
  collections: Collection[];
  totals: Record<string, number>;
  /** The payment statuses the reference's first page showed, with their counts. */
  statuses: Record<string, number>;
  ids: { strings: string[]; numbers: number[] };
  /** Requests the reference received. */
  sent: number;
  /** Cases not asked, with the variables the reference (or the mock) lacks for them. */
  skipped: Record<string, string[]>;
  answers: Record<string, Answer | string>;
}

/** Bumped when the cases or what is kept of an answer change: an older measurement is not reused. */
const MEASUREMENT_VERSION = 1;

/** What decides the reference's answers: where it is, its keys (hashed), merchants, the seed, runs, collections. */
export function measurementKey(a: Side, seed: number, runs: number, collections: readonly Collection[]): string {
  const t = a.target;
  const what = JSON.stringify([
    MEASUREMENT_VERSION,
    t.baseURL,
    t.keys,
    t.merchants,
    t.defaultLimit,
    seed,
    runs,
    collections,
  ]);
  return createHash('sha256').update(what).digest('hex').slice(0, 16);
}

const cacheFile = (dir: string, key: string) => join(dir, 'fidelity-cache', `${key}.json`);

/** A measurement kept earlier for this key, if any. */
export function cachedMeasurement(dir: string, key: string): Measurement | undefined {
  const file = cacheFile(dir, key);
  if (!existsSync(file)) return undefined;
  try {
    const m = JSON.parse(readFileSync(file, 'utf8')) as Measurement;
    return m.format === 'fidelity-measurement' && m.key === key ? m : undefined;
  } catch {
    return undefined;
  }
}

/** The cases of a measurement (the same seed, runs and what the first pages showed: the same list). */
export const casesOf = (m: Pick<Measurement, 'seed' | 'runs' | 'seen' | 'collections'>): Case[] =>
  buildCases(
    m.seed,
    m.runs,
    m.seen.statuses,
    m.collections.map((collection) => ({ collection, values: m.seen.values[collection.name] ?? {} })),
  );

/**
 * Measures the reference: the mock's first pages (in-process: the statuses and values it shows join the case list),
 * the reference's, then every case the mock can be asked too. Undefined when the reference does not answer.
 */
export async function measure(
  a: Side,
  o: { seed: number; runs: number; dir: string; served: Map<string, Collection> },
  err: (line: string) => void,
): Promise<Measurement | undefined> {
  const defaults: Choice = {};
  return withMock(defaults, { collections: o.served }, async (mock) => {
    const seen = await firstPages([mock, a], err);
    if (!seen) return undefined;
    const collections = [...a.collections.values()];
    const cases = buildCases(o.seed, o.runs, seen.statuses, collectionCases(a, seen));
    const lack = lacking([a, mock]);
    const skipped = Object.fromEntries(cases.flatMap((c) => (lack(c).length ? [[c.id, lack(c)]] : [])));
    const answers = await askAll(
      a,
      cases.filter((c) => !skipped[c.id]),
    );
    const m: Measurement = {
      format: 'fidelity-measurement',
      key: measurementKey(a, o.seed, o.runs, collections),
      target: { file: a.file, baseURL: a.target.baseURL },
      seed: o.seed,
      runs: o.runs,
      seen,
      collections,
      totals: Object.fromEntries(a.totals),
      statuses: Object.fromEntries(a.statuses),
      ids: { strings: [...a.ids.strings], numbers: [...a.ids.numbers] },
      sent: a.api.sent,
      skipped,
      answers: Object.fromEntries(answers),
    };
    mkdirSync(join(o.dir, 'fidelity-cache'), { recursive: true });
    writeFileSync(cacheFile(o.dir, m.key), redact(JSON.stringify(m)));
    return m;
  });
}
