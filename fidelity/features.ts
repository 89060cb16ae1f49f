/**
 * What an answer shows beyond the judged aspects, for a calibration to tell the mock's settings apart where the checks
 * see no difference: the exact status code, the media type, the headers it carries, a refusal's body shape, the
 * envelope's extra fields, the type of a record's id and amount, and the order of a page (equal amounts under a sort,
 * the order without one). Never a value of the target's data: types, names and directions only.
 */
import type { Exchange } from '../core/model/exchange.ts';
import { envelopeOfJson } from '../core/model/listing.ts';
import type { Case } from './cases.ts';
import { bodyShape } from './judge.ts';
import { isTransportHeader } from './skeleton.ts';

export type Features = Record<string, string>;

/** The envelope's own fields (§2): any other top-level field is an extra. */
const ENVELOPE = new Set(['success', 'message', 'data', 'offset', 'limit', 'total']);

const mediaOf = (e: Pick<Exchange, 'headers'>) =>
  (e.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase() || 'none';

/** A record's amount as a type: a number, a numeric string, a decimal string with cents. */
function amountType(v: unknown): string {
  if (typeof v === 'number') return 'number';
  if (typeof v !== 'string') return v === undefined ? 'absent' : typeof v;
  return /^-?\d+\.\d{2}$/.test(v) ? 'decimal string' : /^-?\d+$/.test(v) ? 'numeric string' : 'string';
}

const numeric = (v: unknown) => (typeof v === 'number' ? v : typeof v === 'string' ? Number(v) : Number.NaN);
const byValue = (a: unknown, b: unknown) =>
  typeof a === 'number' && typeof b === 'number' ? a - b : String(a) < String(b) ? -1 : String(a) > String(b) ? 1 : 0;

/** The direction of neighbours: all ascending, all descending, mixed; undefined when no pair says. */
function direction(signs: number[]): string | undefined {
  const seen = signs.filter((x) => x !== 0);
  if (seen.length === 0) return undefined;
  return seen.every((x) => x > 0) ? 'ascending' : seen.every((x) => x < 0) ? 'descending' : 'mixed';
}

/** How a page is ordered where its sort leaves it open: equal amounts by id, or the records by time without a sort. */
function orderFeatures(records: readonly Record<string, unknown>[], sorted: boolean): Features {
  const pairs = records.slice(1).map((r, i) => [records[i] as Record<string, unknown>, r] as const);
  if (sorted) {
    const ties = pairs.filter(([a, b]) => numeric(a.amount) === numeric(b.amount));
    const d = direction(ties.map(([a, b]) => byValue(b.id, a.id)));
    return d ? { ties: d } : {};
  }
  const field = Object.keys(records[0] ?? {}).find((k) =>
    records.every((r) => typeof r[k] === 'string' && !Number.isNaN(Date.parse(r[k] as string))),
  );
  const d = field && direction(pairs.map(([a, b]) => Date.parse(b[field] as string) - Date.parse(a[field] as string)));
  return d ? { unsorted: d } : {};
}

/** The features of one answer to a case. */
export function featuresOf(c: Case, e: Exchange): Features {
  const f: Features = { code: String(e.status), media: mediaOf(e) };
  for (const name of Object.keys(e.headers)) if (!isTransportHeader(name)) f[`header ${name.toLowerCase()}`] = 'sent';
  const ok = e.status >= 200 && e.status < 300;
  if (!ok || c.access?.endpoint === 'status') f.body = bodyShape(e);
  const env = ok ? envelopeOfJson(e.json) : undefined;
  if (!env || e.method !== 'GET') return f;
  for (const field of Object.keys(env)) if (!ENVELOPE.has(field)) f[`envelope ${field}`] = 'sent';
  const records = env.data.filter((r): r is Record<string, unknown> => typeof r === 'object' && r !== null);
  if (records[0]) {
    f.id = typeof records[0].id;
    f.amount = amountType(records[0].amount);
  }
  const sort = c.window?.sort ?? c.access?.query.sort;
  if (!c.collection) Object.assign(f, orderFeatures(records, sort === 'amount' || sort === '-amount'));
  return f;
}

/** How many features two answers share (a feature only one of them has counts as a difference). */
export function sharedFeatures(a: Features, b: Features): number {
  let n = 0;
  for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) if (a[k] !== undefined && a[k] === b[k]) n++;
  return n;
}
