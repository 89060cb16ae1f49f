/**
 * The variant representations=negotiated (variants.ts): HTTP's own negotiation on a listing, as a framework offers it,
 * after authentication like everything the render stage answers. A client that prefers CSV (Accept: text/csv before
 * application/json, RFC 9110 §12.5.1) gets the same page as CSV — a header row, then a line per record —, every
 * listing answer carries an entity tag (ETag, a hash of what it sends: §8.8.3) and `Vary: Accept`, and a GET or HEAD
 * whose If-None-Match names that tag, or `*`, is answered 304 Not Modified (§13.1.2). Legal: the page, its cap and
 * its records are the JSON page's.
 */
import { createHash } from 'node:crypto';
import type { RequestFacts } from './hooks.ts';

const CSV_TYPE = 'text/csv; charset=utf-8';

/** The first value of a request header. */
const header = (f: RequestFacts, name: string): string | undefined => {
  const v = f.headers?.[name];
  return Array.isArray(v) ? v[0] : v;
};

/** The weight Accept gives a media type (RFC 9110 §12.5.1): its own entry, its type's wildcard, or `*\/*`; 0 if none. */
export function weightOf(accept: string, type: string): number {
  const [major] = type.split('/');
  let best = -1;
  let weight = 0;
  for (const entry of accept.split(',')) {
    const [range = '', ...params] = entry.split(';').map((p) => p.trim().toLowerCase());
    const q = Number(params.find((p) => p.startsWith('q='))?.slice(2) ?? '1');
    const rank = range === type ? 3 : range === `${major}/*` ? 2 : range === '*/*' ? 1 : 0;
    if (rank > best && rank > 0) {
      best = rank;
      weight = Number.isFinite(q) ? q : 0;
    }
  }
  return weight;
}

/** A CSV field: quoted when it holds a comma, a quote or a line break (RFC 4180). */
const field = (v: unknown): string => {
  const s = v === null || v === undefined ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v);
  return /[",\r\n]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
};

/** The page of a JSON listing body as CSV, or undefined when the body holds no `data` list. */
export function csvOf(body: string): string | undefined {
  let data: unknown;
  try {
    data = (JSON.parse(body) as { data?: unknown }).data;
  } catch {
    return undefined;
  }
  if (!Array.isArray(data)) return undefined;
  const rows = data.filter((r): r is Record<string, unknown> => typeof r === 'object' && r !== null);
  const columns = [...new Set(rows.flatMap((r) => Object.keys(r)))];
  return [columns.join(','), ...rows.map((r) => columns.map((c) => field(r[c])).join(','))].join('\n');
}

/** What negotiation changes of a listing answer: its status, media type, body and headers. */
export interface Negotiated {
  status: number;
  type: string | undefined;
  body: string;
  headers: Record<string, string>;
}

/**
 * The listing answer as negotiated (`type`: its media type as built), or undefined for any other answer (a refusal,
 * /merchant/status).
 */
export function negotiate(
  decision: { kind: string },
  facts: RequestFacts,
  answer: { body: string; type: string | undefined },
): Negotiated | undefined {
  const { body } = answer;
  if (decision.kind !== 'list') return undefined;
  const accept = header(facts, 'accept') ?? '*/*';
  const csv = weightOf(accept, 'text/csv') > weightOf(accept, 'application/json') ? csvOf(body) : undefined;
  const sent = csv ?? body;
  const etag = `"${createHash('sha1').update(sent).digest('hex').slice(0, 20)}"`;
  const headers = { ETag: etag, Vary: 'Accept' };
  const tags = (header(facts, 'if-none-match') ?? '').split(',').map((t) => t.trim().replace(/^W\//, ''));
  const conditional = facts.method === 'GET' || facts.method === 'HEAD';
  if (conditional && (tags.includes('*') || tags.includes(etag)))
    return { status: 304, type: undefined, body: '', headers };
  return { status: 200, type: csv ? CSV_TYPE : answer.type, body: sent, headers };
}
