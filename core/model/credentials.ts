/**
 * Credentials as the suite writes them, without their secrets: which configured key (by its slot, never its value),
 * under which scheme and spacing, possibly tampered with. A request carries an `Auth`; reports show its label
 * (`Authorization: Bearer $API_TEST_KEY`) and the variable, never the key.
 */

/** The configured keys, by the role they play. */
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

export type Auth =
  | { kind: 'none' }
  /** A configured key, possibly mutated, after `scheme` (default `Bearer`; '' = a bare key) and `gap` (default ' '). */
  | { kind: 'key'; slot: KeySlot; scheme?: string; gap?: string; mutation?: KeyMutation }
  /** A made-up credential that is not a secret of the user's (e.g. `Bearer not-a-key`). */
  | { kind: 'literal'; header: string };

export const NO_AUTH: Auth = { kind: 'none' };

export const asKey = (
  slot: KeySlot,
  extra: Partial<Omit<Extract<Auth, { kind: 'key' }>, 'kind' | 'slot'>> = {},
): Auth => ({ kind: 'key', slot, ...extra });

/** What precedes the key in the header: `Bearer `, `bearer  ` (two spaces), or nothing for a bare key. */
export function schemePart(auth: Extract<Auth, { kind: 'key' }>): string {
  const scheme = auth.scheme ?? 'Bearer';
  return scheme === '' ? '' : `${scheme}${auth.gap ?? ' '}`;
}

/** How a request authenticated, in words and without the secret: `Authorization: Bearer $API_TEST_KEY`. */
export function authLabel(auth: Auth): string {
  if (auth.kind === 'none') return 'no Authorization header';
  if (auth.kind === 'literal') return `Authorization: ${auth.header}`;
  const ref = `$${KEY_VARS[auth.slot]}`;
  const value = auth.mutation ? `${ref} ${auth.mutation.name}` : ref;
  if (auth.scheme === '') return `Authorization: ${value} (no scheme)`;
  const gap = auth.gap ?? ' ';
  return `Authorization: ${schemePart(auth)}${value}${gap === ' ' ? '' : ` (${gap.length} spaces after the scheme)`}`;
}

/** Length of the `sk_test_` / `sk_live_` prefix (0 for a key without one). */
export function prefixLength(key: string): number {
  return /^sk_(?:test|live)_/.exec(key)?.[0].length ?? 0;
}

/**
 * The configured key a request presents, as a target may take it: the key exactly (or only re-encoded), whatever the
 * scheme's spelling; undefined for no credential, a made-up one, or a key changed into another credential.
 */
export function presentedKeySlot(auth: Auth): KeySlot | undefined {
  if (auth.kind !== 'key') return undefined;
  return auth.mutation === undefined || auth.mutation.encodes ? auth.slot : undefined;
}

/** The mode a key works in, by its prefix (§2): `sk_live_` live, anything else test. */
export const modeOfKey = (key: string | undefined): 'test' | 'live' => (/^sk_live_/.test(key ?? '') ? 'live' : 'test');
