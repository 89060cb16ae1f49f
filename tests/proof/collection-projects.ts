/**
 * The proof's projects on the example collection the bundled mock serves beside payments (refunds, declared in
 * examples/collections.json): the refunds checks against the clean mock and under named combinations of legal
 * variants (each must pass), and faults switched on for refunds only (`NAME@refunds`), each of which must fail its
 * rule on refunds and on no other collection: a pagination, a filter, a sort and two mode faults.
 */
import { fileURLToPath } from 'node:url';
import { VARIANT_SETS } from './variant-sets.ts';

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

/**
 * The combinations of legal variants the example collection's checks run under: the defaults, two named sets
 * (tests/proof/variant-sets.ts), and integer ids, which a refund shares with a payment (1001, 1002, …: the watcher
 * must not take one for the other), with more of the axes that touch a listing's path and answers.
 */
export const COLLECTION_VARIANTS: Readonly<Record<string, readonly string[]>> = {
  default: VARIANT_SETS.default ?? [],
  strict: VARIANT_SETS.strict ?? [],
  lenient: VARIANT_SETS.lenient ?? [],
  'shared-ids': [
    'ids=integer',
    'amount=decimal',
    'errors=rich',
    'options=cors',
    'head=refused',
    'prefix=api',
    'merchant-lookup=nfkc',
  ],
};

/** The project name of a fault scoped to a collection: `fault:NAME@refunds`; its fault and collection back. */
export const scopedFaultOf = (project: string) => {
  const m = /^fault:(.+)@([a-z][a-z0-9-]*)$/.exec(project);
  return m ? { fault: m[1] as string, collection: m[2] as string } : undefined;
};
