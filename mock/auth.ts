/**
 * Keys and authentication (§5, reading "Keys, modes, merchants").
 * A key is valid only as the exact string issued; a revoked key is known but refused.
 */
import type { Mode } from './data.ts';
import { type Failure, MESSAGES, reject } from './errors.ts';
import { firstAnswer, type Switchboard } from './hooks.ts';
import type { Route } from './routes.ts';
import { TARGET } from './target.ts';

export type Permission = 'merchant:status' | 'payments:read';
export const ALL_PERMISSIONS: readonly Permission[] = ['merchant:status', 'payments:read'];

export type KeySlot = keyof typeof TARGET.keys;

export interface KeyRecord {
  slot: KeySlot;
  secret: string;
  mode: Mode;
  permissions: Permission[];
  revoked: boolean;
}

export interface KeyTable {
  readonly all: readonly KeyRecord[];
  slot(slot: KeySlot): KeyRecord;
  /** Exact string equality only. */
  exact(secret: string): KeyRecord | undefined;
}

/** The issued keys: test and live with every permission, restricted without payments:read, revoked refused. */
export function issueKeys(board: Switchboard): KeyTable {
  const all: KeyRecord[] = [
    { slot: 'test', secret: TARGET.keys.test, mode: 'test', permissions: [...ALL_PERMISSIONS], revoked: false },
    { slot: 'live', secret: TARGET.keys.live, mode: 'live', permissions: [...ALL_PERMISSIONS], revoked: false },
    {
      slot: 'restricted',
      secret: TARGET.keys.restricted,
      mode: 'test',
      permissions: ['merchant:status'],
      revoked: false,
    },
    { slot: 'revoked', secret: TARGET.keys.revoked, mode: 'test', permissions: [...ALL_PERMISSIONS], revoked: true },
  ];
  for (const patch of board.keys) patch(all);
  const bySecret = new Map(all.map((k) => [k.secret, k]));
  return {
    all,
    slot: (slot) => all.find((k) => k.slot === slot) as KeyRecord,
    exact: (secret) => bySecret.get(secret),
  };
}

/** An Authorization header split into scheme and credentials; a header without a space is a bare token. */
export interface Credentials {
  scheme: string;
  token: string;
}

export function splitCredentials(header: string): Credentials {
  const trimmed = header.trim();
  const space = trimmed.search(/[ \t]/);
  if (space < 0) return { scheme: '', token: trimmed };
  return { scheme: trimmed.slice(0, space), token: trimmed.slice(space).trim() };
}

export type AuthResult =
  | { key: KeyRecord; presented: string | undefined }
  | { key: undefined; failure: Failure; presented: string | undefined };

/** `Authorization: Bearer <key>` (scheme case-insensitive, RFC 9110 §11.1) → the key record, or a 401. */
export function authenticate(
  table: KeyTable,
  board: Switchboard,
  header: string | undefined,
  route: Route,
): AuthResult {
  if (header === undefined || header.trim() === '') {
    if (board.missingKey.some((allows) => allows(route))) return { key: table.slot('test'), presented: undefined };
    return { key: undefined, failure: reject(401, MESSAGES.missingKey), presented: undefined };
  }
  const credentials = splitCredentials(header);
  const presented = credentials.token;
  const bearer = credentials.scheme.toLowerCase() === 'bearer' && !/\s/.test(presented);
  const token = bearer ? presented : firstAnswer(board.credentials, credentials);
  if (token === undefined) return { key: undefined, failure: reject(401, MESSAGES.invalidKey), presented };
  const key = table.exact(token) ?? firstAnswer(board.matchKey, token, table.all);
  if (!key) return { key: undefined, failure: reject(401, MESSAGES.invalidKey), presented };
  if (key.revoked) return { key: undefined, failure: reject(401, MESSAGES.revokedKey), presented };
  return { key, presented };
}

/**
 * How a request authenticated, for a recorder (MockOptions.onRequest): `none`, or the scheme (`bare` for none)
 * and the slot of the issued key it carried (`other` for anything not issued). Never the key itself.
 */
export function describeCredentials(table: KeyTable, header: string | undefined): string {
  if (header === undefined || header.trim() === '') return 'none';
  const { scheme, token } = splitCredentials(header);
  return `${scheme || 'bare'} ${table.exact(token)?.slot ?? 'other'}`;
}
