/**
 * Shapes learned from another API (a calibration, `--calibration FILE`): how its answers look where the spec leaves the
 * shape open — the error body's fields and media type, a refusal's headers, the status endpoint's body, the envelope's
 * extra fields, headers on every answer — as templates the mock fills with its own logic and data. A template is JSON
 * whose strings may hold placeholders (`{{message}}`); a string that is one placeholder of a number or a boolean
 * (`"{{status}}"`, `"{{hasMore}}"`) becomes that value. No template holds a key or a record: the values come from the
 * request and the mock's own answer, and a refusal echoes at most what the variant errors=rich does (the path, the
 * merchant id as sent, the key's mode prefix and last four characters).
 */
import { createHash } from 'node:crypto';
import { STATUS_CODES } from 'node:http';

/** A JSON value whose strings may hold `{{placeholders}}`. */
export type Template = null | boolean | number | string | Template[] | { [field: string]: Template };

/** The body of an answer: a JSON template, or a text one (`text/plain`, HTML), or none (`type` absent). */
interface BodyShape {
  type?: string;
  body?: Template;
  headers?: Record<string, string>;
}

/** An error's shape: for a status (absent: any) and the mock's failures of some kinds (absent: every kind). */
export interface ErrorShape extends BodyShape {
  status?: number;
  kinds?: string[];
}

export interface Shapes {
  /** Most specific first: the first that matches a failure's status and kind shapes it. */
  errors?: ErrorShape[];
  /** /merchant/status's answer to an accepted key; `modes`: the values (`{{mode}}`, …) that differ by the key's mode. */
  status?: BodyShape & { modes?: { test: Values; live: Values } };
  /** Extra fields of the listing envelope, appended after the spec's six. */
  envelope?: Record<string, Template>;
  /** Headers on every answer. */
  headers?: Record<string, string>;
  /** The name each of the mock's payment statuses is served and filtered by (`{"CANCELED": "DISPUTED"}`). */
  statuses?: Record<string, string>;
}

/** The values a template may name. Unknown placeholders stay as written. */
export type Values = Record<string, string | number | boolean | null | undefined>;

const PLACEHOLDER = /\{\{(\w+)\}\}/g;

/** A template filled: strings with their placeholders replaced, a lone placeholder taking its value's type. */
export function fill(t: Template, values: Values): Template {
  if (typeof t === 'string') {
    const lone = /^\{\{(\w+)\}\}$/.exec(t);
    if (lone && (lone[1] as string) in values) return (values[lone[1] as string] ?? null) as Template;
    return t.replace(PLACEHOLDER, (all, name: string) => (name in values ? String(values[name] ?? '') : all));
  }
  if (Array.isArray(t)) return t.map((x) => fill(x, values));
  if (t && typeof t === 'object') return Object.fromEntries(Object.entries(t).map(([k, v]) => [k, fill(v, values)]));
  return t;
}

/** A body as sent: JSON serialized, a text template filled, or empty. */
export function render(shape: BodyShape, values: Values): { type?: string; body: string } {
  if (shape.type === undefined || shape.body === undefined) return { body: '' };
  const filled = fill(shape.body, values);
  const json = /[/+]json\b/i.test(shape.type);
  return { type: shape.type, body: json || typeof filled !== 'string' ? JSON.stringify(filled) : filled };
}

/** Headers filled (a header whose value fills to empty is left out). */
export function headersOf(templates: Record<string, string> | undefined, values: Values): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, t] of Object.entries(templates ?? {})) {
    const v = String(fill(t, values) ?? '');
    if (v !== '') out[name] = v;
  }
  return out;
}

/** The first error shape for a status and kind. */
export function errorShape(shapes: Shapes, status: number, kind: string | undefined): ErrorShape | undefined {
  return shapes.errors?.find(
    (s) =>
      (s.status === undefined || s.status === status) && (!s.kinds || (kind !== undefined && s.kinds.includes(kind))),
  );
}

/** What a request gives every template: its path, query, method, the key's mode prefix and last four, ids, time. */
export interface RequestEcho {
  requestNo: number;
  method: string;
  path: string;
  search: string;
  merchantId?: string;
  keyLast4?: string;
  keyPrefix?: string;
}

/** A stable id of the answer (`uuid`, `requestId`), from the request's number: the same run, the same ids. */
function ids(requestNo: number): { uuid: string; requestId: string } {
  const h = createHash('sha256').update(`mock-request-${requestNo}`).digest('hex');
  const uuid = `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
  return { uuid, requestId: `req_${h.slice(0, 24)}` };
}

/** The values of a request, for any template. */
export function requestValues(echo: RequestEcho): Values {
  const now = new Date();
  return {
    ...ids(echo.requestNo),
    requestNo: echo.requestNo,
    method: echo.method,
    path: echo.path,
    query: echo.search ? `?${echo.search}` : '',
    merchantId: echo.merchantId ?? '',
    keyLast4: echo.keyLast4 ?? '',
    keyPrefix: echo.keyPrefix ?? '',
    timestamp: now.toISOString(),
    epoch: Math.floor(now.getTime() / 1000),
    epochMs: now.getTime(),
  };
}

/** The values of a refusal: its status in every spelling, the mock's message, its kind and parameter. */
export function errorValues(status: number, message: string, kind?: string, param?: string): Values {
  const title = STATUS_CODES[status] ?? 'Error';
  const code = title.toLowerCase().replace(/\W+/g, '_');
  const values = { status, statusText: String(status), title, code, CODE: code.toUpperCase(), message };
  return { ...values, kind: kind ?? '', param: param ?? '' };
}

/** The values of a page: the spec's echo, and what clients derive from it (§4.2: page, pages, next, previous). */
export function pageValues(echo: { offset: number; limit: number; total: number }, count: number): Values {
  const { offset, limit, total } = echo;
  const pages = limit > 0 ? Math.ceil(total / limit) : 0;
  const next = offset + count < total ? offset + limit : null;
  return {
    offset,
    limit,
    total,
    count,
    page: limit > 0 ? Math.floor(offset / limit) + 1 : 1,
    pages,
    hasMore: offset + count < total,
    nextOffset: next,
    prevOffset: offset > 0 ? Math.max(0, offset - limit) : null,
  };
}
