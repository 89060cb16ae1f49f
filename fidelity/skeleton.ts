/**
 * The shape of one answer, with the target's own values taken out: what a calibration learns a template from
 * (learn-shapes.ts). Every string passes the suite's redaction; the request's path and query, the merchant ids, the
 * record ids the target showed, the key's mode prefix and last four characters, the status in every spelling, times
 * and request ids become placeholders the mock fills with its own (mock/shapes.ts). A number or a boolean keeps the
 * placeholders it could be (a page number, `hasMore`): which one it is, the answers decide together.
 */
import { STATUS_CODES } from 'node:http';
import { REDACTED, redact } from '../core/model/secrets.ts';

/** A leaf: its value as seen (scrubbed), the placeholders it could stand for, and whether it must never be written. */
export type Skeleton =
  | { t: 'leaf'; v: string | number | boolean | null; could?: string[]; secret?: true; empty?: string[] }
  | { t: 'list'; items: Skeleton[] }
  | { t: 'obj'; fields: Record<string, Skeleton> };

/** One answer's shape: its status, media type, body (JSON, or text as one leaf, or none), headers and kind. */
export interface AnswerShape {
  status: number;
  type?: string;
  body?: Skeleton;
  headers: Record<string, Skeleton>;
  /** What the answer is: a refusal, the status endpoint's 2xx, a listing's 2xx. */
  kind: 'error' | 'status' | 'list';
  /** The status endpoint's answer: the mode of the key it accepted. */
  mode?: 'test' | 'live';
}

/** What the target's own values are, for one answer. */
export interface Scrub {
  status: number;
  method: string;
  /** The path as sent, relative to the base URL, and with the base URL's own path before it. */
  path: string;
  basePath: string;
  search: string;
  /** Merchant ids (configured, and the unknown one sent) and string record ids the target showed. */
  ids: readonly string[];
  merchantIds: readonly string[];
  /** Integer record ids the target showed: a number equal to one is never written. */
  numbers: ReadonlySet<number>;
  /** The presented key's last four characters and its mode prefix (a refusal may echo them). */
  last4?: string;
  prefix?: string;
  /** A page's values (pageValues of mock/shapes.ts), for the envelope's extra fields. */
  page?: Record<string, unknown>;
}

/** Headers every answer carries for the transport, or whose value is the body's own: never learned. */
const TRANSPORT = new Set([
  'date',
  'connection',
  'keep-alive',
  'content-length',
  'transfer-encoding',
  'content-type',
  'content-encoding',
  'etag',
  'last-modified',
]);
export const isTransportHeader = (name: string) => TRANSPORT.has(name.toLowerCase());

const ISO_TIME = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** A token that reads like an id: long, letters and digits mixed, no spaces. */
const TOKEN = /^(?=[^\s]*\d)(?=[^\s]*[a-z])[\w-]{16,}$/i;
/** A text as a regular expression that matches it literally. */
export const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const replaceAll = (s: string, find: string, by: string) =>
  find === '' ? s : s.replace(new RegExp(escapeRegExp(find), 'g'), () => by);

/** A string of the answer with the target's own values taken out. */
function scrubText(raw: string, s: Scrub): string {
  let v = raw;
  // The key's mode prefix and last four behind a mask (`sk_test_…a1b2`, `****a1b2`): what a refusal may echo.
  if (s.last4) {
    const masked = new RegExp(`(sk_(?:test|live)_)?([*•…xX.]+\\s*)${escapeRegExp(s.last4)}\\b`, 'g');
    v = v.replace(
      masked,
      (_, prefix: string | undefined, mask: string) => `${prefix ? '{{keyPrefix}}' : ''}${mask}{{keyLast4}}`,
    );
    if (v === s.last4) v = '{{keyLast4}}';
  }
  v = redact(v).replace(new RegExp(escapeRegExp(REDACTED), 'g'), '{{keyPrefix}}…{{keyLast4}}');
  const query = s.search ? `?${s.search}` : '';
  const decoded = safeDecode(s.path);
  for (const p of [...new Set([s.path, decoded])]) {
    if (query) v = replaceAll(v, `${s.basePath}${p}${query}`, `${s.basePath}{{path}}{{query}}`);
    v = replaceAll(v, `${s.basePath}${p}`, `${s.basePath}{{path}}`);
    if (s.basePath) v = replaceAll(v, p, '{{path}}');
  }
  for (const id of [...s.merchantIds].sort((a, b) => b.length - a.length)) v = replaceAll(v, id, '{{merchantId}}');
  for (const id of s.ids) if (id.length >= 4) v = replaceAll(v, id, '{{requestId}}');
  return wholeValue(v, s);
}

function safeDecode(p: string): string {
  try {
    return decodeURIComponent(p);
  } catch {
    return p;
  }
}

/** A whole string that is a value of the answer itself: a refusal's status spelt out, a time, an id, the method. */
function wholeValue(v: string, s: Scrub): string {
  const title = s.status >= 400 ? (STATUS_CODES[s.status] ?? '') : '';
  const code = title.toLowerCase().replace(/\W+/g, '_');
  if (title && v === title) return '{{title}}';
  if (code && v === code) return '{{code}}';
  if (code && v === code.toUpperCase()) return '{{CODE}}';
  if (title && v === String(s.status)) return '{{statusText}}';
  if (ISO_TIME.test(v)) return '{{timestamp}}';
  if (UUID.test(v)) return '{{uuid}}';
  if (TOKEN.test(v) && !v.includes('{{')) return '{{requestId}}';
  if (v === s.method) return '{{method}}';
  return v;
}

/**
 * The placeholders with no value for this request (no query, no merchant in the path, no key's last four or prefix):
 * a template that names them reads here as if they were not there.
 */
function emptyIn(s: Scrub): string[] {
  return [
    ...(s.search ? [] : ['query']),
    ...(s.path.includes('/merchant/') && s.path !== '/merchant/status' ? [] : ['merchantId']),
    ...(s.last4 ? [] : ['keyLast4']),
    ...(s.prefix ? [] : ['keyPrefix']),
  ];
}

/** What a number of the answer could be: its status, a page's value, a time; a record id of the target's is secret. */
function numberLeaf(n: number, s: Scrub): Skeleton {
  const could = [
    ...(s.status >= 400 && n === s.status ? ['{{status}}'] : []),
    ...Object.entries(s.page ?? {})
      .filter(([, x]) => x === n)
      .map(([name]) => `{{${name}}}`),
    ...(Math.abs(n - Date.now() / 1000) < 3.2e8 ? ['{{epoch}}'] : []),
    ...(Math.abs(n - Date.now()) < 3.2e11 ? ['{{epochMs}}'] : []),
  ];
  const secret = s.numbers.has(n) && n !== s.status ? { secret: true as const } : {};
  return { t: 'leaf', v: n, ...(could.length ? { could } : {}), ...secret };
}

/** A JSON value of the answer as a skeleton. */
export function skeletonOf(json: unknown, s: Scrub): Skeleton {
  if (Array.isArray(json)) return { t: 'list', items: json.map((x) => skeletonOf(x, s)) };
  if (json && typeof json === 'object') {
    const fields: Record<string, Skeleton> = {};
    for (const [k, v] of Object.entries(json)) fields[scrubText(k, { ...s, status: 0, method: '' })] = skeletonOf(v, s);
    return { t: 'obj', fields };
  }
  if (typeof json === 'number') return numberLeaf(json, s);
  if (typeof json === 'boolean') {
    const could = Object.entries(s.page ?? {})
      .filter(([, x]) => x === json)
      .map(([name]) => `{{${name}}}`);
    return { t: 'leaf', v: json, ...(could.length ? { could } : {}) };
  }
  if (typeof json === 'string') {
    const v = scrubText(json, s);
    const empty = emptyIn(s);
    return { t: 'leaf', v, ...(v.includes('{{') || empty.length ? { empty } : {}) };
  }
  return { t: 'leaf', v: null };
}

/** The headers of an answer worth learning (not the transport's), scrubbed. */
export function headerSkeletons(headers: Readonly<Record<string, string>>, s: Scrub): Record<string, Skeleton> {
  const out: Record<string, Skeleton> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (!isTransportHeader(name)) out[name.toLowerCase()] = { t: 'leaf', v: scrubText(value, s) };
  }
  return out;
}
