/**
 * Scans run artifacts for secrets: every file under the given folders, inside zips (traces, blob
 * reports) and inside the HTML report's embedded base64 zip, for each key in every form of
 * core/model/key-forms.ts (the table the suite's own redaction derives from) and for its random part alone.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { inflateRawSync } from 'node:zlib';
import { formsIn, keyForms, type View, views } from '../../core/model/key-forms.ts';
import { partialQuotes } from '../../core/model/key-quote.ts';

export interface Hit {
  file: string;
  form: string;
}

/**
 * The forms of `key` that a text (read as its views) shows: each form of the table by name (`key` as is,
 * `case-changed`, `hex`, `Base32`, `Base64`, …, with the decoding that showed it: `hex (percent-decoded)`), and
 * `hash part` for the key's random part alone, in any case, and `most of the hash part` for a partial quote of it
 * (key-quote.ts: at least half of it at its own positions, what KEY-SECRET calls a leak).
 */
export function leakForms(key: string, read: readonly View[]): string[] {
  const forms = keyForms(key);
  const hash = key.replace(/^sk_(?:test|live)_/i, '').toLowerCase();
  const found = new Set<string>();
  for (const view of read) {
    const how = view.how ? ` (${view.how})` : '';
    for (const form of formsIn(forms, view)) found.add(`${form || 'key'}${how}`);
    if (hash.length >= 8 && view.lower.includes(hash)) found.add(`hash part${how}`);
  }
  // Less than the whole, where no view shows more: most of the random part at its own positions (a partial quote).
  if (found.size === 0) {
    for (const view of read) {
      if (partialQuotes(key, view.lower).length > 0)
        found.add(`most of the hash part${view.how ? ` (${view.how})` : ''}`);
    }
  }
  return [...found];
}

/** Anything shaped like a key, configured or not (the shape the before-stop hook looks for). */
export const KEY_SHAPE = /sk_(?:test|live)_[A-Za-z0-9]{12,}/;

/**
 * What a text shows of these keys, by content: the self-test scans many files more than once (each stage its own, the
 * last stage everything), and a file that has not changed needs its decoding views only once.
 */
const scanned = new Map<string, string[]>();
function formsShown(text: string, keys: readonly string[], deep: boolean): Array<[string, string]> {
  const id = createHash('sha1').update(text).update(`\0${deep}\0`).update(keys.join('\0')).digest('hex');
  let found = scanned.get(id);
  if (!found) {
    const read = deep ? views(text) : views(text).slice(0, 1);
    found = keys.flatMap((key) => leakForms(key, read).map((form) => `${keys.indexOf(key)}\0${form}`));
    scanned.set(id, found);
  }
  return found.map((f) => f.split('\0') as [string, string]);
}

/** Every file under `paths` (a file among them stands for itself), in walk order. */
export function filesUnder(paths: readonly string[]): string[] {
  const out: string[] = [];
  const walk = (path: string) => {
    let st: ReturnType<typeof statSync>;
    try {
      st = statSync(path);
    } catch {
      return;
    }
    if (st.isDirectory()) for (const entry of readdirSync(path)) walk(join(path, entry));
    else if (st.isFile()) out.push(path);
  };
  for (const p of paths) walk(p);
  return out;
}

/**
 * Every file under `paths` (and inside its zips) scanned for the keys in every form. `deepUpTo`: files larger than this
 * many bytes are read as they are, without the decoding views (a sweep over hundreds of megabytes of request logs;
 * the stages whose targets echo keys in every encoding scan their own artifacts deep).
 */
export function scanPaths(
  paths: string[],
  keys: string[],
  patterns: RegExp[] = [],
  deepUpTo = Number.POSITIVE_INFINITY,
): { files: number; hits: Hit[] } {
  return scanFiles(filesUnder(paths), keys, patterns, deepUpTo);
}

/** `scanPaths` of these files. */
export function scanFiles(
  paths: readonly string[],
  keys: readonly string[],
  patterns: readonly RegExp[] = [],
  deepUpTo = Number.POSITIVE_INFINITY,
): { files: number; hits: Hit[] } {
  const hits: Hit[] = [];
  let files = 0;
  const visit = (label: string, data: Buffer) => {
    files += 1;
    const text = data.toString('latin1');
    for (const [, form] of formsShown(text, keys, data.length <= deepUpTo)) hits.push({ file: label, form });
    for (const p of patterns) if (p.test(text)) hits.push({ file: label, form: `pattern ${p.source}` });
    let entries: Array<[string, Buffer]> = [];
    try {
      entries = unzip(data);
    } catch {
      hits.push({ file: label, form: 'unreadable zip (cannot prove it clean)' });
    }
    for (const [name, inner] of entries) visit(`${label}!${name}`, inner);
    for (const m of text.matchAll(/data:application\/zip;base64,([A-Za-z0-9+/=]+)/g)) {
      visit(`${label}!embedded.zip`, Buffer.from(m[1] as string, 'base64'));
    }
  };
  for (const path of paths) {
    let data: Buffer;
    try {
      data = readFileSync(path);
    } catch {
      continue; // gone since it was listed
    }
    visit(path, data);
  }
  return { files, hits };
}

/** Minimal zip reader (stored and deflated entries) so the scan needs no dependency. */
export function unzip(data: Buffer): Array<[string, Buffer]> {
  if (data.length < 22 || data.readUInt32LE(0) !== 0x04034b50) return [];
  const out: Array<[string, Buffer]> = [];
  let eocd = -1;
  for (let i = data.length - 22; i >= Math.max(0, data.length - 65_557); i--) {
    if (data.readUInt32LE(i) === 0x06054b50) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) return out;
  const count = data.readUInt16LE(eocd + 10);
  let p = data.readUInt32LE(eocd + 16);
  for (let n = 0; n < count && p + 46 <= data.length; n++) {
    if (data.readUInt32LE(p) !== 0x02014b50) break;
    const method = data.readUInt16LE(p + 10);
    const size = data.readUInt32LE(p + 20);
    const nameLen = data.readUInt16LE(p + 28);
    const extraLen = data.readUInt16LE(p + 30);
    const commentLen = data.readUInt16LE(p + 32);
    const local = data.readUInt32LE(p + 42);
    const name = data.toString('utf8', p + 46, p + 46 + nameLen);
    const start = local + 30 + data.readUInt16LE(local + 26) + data.readUInt16LE(local + 28);
    const raw = data.subarray(start, start + size);
    try {
      out.push([name, method === 8 ? inflateRawSync(raw) : raw]);
    } catch {
      out.push([name, raw]);
    }
    p += 46 + nameLen + extraLen + commentLen;
  }
  return out;
}
