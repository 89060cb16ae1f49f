/** Faults of the keys themselves: secrecy (§5.9) and the issued format (§2, §5.1). */
import { type Fault, fault } from './fault.ts';

/** Header values Node can send; an unsendable value would make the response itself fail. */
const HEADER_SAFE = /^[\x21-\x7e]+$/;
/** The key with its last 4 characters masked: a "redaction" that still shows almost all of it. */
const masked = (key: string) => `${key.slice(0, -4)}****`;

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
  fault('live-key-format', 'CFG-KEYS', 'the issued (and announced) live key is sk_prod_… instead of sk_live_…', {
    keys: (keys) => {
      for (const k of keys) if (k.slot === 'live') k.secret = k.secret.replace(/^sk_live_/, 'sk_prod_');
    },
  }),
];
