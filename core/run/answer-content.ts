/**
 * What an answer carried that may be records, read whole (the watcher's part, core/run/watch.ts): every record-like
 * object of its JSON body, of JSON written inside a text (an HTML error page, a log line, a header) and of the raw
 * text where parsing dropped some (a key given twice keeps its last value only); and the texts that may write a record
 * out of JSON (XML, `id=… amount=…`). Every header and every text is also read as a client may decode it
 * (core/model/key-forms.ts `readings`: percent, backslash, HTML and quoted-printable escapes, Base64, Base64url, hex).
 */
import { readings } from '../model/key-forms.ts';

type Row = Record<string, unknown>;
const isRow = (v: unknown): v is Row => typeof v === 'object' && v !== null && !Array.isArray(v);

/** At most this many objects are kept of one answer (a body of a million objects stays cheap). */
const MAX_OBJECTS = 500;
/** Embedded JSON is looked for in the first this-many characters of a text that is not JSON itself. */
const MAX_SCAN = 256 * 1024;
/** A text is kept up to this many characters. */
const MAX_TEXT = 64 * 1024;
/** Shorter strings and header values cannot hold a record's id and another of its fields. */
const MIN_TEXT = 24;

interface Found {
  objects: Array<{ where: string; value: Row }>;
  texts: Array<{ where: string; text: string }>;
}

/** The answer as the watcher reads it: status, headers, body as text and as parsed JSON. */
interface Answer {
  status: number;
  headers: Readonly<Record<string, string>>;
  text: string;
  json: unknown;
}

/** Objects of a JSON value that may be records: with an `id` and another field, or with three fields or more. */
function collect(value: unknown, where: string, into: Array<{ where: string; value: Row }>, skip?: unknown): void {
  if (into.length >= MAX_OBJECTS) return;
  if (Array.isArray(value)) {
    for (const v of value) collect(v, where, into, skip);
    return;
  }
  if (!isRow(value)) return;
  if (value !== skip) {
    const keys = Object.keys(value);
    if (('id' in value && keys.length >= 2) || keys.length >= 3) into.push({ where, value });
  }
  for (const v of Object.values(value)) if (typeof v === 'object' && v !== null) collect(v, where, into, skip);
}

/**
 * JSON objects written inside a text (an HTML error page, a log line, a header): each balanced `{…}` that parses, and
 * (`nested`) each one inside it on its own too.
 */
function embedded(text: string, nested = false): unknown[] {
  const out: unknown[] = [];
  const s = text.length > MAX_SCAN ? text.slice(0, MAX_SCAN) : text;
  const plain = s.includes('&') ? s.replace(/&quot;|&#34;|&#x22;/gi, '"').replace(/&amp;/gi, '&') : s;
  let attempts = 0;
  for (let start = plain.indexOf('{'); start >= 0 && attempts < 200; start = plain.indexOf('{', start + 1)) {
    attempts += 1;
    let depth = 0;
    let inString = false;
    for (let i = start; i < plain.length; i++) {
      const c = plain[i];
      if (inString) {
        if (c === '\\') i += 1;
        else if (c === '"') inString = false;
      } else if (c === '"') inString = true;
      else if (c === '{') depth += 1;
      else if (c === '}' && --depth === 0) {
        try {
          out.push(JSON.parse(plain.slice(start, i + 1)));
          // The objects inside it were parsed with it, unless asked for on their own (the raw text of a JSON body).
          if (!nested) start = i;
        } catch {
          // not JSON: the next `{` may start some
        }
        break;
      }
    }
  }
  return out;
}

const cut = (t: string) => (t.length > MAX_TEXT ? t.slice(0, MAX_TEXT) : t);

/** Objects in a text (named `inside`), and the text itself where it may write a record out (long enough). */
function readText(text: string, where: string, into: Found, inside = where): void {
  if (text.includes('{')) for (const o of embedded(text)) collect(o, inside, into.objects);
  if (text.length >= MIN_TEXT) into.texts.push({ where, text: cut(text) });
}

/** A text read as it is (`plain`; a header's own objects and text are read apart) and in every decoding. */
function readWhole(text: string, where: string, into: Found, plain: boolean): void {
  if (plain) readText(text, where, into, `${where} (JSON inside the text)`);
  for (const r of readings(text)) readText(r.text, `${where} (${r.how})`, into);
}

/** The long strings of a JSON value (a message that quotes a payment), each once. */
function stringsOf(json: unknown): string[] {
  const strings: string[] = [];
  const walk = (v: unknown): void => {
    if (typeof v === 'string' && v.length >= MIN_TEXT) strings.push(v);
    else if (Array.isArray(v)) for (const x of v) walk(x);
    else if (isRow(v)) for (const x of Object.values(v)) walk(x);
  };
  walk(json);
  return strings;
}

/** How many objects a JSON value holds: fewer than the raw text's `{` says parsing dropped some (a repeated key). */
function objectCount(v: unknown): number {
  if (Array.isArray(v)) return v.reduce((n: number, x) => n + objectCount(x), 0);
  return isRow(v) ? 1 + Object.values(v).reduce((n: number, x) => n + objectCount(x), 0) : 0;
}

/**
 * Everything of `a` that may be a record, besides what `own` says is the answer's own (the records of a listing the
 * request may read: their envelope is skipped, its other fields looked into). `body: false` reads the headers only.
 */
export function contentOf(a: Answer, opts: { body: boolean; own?: Row }): Found {
  const found: Found = { objects: [], texts: [] };
  if (opts.body) {
    if (a.json !== undefined) {
      const envelope = opts.own ?? (isRow(a.json) && Array.isArray(a.json.data) ? a.json : undefined);
      if (opts.own) {
        for (const [k, v] of Object.entries(opts.own))
          if (k !== 'data' && typeof v === 'object' && v !== null) collect(v, `body field ${k}`, found.objects);
      } else collect(a.json, 'body', found.objects, envelope);
      const strings = stringsOf(a.json);
      if (!opts.own && strings.length > 0) readWhole(strings.join('\n'), 'body (its strings)', found, true);
      // The raw text holds more objects than the parse kept: read it as text too.
      const braces = a.text.split('{').length - 1;
      if (!opts.own && braces > objectCount(a.json)) {
        for (const o of embedded(a.text, true)) collect(o, 'body (as sent, before parsing)', found.objects, envelope);
      }
    } else if (a.text.length > 0) readWhole(a.text, 'body', found, true);
  }
  for (const [name, value] of Object.entries(a.headers)) {
    if (value.includes('{')) for (const o of embedded(value)) collect(o, `header ${name}`, found.objects);
    readWhole(value, `header ${name}`, found, false);
  }
  const headers = Object.entries(a.headers).filter(([, v]) => v.length >= MIN_TEXT);
  if (headers.length > 0)
    found.texts.push({ where: 'headers', text: cut(headers.map(([n, v]) => `${n}: ${v}`).join('\n')) });
  // An object read twice (as sent and decoded) is one object, where it was first found.
  const seen = new Set<string>();
  found.objects = found.objects.filter((o) => {
    const key = JSON.stringify(o.value);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  return found;
}
