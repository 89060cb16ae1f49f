/**
 * The candidate inputs of the door checks (core/run/doors.ts), from three kinds of source, as parameter-discovery tools
 * gather them (Arjun, Param Miner): what the target itself showed in its answers to the suite — record and envelope
 * field names and their values, the headers and cookies it sent, the parameters of the links it wrote — the
 * collections file or OpenAPI document, and the vocabularies (core/generate/door-vocabulary.ts). Each name once per
 * channel, the first source that gave it counting; the documented inputs are never candidates.
 */
import type { Collection } from '../model/collection.ts';
import type { DoorSource } from '../model/door-tally.ts';
import type { Candidate, Channel, DoorClass, DoorValue, RunValues, Shown, VocabularyEntry } from '../model/doors.ts';
import type { Exchange } from '../model/exchange.ts';
import { envelopeOfJson } from '../model/listing.ts';
import { CLASS_VALUES, sendable } from './door-vocabulary.ts';

/** What the target showed: names and the values it gave them, in the order seen. */
export interface Observed {
  recordFields: Map<string, string[]>;
  envelopeFields: Map<string, string>;
  headers: Map<string, string>;
  /** Header names the target named in its answers without sending them (a CORS answer's lists, Vary). */
  headerNames: Set<string>;
  cookies: Map<string, string>;
  linkParams: Map<string, string>;
}

/** A candidate before its values are chosen for a request: values may name what the run has (`{merchant}`, `{key}`). */
export type CandidateSpec = Omit<Candidate, 'values'> & { values: readonly string[] };

/** The documented inputs (§4.1, §4.2, §5.1): never a candidate, in the channel that documents them. */
const DOCUMENTED: Readonly<Record<Channel, readonly string[]>> = {
  query: ['offset', 'limit', 'filter[status]', 'sort'],
  header: ['authorization', 'content-type', 'accept'],
  cookie: [],
};

/** Response headers that are HTTP's own or the pace's: nothing a client would send back. */
const NOT_REPLAYED =
  /^(date|content-(type|length|encoding|language)|connection|keep-alive|transfer-encoding|cache-control|pragma|expires|etag|last-modified|vary|server|set-cookie|allow|retry-after|location|strict-transport-security|access-control-.*|(x-)?ratelimit.*|age|via)$/i;
/** Response headers whose value lists request header names the server reads (Fetch: CORS; RFC 9110 §12.5.5). */
const NAMES_HEADERS = /^(access-control-(allow|expose)-headers|vary)$/i;
/** A value that looks like a token a server hands out (a session id, a signed value). */
const TOKEN_LIKE = /^[A-Za-z0-9._~+/=-]{16,}$/;
/** What a header value may hold (RFC 9110 §5.5), and a cookie value (RFC 6265 §4.1.1). */
const HEADER_SAFE = /^[\t\x20-\x7e]*$/;
const COOKIE_SAFE = /^[\x21\x23-\x2b\x2d-\x3a\x3c-\x5b\x5d-\x7e]*$/;

const push = (m: Map<string, string[]>, k: string, v: string) => {
  const list = m.get(k) ?? [];
  if (!list.includes(v) && list.length < 8) list.push(v);
  m.set(k, list);
};
const scalar = (v: unknown): string | undefined =>
  typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' ? String(v) : undefined;

/** The query parameters of every URL or path with a query that a text holds (a Link header, a `next` field). */
function linkParams(text: string, into: Map<string, string>): void {
  for (const [url] of text.matchAll(/(?:https?:\/\/[^\s"'<>]+|\/[^\s"'<>?]*)\?[^\s"'<>]+/g)) {
    for (const [k, v] of new URLSearchParams(url.slice(url.indexOf('?') + 1))) if (!into.has(k)) into.set(k, v);
  }
}

/** Nothing observed yet. */
const emptyObserved = (): Observed => ({
  recordFields: new Map(),
  envelopeFields: new Map(),
  headers: new Map(),
  headerNames: new Set(),
  cookies: new Map(),
  linkParams: new Map(),
});

/** Adds what one answer showed to `o`; its records' fields only with `records`. */
function observeOne(o: Observed, e: Exchange, records: boolean): void {
  const env = envelopeOfJson(e.json);
  for (const r of records ? (env?.data ?? []) : []) {
    if (typeof r !== 'object' || r === null) continue;
    for (const [k, v] of Object.entries(r)) {
      const s = scalar(v);
      if (s !== undefined) push(o.recordFields, k, s);
    }
  }
  if (env) {
    for (const [k, v] of Object.entries(env)) {
      const s = scalar(v);
      if (k !== 'data' && s !== undefined && !o.envelopeFields.has(k)) o.envelopeFields.set(k, s);
    }
  }
  for (const [name, value] of Object.entries(e.headers)) {
    if (name === 'set-cookie') {
      for (const c of value.split(/,(?=\s*[^;=\s]+=)/)) {
        const m = /^\s*([^=;\s]+)=([^;]*)/.exec(c);
        if (m && !o.cookies.has(m[1] as string)) o.cookies.set(m[1] as string, m[2] as string);
      }
    } else if (!NOT_REPLAYED.test(name) && !o.headers.has(name)) o.headers.set(name, value);
    if (NAMES_HEADERS.test(name))
      for (const n of value.split(',')) if (/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(n.trim())) o.headerNames.add(n.trim());
    linkParams(value, o.linkParams);
  }
  if (e.text.includes('?')) linkParams(e.text.slice(0, 64 * 1024), o.linkParams);
}

/** The names and values the target showed in these answers (the suite's own requests, the door checks' references). */
export function observe(answers: readonly Exchange[]): Observed {
  const o = emptyObserved();
  for (const e of answers) observeOne(o, e, true);
  return o;
}

/**
 * What one answer showed that `known` (the names already kept, `kind:name`, updated) does not hold yet: the watcher
 * keeps it with the answer, so that the door checks learn names from every answer of the run, in any process.
 */
export function shownOf(e: Exchange, known: Set<string>): Shown | undefined {
  const o = emptyObserved();
  observeOne(o, e, false);
  const fresh = <T>(kind: string, entries: Iterable<T>, name: (x: T) => string): T[] =>
    [...entries].filter((x) => {
      const key = `${kind}:${name(x).toLowerCase()}`;
      if (known.has(key)) return false;
      known.add(key);
      return true;
    });
  const pairs = (kind: string, m: Map<string, string>) => fresh(kind, m.entries(), ([k]) => k);
  const parts: Shown = {
    headers: pairs('header', o.headers),
    headerNames: fresh('named', o.headerNames, (n) => n),
    cookies: pairs('cookie', o.cookies),
    linkParams: pairs('link', o.linkParams),
    envelopeFields: pairs('envelope', o.envelopeFields),
  };
  const shown = Object.fromEntries(Object.entries(parts).filter(([, v]) => v.length > 0)) as Shown;
  return Object.keys(shown).length > 0 ? shown : undefined;
}

/** Adds what other answers showed (kept by the watcher) to `o`, the names it already holds first. */
export function addShown(o: Observed, shown: readonly Shown[]): Observed {
  for (const s of shown) {
    for (const [k, v] of s.headers ?? []) if (!o.headers.has(k)) o.headers.set(k, v);
    for (const n of s.headerNames ?? []) o.headerNames.add(n);
    for (const [k, v] of s.cookies ?? []) if (!o.cookies.has(k)) o.cookies.set(k, v);
    for (const [k, v] of s.linkParams ?? []) if (!o.linkParams.has(k)) o.linkParams.set(k, v);
    for (const [k, v] of s.envelopeFields ?? []) if (!o.envelopeFields.has(k)) o.envelopeFields.set(k, v);
  }
  return o;
}

/** The class a value the target showed puts its name in: a merchant's id is an identity, a token a credential. */
function classOfValue(value: string, merchants: readonly string[]): DoorClass {
  if (merchants.includes(value)) return 'identity';
  return TOKEN_LIKE.test(value) ? 'credentials' : 'scope';
}

/** Candidates from what the target showed (source `target`). */
function fromTarget(o: Observed, merchants: readonly string[]): CandidateSpec[] {
  const out: CandidateSpec[] = [];
  const add = (channel: Channel, name: string, values: readonly string[], klass: DoorClass) =>
    out.push({ channel, name, values, source: 'target', klass });
  for (const [field, values] of o.recordFields) {
    const identity = values.some((v) => merchants.includes(v));
    add('query', field, identity ? ['{merchant}'] : values.slice(0, 2), identity ? 'identity' : 'scope');
    add('query', `filter[${field}]`, identity ? ['{merchant}'] : values.slice(0, 2), identity ? 'identity' : 'scope');
  }
  for (const [name, value] of o.envelopeFields) add('query', name, [value], 'format');
  for (const [name, value] of o.linkParams) add('query', name, [value], classOfValue(value, merchants));
  for (const [name, value] of o.headers) add('header', name, [value], classOfValue(value, merchants));
  // A header the server names but never sent: its meaning unknown, it carries what each class would, the key first (a
  // quick run sends each candidate's first value only).
  const named = [...new Set([...CLASS_VALUES.credentials, ...Object.values(CLASS_VALUES).flat()])];
  for (const name of o.headerNames) if (!o.headers.has(name.toLowerCase())) add('header', name, named, 'credentials');
  // What the server handed out is no credential (reading): replayed where a request must be refused.
  for (const [name, value] of o.cookies) add('cookie', name, [value], 'credentials');
  return out;
}

/** Candidates from the other collections declared (source `collections`): their filters, and their path's parameters. */
function fromCollections(collections: readonly Collection[]): CandidateSpec[] {
  return collections.flatMap((c): CandidateSpec[] => [
    ...c.filters.map((f) => ({
      channel: 'query' as const,
      name: `filter[${f.field}]`,
      values: f.values === 'learn' ? ['{merchant}'] : f.values.slice(0, 2),
      source: 'collections' as const,
      klass: 'scope' as const,
    })),
    ...Object.entries({ merchantId: '{merchant}', ...c.params }).map(([name, value]) => ({
      channel: 'query' as const,
      name,
      values: [value],
      source: 'collections' as const,
      klass: 'identity' as const,
    })),
  ]);
}

/** Candidates of a vocabulary: each entry in each of its channels, its values or its class's. */
function fromVocabulary(entries: readonly VocabularyEntry[], source: DoorSource): CandidateSpec[] {
  return entries.flatMap((e) =>
    e.in.map((channel) => ({
      channel,
      name: e.name,
      values: e.values ?? CLASS_VALUES[e.class],
      source,
      klass: e.class,
    })),
  );
}

/** Every candidate of the run, each name once per channel (the first source that gave it), documented names left out. */
export function candidatePool(from: {
  observed: Observed;
  merchants: readonly string[];
  collections: readonly Collection[];
  vocabularies: ReadonlyArray<{ source: DoorSource; entries: readonly VocabularyEntry[] }>;
}): CandidateSpec[] {
  const all = [
    ...fromTarget(from.observed, from.merchants),
    ...fromCollections(from.collections),
    ...from.vocabularies.flatMap((v) => fromVocabulary(v.entries, v.source)),
  ];
  const seen = new Set<string>();
  return all.filter((c) => {
    const key = `${c.channel}:${c.channel === 'query' ? c.name : c.name.toLowerCase()}`;
    if (seen.has(key) || !sendable(c.name) || DOCUMENTED[c.channel].includes(c.name.toLowerCase())) return false;
    seen.add(key);
    return true;
  });
}

/**
 * The candidates with their values for one request: templates put in, values a channel cannot carry left out (a key
 * is never put in a URL; a header or a cookie takes only what HTTP allows there); a candidate left with none goes.
 */
export function resolveCandidates(specs: readonly CandidateSpec[], run: RunValues): Candidate[] {
  return specs.flatMap((spec): Candidate[] => {
    const values = spec.values.flatMap((v): DoorValue[] => {
      if (v === '{merchant}') return [...run.merchants];
      if (v === '{path}') return [...run.paths];
      if (v === '{key}') return spec.channel === 'query' ? [] : run.keys.map((slot) => ({ slot }));
      if (spec.channel === 'header' && !HEADER_SAFE.test(v)) return [];
      if (spec.channel === 'cookie' && !COOKIE_SAFE.test(v)) return [];
      return [v];
    });
    return values.length ? [{ ...spec, values }] : [];
  });
}
