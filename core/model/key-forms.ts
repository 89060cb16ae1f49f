/**
 * The forms a key takes in a text, in one table that the key-leak scan (core/client/leak.ts, rule KEY-SECRET), the
 * redaction of everything the suite writes (secrets.ts) and npm test's artifact scan all derive from.
 *
 * Two kinds of entry. An ENCODING turns the key's bytes into other characters (hex, Base32, Base64): it is searched
 * for as the characters that the key's bytes alone determine, at every byte alignment, so the key is found inside a
 * longer encoded text too. An ESCAPE can spell any single character another way (`%73`, `%2573`, `\u0073`, `&#115;`,
 * `&#x73;`, `=73`), in as many spellings as there are leading zeros and letter cases: rather than list them, each is
 * DECODED — a text's views are the text and what each decoder makes of it (twice over, for an escape inside an
 * escape), and every view is searched for the key and its encodings. The key itself and the caseless encodings are
 * found in any letter case (the case-changed forms).
 */
import { type BytesCoder, base32, base32crockford, base32hex, base64, base64url, hex } from '@scure/base';
import { decodeHTML } from 'entities';

/** An encoding of bytes: `bits` per character; `caseless` when a decoder reads it in either letter case. */
interface Encoding {
  name: string;
  coder: BytesCoder;
  bits: 4 | 5 | 6;
  caseless: boolean;
}

/** The encodings of a key's (UTF-8) bytes that a response or a report may carry. */
const ENCODINGS: readonly Encoding[] = [
  { name: 'hex', coder: hex, bits: 4, caseless: true },
  { name: 'Base32', coder: base32, bits: 5, caseless: true },
  { name: 'Base32hex', coder: base32hex, bits: 5, caseless: true },
  { name: 'Crockford Base32', coder: base32crockford, bits: 5, caseless: true },
  { name: 'Base64', coder: base64, bits: 6, caseless: false },
  { name: 'Base64url', coder: base64url, bits: 6, caseless: false },
];

/** An escape: `trigger` is a character every escaped text holds; `token` matches a run of escapes, `decode` reads it. */
export interface Decoder {
  name: string;
  trigger: string;
  token: RegExp;
  decode(token: string): string;
}

const UTF8 = new TextDecoder();
/** The text that the bytes written as hex pairs (`73`, `6B`) spell in UTF-8 (U+FFFD for a broken sequence). */
const hexBytes = (pairs: string) =>
  UTF8.decode(Uint8Array.from(pairs.match(/../g) ?? [], (h) => Number.parseInt(h, 16)));
const BACKSLASH: Record<string, string> = { b: '\b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v', 0: '\0' };

/** What a client may decode in a response, and what a report may carry escaped. */
const DECODERS: readonly Decoder[] = [
  {
    // `%73`, and `%2573` (encoded twice: `%25` is `%`) or more, in one step.
    name: 'percent-decoded',
    trigger: '%',
    token: /(?:%(?:25)*[0-9a-f]{2})+/gi,
    decode: (run) => hexBytes(run.replace(/%(?:25)*([0-9a-f]{2})/gi, '$1')),
  },
  {
    // JSON's `\u0073` and `\/`, JavaScript's `\x73` and `\u{73}`, in a JSON string or any other text.
    name: 'backslash escapes decoded',
    trigger: '\\',
    token: /\\(?:u\{[0-9a-f]{1,6}\}|u[0-9a-f]{4}|x[0-9a-f]{2}|[\s\S])/gi,
    decode: (sequence) => {
      const hexDigits = /^\\(?:u\{?|x)([0-9a-f]+)\}?$/i.exec(sequence)?.[1];
      if (hexDigits !== undefined) return String.fromCodePoint(Math.min(Number.parseInt(hexDigits, 16), 0x10ffff));
      const c = sequence.slice(1);
      return BACKSLASH[c] ?? c;
    },
  },
  {
    // HTML and XML character references, decimal or hex with any leading zeros, named ones (`&lowbar;`), and a
    // reference whose `&` was itself escaped (`&amp;#115;`); decoded by the `entities` package, as browsers do.
    name: 'HTML character references decoded',
    trigger: '&',
    token: /&(?:amp;)*(?:#[0-9]+;?|#x[0-9a-f]+;?|[a-z][a-z0-9]*;)/gi,
    decode: (ref) => decodeHTML(ref.replace(/^&(?:amp;)+/i, '&')),
  },
  {
    // Quoted-printable (RFC 2045 §6.7): `=73` in either case, and the soft line break `=` at a line's end.
    name: 'quoted-printable decoded',
    trigger: '=',
    token: /(?:=[0-9a-f]{2}|=\r?\n)+/gi,
    decode: (run) => hexBytes(run.replace(/=(?:\r?\n)?/g, '')),
  },
];

/** An escape inside an escape (`\u0026#115;`, a JSON string inside a JSON string) is decoded by a second pass. */
const DEPTH = 2;
/** An encoded form shorter than this is too likely to occur by chance. */
const MIN_ENCODED = 12;

/** One encoded form of a key: `needle` lower-cased when the form is caseless; the characters of its encoding. */
interface EncodedForm {
  name: string;
  needle: string;
  caseless: boolean;
  alphabet: Uint8Array;
}

/** A key's forms, computed once per key. */
export interface KeyForms {
  key: string;
  lower: string;
  encoded: readonly EncodedForm[];
  /** The characters of every encoding (lower-cased), and the shortest encoded form's length: a text without a run
   * of that many of them holds none, which a skipping scan tells in far fewer steps than a search per form. */
  alphabet: Uint8Array;
  shortest: number;
}

/** How many bytes an encoding's characters span before its alignment repeats (the lcm of 8 and `bits`, in bytes). */
const BLOCK_BYTES = { 4: 1, 5: 5, 6: 3 } as const;

/**
 * The characters of `bytes` encoded as `e` at each byte alignment inside a longer encoded text: for each, only the
 * characters that the bytes alone determine (not those shared with a neighbouring byte).
 */
function alignedCores(bytes: Uint8Array, e: Encoding): string[] {
  const cores: string[] = [];
  for (let pad = 0; pad < BLOCK_BYTES[e.bits]; pad++) {
    const encoded = e.coder.encode(Uint8Array.from([...new Uint8Array(pad), ...bytes]));
    cores.push(encoded.slice(Math.ceil((8 * pad) / e.bits), Math.floor((8 * (pad + bytes.length)) / e.bits)));
  }
  return cores;
}

/**
 * The characters an encoding writes, padding included, as a lookup by character code (lower-cased): read off the
 * codec itself, by encoding every byte value at every alignment.
 */
const alphabetOf = (() => {
  const every = Array.from({ length: 256 }, (_, i) => i);
  const read = new Map<Encoding, Uint8Array>();
  return (e: Encoding) => {
    let alphabet = read.get(e);
    if (!alphabet) {
      alphabet = new Uint8Array(128);
      for (let pad = 0; pad < BLOCK_BYTES[e.bits]; pad++) {
        for (const c of e.coder.encode(Uint8Array.from([...new Uint8Array(pad), ...every])).toLowerCase()) {
          alphabet[c.charCodeAt(0)] = 1;
        }
      }
      read.set(e, alphabet);
    }
    return alphabet;
  };
})();

const formsCache = new Map<string, KeyForms>();
/** The key's forms (cached: a run asks for the same few keys on every response). */
export function keyForms(key: string): KeyForms {
  let forms = formsCache.get(key);
  if (forms) return forms;
  const bytes = new TextEncoder().encode(key);
  const seen = new Set<string>();
  const encoded: EncodedForm[] = [];
  for (const e of ENCODINGS) {
    for (const core of alignedCores(bytes, e)) {
      const needle = e.caseless ? core.toLowerCase() : core;
      if (needle.length < MIN_ENCODED || seen.has(needle)) continue;
      seen.add(needle);
      encoded.push({ name: e.name, needle, caseless: e.caseless, alphabet: alphabetOf(e) });
    }
  }
  const alphabet = new Uint8Array(128);
  for (const f of encoded) for (let c = 0; c < 128; c++) if (f.alphabet[c] === 1) alphabet[c] = 1;
  const shortest = Math.min(...encoded.map((f) => f.needle.length));
  forms = { key, lower: key.toLowerCase(), encoded, alphabet, shortest };
  if (formsCache.size > 256) formsCache.clear(); // presented keys vary (mutations); configured keys come back
  formsCache.set(key, forms);
  return forms;
}

/** A text as read: `how` it was decoded ('' for the text as is) by which `steps`, and its lower-cased copy. */
export interface View {
  how: string;
  steps: readonly Decoder[];
  text: string;
  lower: string;
}

/**
 * The text and what the decoders make of it (a view only where a decoder changed something), the text first. A
 * decoded view is decoded again only by the decoders whose trigger its escapes produced (`\u0026` gave `&`, `%25`
 * gave `%`): an escape inside an escape, and no second pass over a text that merely held both kinds side by side.
 */
export function views(text: string): View[] {
  const out: View[] = [{ how: '', steps: [], text, lower: text.toLowerCase() }];
  let frontier: Array<[View, readonly Decoder[]]> = [[out[0] as View, DECODERS]];
  for (let depth = 0; depth < DEPTH && frontier.length > 0; depth++) {
    const next: Array<[View, readonly Decoder[]]> = [];
    for (const [v, decoders] of frontier) {
      for (const d of decoders) {
        if (!v.text.includes(d.trigger)) continue;
        const produced = new Set<Decoder>();
        const decoded = v.text.replace(d.token, (token) => {
          const plain = d.decode(token);
          for (const again of DECODERS) if (plain.includes(again.trigger)) produced.add(again);
          return plain;
        });
        if (decoded === v.text) continue;
        const how = v.how ? `${v.how}, then ${d.name}` : d.name;
        const view = { how, steps: [...v.steps, d], text: decoded, lower: decoded.toLowerCase() };
        out.push(view);
        next.push([view, [...produced]]);
      }
    }
    frontier = next;
  }
  return out;
}

/**
 * The names of the key's forms that `view` shows whole: '' for the key as is, 'case-changed', or an encoding's
 * name; in the table's order. A generator: a caller that needs one stops at the first.
 */
export function* formsIn(forms: KeyForms, view: Pick<View, 'text' | 'lower'>): Generator<string> {
  if (view.lower.includes(forms.lower)) yield view.text.includes(forms.key) ? '' : 'case-changed';
  if (forms.encoded.length === 0 || !hasRun(view.lower, forms.alphabet, forms.shortest)) return;
  for (const f of forms.encoded) {
    if ((f.caseless ? view.lower : view.text).includes(f.needle)) yield f.name;
  }
}

/**
 * Whether `text` has `length` consecutive characters of `alphabet`. Looks at every `length`-th character and only
 * walks back from one inside the alphabet, so a text of short runs (JSON: ids, dates, words) costs about
 * text.length / length steps.
 */
export function hasRun(text: string, alphabet: Uint8Array, length: number): boolean {
  let end = length - 1;
  while (end < text.length) {
    const c = text.charCodeAt(end);
    if (c >= 128 || alphabet[c] === 0) {
      end += length;
      continue;
    }
    const first = end - length + 1;
    let start = end;
    while (start > first) {
      const d = text.charCodeAt(start - 1);
      if (d >= 128 || alphabet[d] === 0) break;
      start--;
    }
    if (start === first) return true;
    end = start - 1 + length; // text[start - 1] is outside: a run long enough starts at `start` or later
  }
  return false;
}

/** What a run of an encoding's characters must be at least to be read as encoded text (a record's id and a field). */
const MIN_ENCODED_TEXT = 24;
/** The encodings a text is read through as well, besides its escapes (a record Base64-encoded in a debug header). */
const TEXT_ENCODINGS: ReadonlyArray<{ name: string; run: RegExp; decode: (run: string) => Uint8Array }> = [
  {
    name: 'Base64-decoded',
    run: /[A-Za-z0-9+/]{24,}={0,2}/g,
    decode: (run) => base64.decode(run.padEnd(Math.ceil(run.length / 4) * 4, '=')),
  },
  {
    name: 'Base64url-decoded',
    run: /[A-Za-z0-9_-]{24,}={0,2}/g,
    decode: (run) => base64url.decode(run.padEnd(Math.ceil(run.length / 4) * 4, '=')),
  },
  { name: 'hex-decoded', run: /(?:[0-9a-fA-F]{2}){12,}/g, decode: (run) => hex.decode(run.toLowerCase()) },
];
const STRICT_UTF8 = new TextDecoder('utf-8', { fatal: true });
/** Characters an escape view must have saved to count as a reading of its own (six `%7B`s, three `\u0022`s). */
const MIN_ESCAPED = 12;

/**
 * Every reading of a text a client may make besides the text itself: each view of its escapes (`views`), and each
 * run of Base64, Base64url or hex characters long enough to hold a record, decoded where its bytes are UTF-8 text (a
 * run that decodes to bytes is no text: an id, a hash). The watcher reads headers and bodies through them all.
 */
export function readings(text: string): Array<{ how: string; text: string }> {
  // An escape view counts where escapes wrote a good part of the text (a stray `=12` in `amount=1200` is no encoding).
  const out = views(text)
    .slice(1)
    .filter((v) => text.length - v.text.length >= MIN_ESCAPED)
    .map((v) => ({ how: v.how, text: v.text }));
  if (text.length < MIN_ENCODED_TEXT) return out;
  for (const e of TEXT_ENCODINGS) {
    const decoded: string[] = [];
    for (const [run] of text.matchAll(e.run)) {
      try {
        const plain = STRICT_UTF8.decode(e.decode(run));
        // Text, not bytes: printable, with some letters.
        if (/^[\t\n\r\x20-\x7e\u00a0-\uffff]+$/.test(plain) && /[A-Za-z]{2}/.test(plain)) decoded.push(plain);
      } catch {
        // not this encoding, or not text
      }
    }
    const joined = decoded.join('\n');
    // Base64 without `+` or `/` is Base64url too: one reading.
    if (decoded.length > 0 && !out.some((r) => r.text === joined)) out.push({ how: e.name, text: joined });
  }
  return out;
}
