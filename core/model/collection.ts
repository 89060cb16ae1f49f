/**
 * Collections: the listings the suite checks. The spec shows one collection endpoint, the payments of a merchant
 * (§4.2), and says its envelope and pagination rules hold for "collection endpoints" (§2) whose full list it does not
 * show (§1, §4.2 r6). Payments is always the first collection, from the spec; a collections file (`--collections`,
 * core/run/collections.ts) declares more: where each is, who may list it, what it filters and sorts by, its limits.
 * The main process resolves them once and publishes them to the workers as JSON (COLLECTIONS_VAR), like the target.
 */
import paymentSchema from '../../schemas/payment.schema.json' with { type: 'json' };

/** How a sortable field compares: as a number (or a numeric string), as a string, or as an instant (RFC 3339). */
export type SortType = 'number' | 'string' | 'date-time';

/** A field the collection sorts by (`sort=field`, `sort=-field`); a string field may name its collation. */
export interface CollectionSort {
  field: string;
  type: SortType;
  /** `codepoint`, or a BCP 47 locale (`en`, `de-DE`) compared as Intl.Collator does; none: no collation assumed. */
  collation?: string;
}

/** A field the collection filters by (`filter[field]=value`): the values to try, or learned from the data. */
export interface CollectionFilter {
  field: string;
  values: 'learn' | string[];
  /** Values always tried first, whatever the data shows (payments: COMPLETED, the one status the spec names, §3). */
  named?: string[];
  /** Values match exactly, case included: a case-changed form of a known value is a value no record has. */
  exactCase?: true;
}

/**
 * Who may list a collection. Merchant-scoped (its path names `{merchantId}`): per mode like payments — the test key
 * lists the sandbox merchants and the test data of the live merchant, the live key the live merchant, the live key on
 * a sandbox merchant gets 404. Account-wide: each key of `modes` lists its own mode's records. The restricted key
 * lacks the permission (`forbidden`: 403), has it (`allowed`), or nobody said (`unknown`: not judged).
 */
export interface CollectionAccess {
  scope: 'merchant' | 'account';
  modes: Array<'test' | 'live'>;
  restrictedKey: 'forbidden' | 'allowed' | 'unknown';
}

export interface Collection {
  /** A short name, in every title of its checks (`--grep refunds`). */
  name: string;
  /** The path template relative to the base URL: `/payments/n1/merchant/{merchantId}/refunds`. */
  path: string;
  /** Values of the path's parameters other than `{merchantId}`. */
  params: Record<string, string>;
  access: CollectionAccess;
  filters: CollectionFilter[];
  sorts: CollectionSort[];
  /** The default limit (undefined: the target's, API_DEFAULT_LIMIT) and the maximum (undefined: the spec's 100). */
  defaultLimit?: number;
  maxLimit?: number;
  /** Where it was declared: the file, and the line or JSON pointer. */
  source: string;
  /** The schema its records follow (payments: the spec's payment record): its required fields are on every record. */
  records?: 'payment';
  /**
   * The spec's own collection (payments, §4.2): its checks are titled with the spec's texts (no name), its access
   * matrix takes the spec's other endpoint in (/merchant/status), and it gets the whole share of the run.
   */
  spec?: true;
}

export const PAYMENTS_NAME = 'payments';

/** The spec's own collection (§4.2), always the first a run checks. */
export const PAYMENTS: Collection = {
  name: PAYMENTS_NAME,
  path: '/payments/n1/merchant/{merchantId}/payments',
  params: {},
  access: { scope: 'merchant', modes: ['test', 'live'], restrictedKey: 'forbidden' },
  filters: [{ field: 'status', values: 'learn', named: ['COMPLETED'], exactCase: true }],
  sorts: [{ field: 'amount', type: 'number' }],
  source: 'the spec, §4.2',
  records: 'payment',
  spec: true,
};

/** The fields every record of the collection has, by its record schema (payments: `status` and `amount`). */
export const requiredFields = (c: Pick<Collection, 'records'>): readonly string[] =>
  c.records === 'payment' ? paymentSchema.required : [];

/** The placeholders of a path template, in order: `{merchantId}`, `{orgId}`. */
export const placeholders = (path: string): string[] => [...path.matchAll(/\{([^{}/]+)\}/g)].map((m) => m[1] as string);

/** The collection's path with its parameters put in (each one percent-encoded), for a merchant where it has one. */
export function collectionPath(c: Pick<Collection, 'path' | 'params'>, merchant = ''): string {
  return c.path.replace(/\{([^{}/]+)\}/g, (_, name: string) =>
    encodeURIComponent(name === 'merchantId' ? merchant : (c.params[name] ?? '')),
  );
}

/** The environment variable that carries the resolved collections (JSON) from the main process to the workers. */
export const COLLECTIONS_VAR = 'CONFORMANCE_COLLECTIONS';

/** The collections the run checks besides payments, as the main process published them; [] when none. */
export function publishedCollections(env: NodeJS.ProcessEnv = process.env): Collection[] {
  const raw = env[COLLECTIONS_VAR]?.trim();
  if (!raw) return [];
  return JSON.parse(raw) as Collection[];
}

/** Every collection the run checks: payments first, then those published. */
export const runCollections = (env: NodeJS.ProcessEnv = process.env): Collection[] => [
  PAYMENTS,
  ...publishedCollections(env),
];

/** The two sort values of a declared sort: ascending, then descending. */
export const directions = (s: CollectionSort): [string, string] => [s.field, `-${s.field}`];

/** A collection in a few words: `refunds (/payments/n1/merchant/{merchantId}/refunds, merchant-scoped)`. */
export const describeCollection = (c: Collection): string =>
  `${c.name} (${c.path}, ${c.access.scope === 'merchant' ? 'merchant-scoped' : 'account-wide'})`;
