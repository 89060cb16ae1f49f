/**
 * Credentials as the suite writes them, without their secrets: which configured key (by its slot, never its value),
 * under which scheme and spacing, possibly tampered with, with what else the header carries around it. A request carries an `Auth`; reports show its label
 * (`Authorization: Bearer $API_TEST_KEY`) and the variable, never the key.
 */

/** The configured keys, by the role they play. */
import apiKeySchema from '../../schemas/api-key.schema.json' with { type: 'json' };
export type KeySlot = 'test' | 'live' | 'restricted' | 'revoked' | 'old';

/** The environment variable that holds each key slot. */
export const KEY_VARS: Readonly<Record<KeySlot, string>> = {
  test: 'API_TEST_KEY',
  live: 'API_LIVE_KEY',
  restricted: 'API_RESTRICTED_KEY',
  revoked: 'API_REVOKED_KEY',
  old: 'API_OLD_KEY',
};

/** A named, reproducible derivation of a configured key (for AUTH-INVALID), with its shell form for curl. */
export interface KeyMutation {
  name: string;
  apply: (key: string) => string;
  /** The same derivation in POSIX shell, given a variable reference such as `$API_TEST_KEY`. */
  shell: (ref: string) => string;
  /** The key itself in another encoding (Basic credentials): a target may take it for the key (advisory ADV-SCHEME). */
  encodes?: true;
}

/** A piece of an Authorization header around the key: text as sent, or a configured key by its slot (never its value). */
type HeaderPiece = string | { slot: KeySlot };

/**
 * What a header carries next to the key besides its scheme and whitespace (another token, a comma and a second
 * credential, quotes, a parameter): it makes the header another credential than the key (reading: 401).
 */
export interface Around {
  /** The grammar class, in words: `followed by another token`, `in double quotes`. */
  name: string;
  before?: readonly HeaderPiece[];
  after?: readonly HeaderPiece[];
}

/** How a header is written around the key: scheme, the whitespace after it, and whitespace before or after it all. */
export interface HeaderSpelling {
  /** `Bearer`, `bearer`, `Basic`, …; '' = a bare key. */
  scheme: string;
  /** Between the scheme and the key: ' ', several spaces, a tab, or '' (the key glued to the scheme). */
  gap: string;
  /** Whitespace before the header's value (HTTP strips it, RFC 9110 §5.5). */
  lead?: string;
  /** Whitespace after the key (HTTP strips it). */
  trail?: string;
}

export type Auth =
  | { kind: 'none' }
  /**
   * A configured key, possibly mutated, after `scheme` (default `Bearer`; '' = a bare key) and `gap` (default ' '),
   * with `lead` and `trail` whitespace and what else the header carries `around` it (auth-header.ts's grammar).
   */
  | {
      kind: 'key';
      slot: KeySlot;
      scheme?: string;
      gap?: string;
      mutation?: KeyMutation;
      lead?: string;
      trail?: string;
      around?: Around;
    }
  /** A made-up credential that is not a secret of the user's (e.g. `Bearer not-a-key`). */
  | { kind: 'literal'; header: string };

type KeyAuth = Extract<Auth, { kind: 'key' }>;

export const NO_AUTH: Auth = { kind: 'none' };

export const asKey = (
  slot: KeySlot,
  extra: Partial<Omit<Extract<Auth, { kind: 'key' }>, 'kind' | 'slot'>> = {},
): Auth => ({ kind: 'key', slot, ...extra });

/** What precedes the key in the header: `Bearer `, `bearer  ` (two spaces), or nothing for a bare key. */
function schemePart(auth: KeyAuth): string {
  const scheme = auth.scheme ?? 'Bearer';
  return scheme === '' ? '' : `${scheme}${auth.gap ?? ' '}`;
}

/** A key in a header as it is written: the presented key (`main`, mutated if the auth says so) or another one. */
type KeyPiece = { slot: KeySlot; main: boolean };

/**
 * The header, in order, as text and keys: the one description of what a key credential sends. The client puts the
 * keys in at the last moment; the label and the curl line put their variables in.
 */
export function headerPieces(auth: KeyAuth): Array<string | KeyPiece> {
  const key = (p: HeaderPiece): string | KeyPiece => (typeof p === 'string' ? p : { slot: p.slot, main: false });
  return [
    auth.lead ?? '',
    schemePart(auth),
    ...(auth.around?.before ?? []).map(key),
    { slot: auth.slot, main: true },
    ...(auth.around?.after ?? []).map(key),
    auth.trail ?? '',
  ].filter((p) => p !== '');
}

/** Whitespace HTTP strips around a field value, or the whitespace after the scheme (spaces, leniently tabs). */
const WHITESPACE = /^[ \t]+$/;

/** Whitespace in words: `2 spaces`, `a tab`, `" \t"`. */
function whitespaceName(s: string): string {
  if (/^ +$/.test(s)) return s.length === 1 ? 'a space' : `${s.length} spaces`;
  if (s === '\t') return 'a tab';
  return JSON.stringify(s);
}

/** How a request authenticated, in words and without the secret: `Authorization: Bearer $API_TEST_KEY`. */
export function authLabel(auth: Auth): string {
  if (auth.kind === 'none') return 'no Authorization header';
  if (auth.kind === 'literal') return `Authorization: ${auth.header}`;
  const ref = (slot: KeySlot) => `$${KEY_VARS[slot]}`;
  const plain = !auth.around && !auth.trail;
  // The mutation's name follows the key when nothing else does (`$API_TEST_KEY uppercased`), else it is a note.
  const value = headerPieces(auth)
    .map((p) =>
      typeof p === 'string'
        ? p
        : p.main && auth.mutation && plain
          ? `${ref(p.slot)} ${auth.mutation.name}`
          : ref(p.slot),
    )
    .join('');
  const notes: string[] = [];
  if (auth.around) notes.push(auth.around.name);
  if (auth.mutation && !plain) notes.push(`${ref(auth.slot)} ${auth.mutation.name}`);
  if (auth.lead) notes.push(`${whitespaceName(auth.lead)} before the value`);
  const gap = auth.gap ?? ' ';
  if (auth.scheme === '') notes.push('no scheme');
  else if (gap === '') notes.push('no space after the scheme');
  else if (gap !== ' ') notes.push(`${whitespaceName(gap)} after the scheme`);
  if (auth.trail) notes.push(`${whitespaceName(auth.trail)} after the key`);
  return `Authorization: ${value}${notes.length > 0 ? ` (${notes.join('; ')})` : ''}`;
}

/**
 * The configured key a request presents, by its slot: only when the header, as sent, is that key exactly after a
 * Bearer scheme in any case and any whitespace (what a target may accept as that key, reading "Keys, modes,
 * merchants"); undefined for every other header (none, a made-up one, a mutated key, more than the key, another
 * scheme, a bare key, the key glued to the scheme).
 */
export function presentedKeySlot(auth: Auth): KeySlot | undefined {
  if (auth.kind !== 'key' || auth.mutation || auth.around) return undefined;
  if ((auth.scheme ?? 'Bearer').toLowerCase() !== 'bearer' || !WHITESPACE.test(auth.gap ?? ' ')) return undefined;
  const edge = (s: string | undefined) => s === undefined || s === '' || WHITESPACE.test(s);
  return edge(auth.lead) && edge(auth.trail) ? auth.slot : undefined;
}

/** Length of the `sk_test_` / `sk_live_` prefix (0 for a key without one). */
export function prefixLength(key: string): number {
  return /^sk_(?:test|live)_/.exec(key)?.[0].length ?? 0;
}

/**
 * The configured key a target may take a header for, by its slot: the key alone (or only re-encoded, as Basic
 * credentials encode it) under any scheme or none, with any whitespace around it — a target that accepts another
 * scheme does what the reading calls an advisory finding (ADV-SCHEME), and then serves that key's records. Undefined
 * for no credential, a made-up one, a mutated key, more than the key, or the key glued to its scheme. The watcher
 * (core/run/watch.ts) uses it to know whose records an answer may show; presentedKeySlot is the strict Bearer form.
 */
export function keyTakenFor(auth: Auth): KeySlot | undefined {
  if (auth.kind !== 'key' || auth.around || (auth.mutation && !auth.mutation.encodes)) return undefined;
  if (auth.scheme !== '' && !WHITESPACE.test(auth.gap ?? ' ')) return undefined;
  const edge = (s: string | undefined) => s === undefined || s === '' || WHITESPACE.test(s);
  return edge(auth.lead) && edge(auth.trail) ? auth.slot : undefined;
}

/** The keys that are valid as issued; revoked and rotated-out keys are refused (§7). */
export const VALID_SLOTS: readonly KeySlot[] = ['test', 'live', 'restricted'];

/**
 * The key formats of §2 (`sk_[ENVIRONMENT]_[RANDOM_HASH]`): a string matching the pattern of the key schema's `$defs`
 * entry (as ajv matches patterns, with the `u` flag). tests/unit/schemas.test.ts holds ajv to the same.
 */
const keyFormat = (def: { type: string; pattern: string }) => {
  const re = new RegExp(def.pattern, 'u');
  return (s: unknown) => typeof s === 'string' && re.test(s);
};
const testKeyFormat = keyFormat(apiKeySchema.$defs.testKey);
const liveKeyFormat = keyFormat(apiKeySchema.$defs.liveKey);

/** True when `s` has the sandbox key format `sk_test_<secret>`. */
export const isTestKey = (s: unknown): boolean => testKeyFormat(s);

/** True when `s` has the live key format `sk_live_<secret>`. */
export const isLiveKey = (s: unknown): boolean => liveKeyFormat(s);

/** Which key format each slot must have (CFG-KEYS). Restricted, revoked and old keys may be of either mode. */
const SLOT_FORMAT: Record<KeySlot, 'test' | 'live' | 'any'> = {
  test: 'test',
  live: 'live',
  restricted: 'any',
  revoked: 'any',
  old: 'any',
};

const WANT = { test: 'sk_test_<hash>', live: 'sk_live_<hash>', any: 'sk_test_<hash> or sk_live_<hash>' } as const;

interface KeyFormatProblem {
  variable: string;
  /** The format the slot needs, e.g. `sk_live_<hash>`. */
  want: string;
}

/**
 * The configured keys that lack the format of their slot (CFG-KEYS): the config loader refuses a run for them, and the
 * check of checks/keys.ts judges the keys a target announced by the same function. Named by variable, never by value.
 */
export function keyFormatProblems(keys: Partial<Record<KeySlot, string>>): KeyFormatProblem[] {
  const problems: KeyFormatProblem[] = [];
  for (const slot of Object.keys(SLOT_FORMAT) as KeySlot[]) {
    const value = keys[slot];
    if (value === undefined) continue;
    const format = SLOT_FORMAT[slot];
    const ok =
      format === 'test'
        ? isTestKey(value)
        : format === 'live'
          ? isLiveKey(value)
          : isTestKey(value) || isLiveKey(value);
    if (!ok) problems.push({ variable: KEY_VARS[slot], want: WANT[format] });
  }
  return problems;
}

/** The mode a key works in, by its prefix (§2): `sk_live_` live, anything else test. */
export const modeOfKey = (key: string | undefined): 'test' | 'live' => (/^sk_live_/.test(key ?? '') ? 'live' : 'test');
