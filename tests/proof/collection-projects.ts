/**
 * The example collection the bundled mock serves beside payments (refunds, declared in examples/collections.json),
 * which every project of the proof checks too, and the faults switched on for refunds only (`NAME@refunds`), each of
 * which must fail its rule on refunds and on no other collection: a pagination, a filter, a sort and two mode faults.
 */
import { fileURLToPath } from 'node:url';

/** The collections file the projects run with. */
export const EXAMPLE_COLLECTIONS = fileURLToPath(new URL('../../examples/collections.json', import.meta.url));

/** The example collection. */
export const EXAMPLE_COLLECTION = 'refunds';

/** The faults proven on the example collection: each must fail its rule there, and only there. */
export const COLLECTION_FAULTS: readonly string[] = [
  'page-size-one-short',
  'filter-ignored',
  'sort-direction-inverted',
  'mode-leak-live-into-test',
  'live-on-sandbox-200',
];

/** The project name of a fault scoped to a collection: `fault:NAME@refunds`; its fault and collection back. */
export const scopedFaultOf = (project: string) => {
  const m = /^fault:(.+)@([a-z][a-z0-9-]*)$/.exec(project);
  return m ? { fault: m[1] as string, collection: m[2] as string } : undefined;
};

/**
 * Catches that must hold on every seed (issue 28): each fault's seeded check (its cases drawn from FC_SEED), run once
 * per seed of SEED_RUNS as a project `seed:<fault>:<seed>`; the judge wants it caught on every one. A door fault and
 * access faults whose catch needs one query shape among the drawn ones (sorted and deep, sorted, filtered).
 */
export const SEED_FAULTS: Readonly<Record<string, RegExp>> = {
  'live-on-sandbox-sorted-deep': /(^| )MODE-LIVE-SANDBOX the live key on a sandbox merchant gets 404 with any query/,
  'forbidden-skipped-with-sort': /(^| )AUTH-FORBIDDEN the restricted key gets 403 on every merchant, with any query/,
  'session-cookie-accepted': /(^| )AUTH-MISSING no undocumented input/,
};

/** The ten seeds every SEED_FAULTS catch runs with. */
export const SEED_RUNS: readonly number[] = Array.from({ length: 10 }, (_, i) => 7919 * (i + 1));

/** The fault and seed of a `seed:<fault>:<seed>` project, else undefined. */
export function seedRunOf(project: string): { fault: string; seed: number } | undefined {
  const m = /^seed:([^:]+):(\d+)$/.exec(project);
  return m ? { fault: m[1] as string, seed: Number(m[2]) } : undefined;
}
