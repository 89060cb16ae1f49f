/**
 * Faults of the keys themselves: secrecy (§5.9) and the issued format (§2, §5.1). The echoes come through the doors
 * a real server leaves open (an error message, a debug header, a trace field, an error page, a help link), each in
 * a form a client or a proxy decodes: as is, masked, cut, JSON-escaped, hex, Base32, HTML character references,
 * percent-encoded twice, quoted-printable.
 */
import { base32 } from '@scure/base';
import { type Fault, fault } from './fault.ts';

/** Header values Node can send; an unsendable value would make the response itself fail. */
const HEADER_SAFE = /^[\x21-\x7e]+$/;
/** The key with its last 4 characters masked: a "redaction" that still shows almost all of it. */
const masked = (key: string) => `${key.slice(0, -4)}****`;
/** Each UTF-8 byte of `text` as two hex digits, upper case, after `mark` (`%`, `=`): an encoder that spares nothing. */
const everyByte = (text: string, mark: string) =>
  [...Buffer.from(text, 'utf8')].map((b) => mark + b.toString(16).toUpperCase().padStart(2, '0')).join('');
/** An HTML error page, as a front proxy serves it. */
const errorPage = (status: number, said: string) =>
  `<!DOCTYPE html>\n<html><head><title>${status} Unauthorized</title></head>\n<body><h1>Unauthorized</h1><p>${said}</p></body></html>\n`;

export const KEY_FAULTS: readonly Fault[] = [
  fault('key-echo-body', 'KEY-SECRET', '401 bodies say "invalid API key <key>"; 200 bodies carry requestedBy: <key>', {
    error: (e, f) => {
      if (e.status === 401 && f.presented !== undefined) e.message = `invalid API key ${f.presented}`;
    },
    body: (b, f) => {
      if (f.presented !== undefined) b.requestedBy = f.presented;
    },
  }),
  fault('key-echo-header', 'KEY-SECRET', 'every response carries X-Api-Key with the presented key', {
    headers: (h, f) => {
      if (f.presented !== undefined && HEADER_SAFE.test(f.presented)) h['X-Api-Key'] = f.presented;
    },
  }),
  fault(
    'key-echo-masked',
    'KEY-SECRET',
    '401 bodies quote the presented key with only its last 4 characters masked ("Invalid API key sk_test_…****")',
    {
      error: (e, f) => {
        if (e.status === 401 && f.presented !== undefined) e.message = `Invalid API key ${masked(f.presented)}`;
      },
    },
  ),
  fault(
    'key-echo-json-escaped',
    'KEY-SECRET',
    '401 bodies quote the presented key with every character JSON-escaped ("\\u0073\\u006b…"): the raw bytes hold no key, a client decodes one',
    {
      text: (body, status, f) => {
        if (status !== 401 || f.presented === undefined || !body.endsWith('}')) return undefined;
        const escaped = [...f.presented].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');
        return `${body.slice(0, -1)},"presented":"${escaped}"}`;
      },
    },
  ),
  fault(
    'key-echo-prefix-header',
    'KEY-SECRET',
    'every response to a keyed request carries X-Key-Hint: the first two thirds of the presented key, then "..."',
    {
      headers: (h, f) => {
        if (f.presented === undefined) return;
        const hint = f.presented.slice(0, Math.floor((f.presented.length * 2) / 3));
        if (HEADER_SAFE.test(hint)) h['X-Key-Hint'] = `${hint}...`;
      },
    },
  ),
  fault(
    'key-echo-hex-header',
    'KEY-SECRET',
    'every response to a keyed request carries X-Debug-Key: the presented key in hex (a debug header left on)',
    {
      headers: (h, f) => {
        if (f.presented !== undefined) h['X-Debug-Key'] = Buffer.from(f.presented, 'utf8').toString('hex');
      },
    },
  ),
  fault(
    'key-echo-html-entities',
    'KEY-SECRET',
    '401 answers are an HTML error page quoting the presented key with every character a numeric character reference (&#115;&#107;…)',
    {
      text: (_body, status, f) => {
        if (status !== 401 || f.presented === undefined) return undefined;
        const refs = [...f.presented].map((c) => `&#${c.codePointAt(0)};`).join('');
        return errorPage(status, `The API key <code>${refs}</code> was not accepted.`);
      },
      headers: (h, f, status) => {
        if (status === 401 && f.presented !== undefined) h['Content-Type'] = 'text/html; charset=utf-8';
      },
    },
  ),
  fault(
    'key-echo-base32-trace',
    'KEY-SECRET',
    '200 bodies carry trace: the request\'s credential ("key=<key>") Base32-encoded as an opaque trace token',
    {
      body: (b, f) => {
        if (f.presented !== undefined) b.trace = base32.encode(Buffer.from(`key=${f.presented}`, 'utf8'));
      },
    },
  ),
  fault(
    'key-echo-double-encoded-link',
    'KEY-SECRET',
    '401 answers carry Link: </help/keys?presented=…>; rel="help", the presented key percent-encoded byte by byte, then again (%2573%256B…)',
    {
      headers: (h, f, status) => {
        if (status !== 401 || f.presented === undefined) return;
        h.Link = `</help/keys?presented=${everyByte(f.presented, '%').replaceAll('%', '%25')}>; rel="help"`;
      },
    },
  ),
  fault(
    'key-echo-quoted-printable',
    'KEY-SECRET',
    "404 bodies carry debug: the request's Authorization header quoted-printable-encoded, every byte (=42=65=61…)",
    {
      text: (body, status, f) => {
        if (status !== 404 || f.presented === undefined || !body.endsWith('}')) return undefined;
        return `${body.slice(0, -1)},"debug":"${everyByte(`Authorization: Bearer ${f.presented}`, '=')}"}`;
      },
    },
  ),
  fault('live-key-format', 'CFG-KEYS', 'the issued (and announced) live key is sk_prod_… instead of sk_live_…', {
    keys: (keys) => {
      for (const k of keys) if (k.slot === 'live') k.secret = k.secret.replace(/^sk_live_/, 'sk_prod_');
    },
  }),
];
