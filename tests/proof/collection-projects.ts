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
