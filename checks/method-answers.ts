/**
 * What an answer to a method other than GET may carry (reading "Methods"): OPTIONS may be answered without any key
 * check (CORS pre-flight middleware), so whatever it answers carries no listing and no record. Pure.
 */
import { validateEnvelope, validatePayment } from './schemas.ts';

/** Deeper JSON is not searched: a record sits at depth 1 or 2 of any body that serves one. */
const MAX_DEPTH = 32;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Objects anywhere in the value that are payment records (§2: `status` and `amount`, payment.schema.json). */
function countRecords(value: unknown, depth: number): number {
  if (depth > MAX_DEPTH || typeof value !== 'object' || value === null) return 0;
  if (isObject(value) && validatePayment(value).length === 0) return 1;
  const children = Array.isArray(value) ? value : Object.values(value);
  return children.reduce((n: number, child) => n + countRecords(child, depth + 1), 0);
}

/**
 * The listing or records a parsed body carries, in words, or undefined: a §2 envelope with records in `data`, or any
 * object that is a payment record. A body that is not JSON (an `Allow` list as text, nothing) carries none.
 */
export function recordsCarried(json: unknown): string | undefined {
  if (isObject(json) && Array.isArray(json.data) && json.data.length > 0 && validateEnvelope(json).length === 0) {
    return `a listing: ${json.data.length} record(s) in data, total ${String(json.total)}`;
  }
  const n = countRecords(json, 0);
  return n > 0 ? `${n} payment record(s)` : undefined;
}
