/**
 * Scans run artifacts for secrets: every file under the given folders, inside zips (traces, blob
 * reports) and inside the HTML report's embedded base64 zip, for each needle in all its leak forms.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { inflateRawSync } from 'node:zlib';
import { base64Cores } from '../../core/model/secrets.ts';

export interface Hit {
  file: string;
  form: string;
}

/** The forms a key can take in an artifact: as is, case-changed, Base64 (also of `key:`), URL-encoded, the hash alone. */
export function leakForms(key: string): Array<[string, string]> {
  const b64 = (s: string) => Buffer.from(s).toString('base64');
  const hash = key.replace(/^sk_(?:test|live)_/i, '');
  return [
    ['key', key],
    ['lowercase', key.toLowerCase()],
    ['uppercase', key.toUpperCase()],
    ['base64', b64(key)],
    ['base64 basic', b64(`${key}:`)],
    // inside a longer Base64 text the key may start at any of three byte alignments
    ...base64Cores(key).map((core, i) => [`base64 inside (alignment ${i})`, core]),
    ['url-encoded', encodeURIComponent(key)],
    ['hash part', hash],
  ].filter(([, v]) => (v as string).length >= 8) as Array<[string, string]>;
}

/** Anything shaped like a key, configured or not (the shape the before-stop hook looks for). */
export const KEY_SHAPE = /sk_(?:test|live)_[A-Za-z0-9]{12,}/;

export function scanPaths(paths: string[], keys: string[], patterns: RegExp[] = []): { files: number; hits: Hit[] } {
  const forms = keys.flatMap((k) => leakForms(k));
  const hits: Hit[] = [];
  let files = 0;
  const visit = (label: string, data: Buffer) => {
    files += 1;
    for (const [form, needle] of forms) if (data.includes(needle)) hits.push({ file: label, form });
    const text = patterns.length > 0 ? data.toString('latin1') : '';
    for (const p of patterns) if (p.test(text)) hits.push({ file: label, form: `pattern ${p.source}` });
    let entries: Array<[string, Buffer]> = [];
    try {
      entries = unzip(data);
    } catch {
      hits.push({ file: label, form: 'unreadable zip (cannot prove it clean)' });
    }
    for (const [name, inner] of entries) visit(`${label}!${name}`, inner);
    for (const m of data.toString('latin1').matchAll(/data:application\/zip;base64,([A-Za-z0-9+/=]+)/g)) {
      visit(`${label}!embedded.zip`, Buffer.from(m[1] as string, 'base64'));
    }
  };
  const walk = (path: string) => {
    let st: ReturnType<typeof statSync>;
    try {
      st = statSync(path);
    } catch {
      return;
    }
    if (st.isDirectory()) for (const entry of readdirSync(path)) walk(join(path, entry));
    else if (st.isFile()) visit(path, readFileSync(path));
  };
  for (const p of paths) walk(p);
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
