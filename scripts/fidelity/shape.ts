/**
 * What one response looks like, as comparable "aspects" (status, content type, error body shape, envelope
 * shape, echoes, page size, record shape, …), and the comparison of two such observations. Aspects are about
 * shape and behaviour, never data: values that depend on the data set (offsets, totals) are expressed relative
 * to what was sent, so two targets with different data compare equal when they behave alike.
 * Every string taken from a response passes through `redact`.
 */

import type { Exchange } from '../../fixtures/http.ts';
import { MAX_LIMIT, readEnvelope, SPEC_STATUS } from '../../fixtures/listing.ts';
import type { RuleId } from '../../fixtures/rules.ts';
import { redact } from '../../fixtures/secrets.ts';
import type { Case } from './cases.ts';

export interface Aspect {
  name: string;
  rule: RuleId;
  /** What is compared. */
  key: string;
  /** What is shown (may carry data-dependent numbers). */
  shown: string;
  /** For shapes: field → JSON type, so a difference shows only the fields that differ. */
  fields?: Record<string, string>;
}

export interface Observation {
  /** The request as sent: query string and how it authenticated (never a key). */
  request: string;
  /** HTTP status, or undefined when no answer came (or nothing was sent). */
  status?: number;
  /** Set when the request was not sent (budget exhausted); such a case is not compared. */
  notSent?: string;
  /** The behaviour the target chose for this kind of case, in a few words (for the choices table). */
  behaviour: string;
  aspects: Aspect[];
}

export interface Difference {
  rule: RuleId;
  aspect: string;
  a: string;
  b: string;
}

/** What the request was, per target: the offset actually sent (resolved) and the target's facts. */
export interface Sent {
  offset?: number;
  total: number;
  declaredDefaultLimit: number;
}

const ENVELOPE_FIELDS = ['success', 'message', 'data', 'offset', 'limit', 'total'] as const;

export function jsonType(v: unknown, integers = false): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number') return integers && Number.isInteger(v) ? 'integer' : 'number';
  return typeof v;
}

const serialise = (fields: Record<string, string>) =>
  Object.entries(fields)
    .map(([k, t]) => `${k}: ${t}`)
    .join(', ');

/** Top-level shape of a body: `{message: string, success: boolean}`, `array`, `not JSON`, `empty body`. */
export function bodyShape(e: Exchange): string {
  if (e.text.length === 0) return 'empty body';
  if (e.json === undefined) return 'not JSON';
  if (typeof e.json !== 'object' || e.json === null || Array.isArray(e.json)) return jsonType(e.json);
  const o = e.json as Record<string, unknown>;
  const fields: Record<string, string> = {};
  for (const k of Object.keys(o).sort()) fields[redact(k)] = jsonType(o[k], true);
  return `{${serialise(fields)}}`;
}

function envelopeShape(json: unknown): { key: string; fields?: Record<string, string> } {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    return { key: json === undefined ? 'not JSON' : `not an object (${jsonType(json)})` };
  }
  const o = json as Record<string, unknown>;
  const fields: Record<string, string> = {};
  for (const k of ENVELOPE_FIELDS) fields[k] = k in o ? jsonType(o[k], true) : '(absent)';
  const extras = Object.keys(o)
    .filter((k) => !(ENVELOPE_FIELDS as readonly string[]).includes(k))
    .sort();
  for (const k of extras) fields[`${redact(k)} (extra)`] = jsonType(o[k], true);
  return { key: serialise(fields), fields };
}

/** Field → the JSON types seen across the page's records; `?` marks a field only some records carry. */
function recordShape(data: unknown[]): { key: string; fields: Record<string, string> } | undefined {
  if (data.length === 0) return undefined;
  const types = new Map<string, Set<string>>();
  const counts = new Map<string, number>();
  const nonObjects = new Set<string>();
  let objects = 0;
  for (const r of data) {
    if (typeof r !== 'object' || r === null || Array.isArray(r)) {
      nonObjects.add(jsonType(r));
      continue;
    }
    objects += 1;
    for (const [k, v] of Object.entries(r)) {
      const name = redact(k);
      const set = types.get(name) ?? new Set<string>();
      set.add(jsonType(v));
      types.set(name, set);
      counts.set(name, (counts.get(name) ?? 0) + 1);
    }
  }
  const fields: Record<string, string> = {};
  if (nonObjects.size > 0) fields['(record)'] = `not an object: ${[...nonObjects].sort().join('|')}`;
  for (const k of [...types.keys()].sort()) {
    const optional = (counts.get(k) ?? 0) < objects ? '?' : '';
    fields[`${k}${optional}`] = [...(types.get(k) ?? [])].sort().join('|');
  }
  return { key: serialise(fields), fields };
}

const numeric = (v: unknown): number | undefined => {
  if (typeof v === 'number' && Number.isFinite(v)) return v;
  if (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v))) return Number(v);
  return undefined;
};

/** The order of `amount` on the page: ascending, descending, unordered, or undefined when it cannot tell. */
function amountOrder(data: unknown[]): string | undefined {
  const amounts = data.map((r) => numeric((r as { amount?: unknown } | null)?.amount));
  if (amounts.length < 2) return undefined;
  if (amounts.some((a) => a === undefined)) return 'amount missing or not numeric';
  const xs = amounts as number[];
  const up = xs.every((x, i) => i === 0 || (xs[i - 1] as number) <= x);
  const down = xs.every((x, i) => i === 0 || (xs[i - 1] as number) >= x);
  if (up && down) return undefined;
  return up ? 'ascending' : down ? 'descending' : 'unordered';
}

/** One observation per (case, target). */
export function observe(c: Case, sent: Sent, e: Exchange): Observation {
  const aspects: Aspect[] = [];
  const add = (name: string, rule: RuleId, key: string, shown = key, fields?: Record<string, string>): Aspect => {
    const aspect: Aspect = { name, rule, key: redact(key), shown: redact(shown) };
    if (fields) aspect.fields = fields;
    aspects.push(aspect);
    return aspect;
  };
  const ok = e.status >= 200 && e.status < 300;
  const media = (e.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase() || '(none)';
  const query = e.query.map(([k, v]) => `${k}=${v.length > 40 ? `${v.slice(0, 12)}…` : v}`).join('&');
  const request = redact(`GET ${e.path}${query ? `?${query}` : ''} (${e.authLabel})`);
  const leak = () => {
    if (c.auth.kind === 'key') add('key echoed', 'KEY-SECRET', e.keyLeak ? `yes, in the ${e.keyLeak}` : 'no');
  };

  // Errors and /merchant/status: the status with the body's top-level shape.
  if (!ok || c.path !== 'list') {
    const shape = bodyShape(e);
    add('status', c.rule, String(e.status), `${e.status} ${shape}`);
    add('content-type', c.rule, media);
    leak();
    add(ok ? 'status body' : 'error body', c.rule, shape);
    return { request, status: e.status, behaviour: redact(`${e.status} ${shape}`), aspects };
  }

  // A 2xx listing.
  const status = add('status', c.rule, String(e.status), `${e.status} listing`);
  add('content-type', 'ENV-SCHEMA', media);
  leak();
  const envelope = envelopeShape(e.json);
  add('envelope', 'ENV-SCHEMA', envelope.key, envelope.key, envelope.fields);
  const env = readEnvelope(e);
  if (!env) {
    status.shown = `${e.status}, no usable envelope`;
    return { request, status: e.status, behaviour: status.shown, aspects };
  }
  const odd = c.kind === 'odd';
  const w = c.window ?? {};
  const n = env.data.length;
  const empty = env.total === 0 && n === 0;

  // offset echo, relative to what was sent (odd inputs are the same string on both sides: the value itself)
  if (odd) add('offset echo', 'INP-ROBUST', String(env.offset));
  else if (sent.offset === undefined) {
    add('offset echo', 'PAG-ECHO', env.offset === 0 ? '0 (omitted)' : 'not 0 (omitted)', `${env.offset} (omitted)`);
  } else if (env.offset === sent.offset) add('offset echo', 'PAG-ECHO', 'as sent', `${env.offset} (as sent)`);
  else add('offset echo', 'PAG-ECHO', 'not as sent', `${env.offset} (sent ${sent.offset})`);

  // limit echo: both sides get the same limit, so the echoed value itself is compared
  if (odd) add('limit echo', 'INP-ROBUST', String(env.limit));
  else if (w.limit === undefined) {
    const declared =
      env.limit === sent.declaredDefaultLimit
        ? 'the declared default'
        : `API_DEFAULT_LIMIT is ${sent.declaredDefaultLimit}`;
    add('limit echo', 'PAG-DEFAULT', String(env.limit), `${env.limit} (limit omitted; ${declared})`);
  } else {
    const over = w.limit > MAX_LIMIT;
    const shown =
      env.limit === w.limit
        ? `${env.limit} (as sent${over ? ', not clamped' : ''})`
        : over && env.limit === MAX_LIMIT
          ? `${MAX_LIMIT} (clamped)`
          : `${env.limit} (sent ${w.limit})`;
    add('limit echo', over ? 'LIM-CAP' : 'PAG-ECHO', String(env.limit), shown);
  }

  // page size against the PAG-SIZE expectation, for the values the target echoed
  const expected = Math.max(0, Math.min(env.limit, env.total - env.offset));
  const size =
    n > MAX_LIMIT
      ? `more than ${MAX_LIMIT} records`
      : n === expected
        ? 'as expected'
        : n > expected
          ? 'more than expected'
          : 'fewer than expected';
  const formula = `${n} records; max(0, min(limit ${env.limit}, total ${env.total} − offset ${env.offset})) = ${expected}`;
  add('page size', odd ? 'INP-ROBUST' : 'PAG-SIZE', size, formula);

  // filter and sort behaviour
  if (w.status !== undefined && w.status !== SPEC_STATUS) {
    add(
      'unknown status',
      'FLT-STATUS',
      empty ? 'empty' : 'not empty',
      empty ? 'empty (total 0, data [])' : `not empty (total ${env.total})`,
    );
  } else if (w.status !== undefined && n > 0) {
    const all = env.data.every((r) => (r as { status?: unknown } | null)?.status === w.status);
    add('filter applied', 'FLT-STATUS', all ? `every record has status ${w.status}` : 'some record has another status');
  }
  if (w.sort === 'amount' || w.sort === '-amount') {
    const order = amountOrder(env.data);
    if (order) add('amount order', w.status !== undefined ? 'SRT-FILTER' : 'SRT-AMOUNT', order);
  }
  const records = recordShape(env.data);
  if (records) add('records', 'ENV-SCHEMA', records.key, records.key, records.fields);

  // The behaviour chosen where the spec allows several answers; it is also what a status difference shows.
  let behaviour = `${e.status}`;
  if (c.kind === 'over-cap') {
    behaviour =
      env.limit === MAX_LIMIT
        ? `clamp (${e.status}, limit echoed ${MAX_LIMIT})`
        : `${e.status}, limit echoed ${env.limit}`;
    status.shown = behaviour;
  } else if (c.kind === 'unknown-status') {
    behaviour = empty ? `empty (${e.status}, total 0)` : `${e.status}, total ${env.total}`;
    status.shown = behaviour;
  } else if (odd) status.shown = `${e.status} listing (echoes offset ${env.offset}, limit ${env.limit})`;
  return { request, status: e.status, behaviour, aspects };
}

/** An observation for a request that got no answer (transport error) or was not sent (budget). */
export function noAnswer(c: Case, request: string, reason: string, notSent: boolean): Observation {
  const why = redact(reason);
  if (notSent) return { request, notSent: why, behaviour: 'not sent', aspects: [] };
  return {
    request,
    behaviour: 'no answer',
    aspects: [{ name: 'status', rule: c.rule, key: 'no answer', shown: `no answer (${why})` }],
  };
}

/** Shows only the fields that differ, when both sides are shapes. */
function shownPair(x: Aspect, y: Aspect): [string, string] {
  if (!x.fields || !y.fields) return [x.shown, y.shown];
  const names = [...new Set([...Object.keys(x.fields), ...Object.keys(y.fields)])];
  const differing = names.filter((k) => x.fields?.[k] !== y.fields?.[k]);
  if (differing.length === 0) return [x.shown, y.shown];
  const side = (f: Record<string, string>) => differing.map((k) => `${k}: ${f[k] ?? '(absent)'}`).join(', ');
  return [side(x.fields), side(y.fields)];
}

/**
 * The differences between two observations of one case. When the status differs, only the status (which shows
 * the body's shape or the behaviour) and key echoing are compared: the rest would only repeat it.
 */
export function compare(a: Observation, b: Observation): Difference[] {
  const A = new Map(a.aspects.map((x) => [x.name, x]));
  const B = new Map(b.aspects.map((x) => [x.name, x]));
  const sa = A.get('status');
  const sb = B.get('status');
  if (sa?.key !== sb?.key) {
    const out: Difference[] = [
      { rule: (sa ?? sb)?.rule ?? 'ENV-SCHEMA', aspect: 'status', a: sa?.shown ?? '(none)', b: sb?.shown ?? '(none)' },
    ];
    const la = A.get('key echoed');
    const lb = B.get('key echoed');
    if (la && lb && la.key !== lb.key) out.push({ rule: la.rule, aspect: la.name, a: la.shown, b: lb.shown });
    return out;
  }
  const out: Difference[] = [];
  for (const name of new Set([...A.keys(), ...B.keys()])) {
    const x = A.get(name);
    const y = B.get(name);
    if (!x || !y || x.key === y.key) continue;
    const [shownA, shownB] = shownPair(x, y);
    out.push({ rule: x.rule, aspect: name, a: shownA, b: shownB });
  }
  return out;
}
