/**
 * Keys and authentication (§5, reading "Keys, modes, merchants").
 * A key is valid only as the exact string issued; a revoked key is known but refused.
 */
import type { Mode } from './data.ts';
import { type Failure, MESSAGES, reject } from './errors.ts';
import { type Board, firstAnswer, type RequestFacts } from './hooks.ts';
import { IDENTITY } from './identity.ts';
import type { Route } from './routes.ts';
import type { Store } from './store.ts';
import type { Variants } from './variants.ts';

type Permission = 'merchant:status' | 'payments:read';
const ALL_PERMISSIONS: readonly Permission[] = ['merchant:status', 'payments:read'];

type KeySlot = keyof typeof IDENTITY.keys;

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

/** Where faults hook into the issued keys and authentication, in the order they are asked. */
export interface AuthHooks {
  /** Start: patch the issued keys. */
  keys?(keys: KeyRecord[]): void;
  /** Before auth: answer early (e.g. reveal an unknown merchant before checking the key); asked by server.ts. */
  beforeAuth?(route: Route, store: Store, request: RequestFacts): Failure | undefined;
  /** Whether the request skips authentication (a route without the auth middleware): served as the test key. */
  unguarded?(request: RequestFacts): boolean;
  /** Whether a request without Authorization passes as the test key. */
  missingKey?(route: Route): boolean;
  /** A key a request without Authorization is taken for, from what else it carries (another header, a cookie). */
  alternateKey?(request: RequestFacts, keys: readonly KeyRecord[]): KeyRecord | undefined;
  /** A token from credentials that are not `Bearer <token>`. */
  credentials?(credentials: Credentials): string | undefined;
  /** A key for a token that matched no key exactly. */
  matchKey?(token: string, keys: readonly KeyRecord[]): KeyRecord | undefined;
  /** Rewrite the authentication decision for presented credentials. */
  auth?(check: AuthCheck, request: RequestFacts): void;
}

/** The issued keys: test and live with every permission, restricted without payments:read, revoked refused. */
export function issueKeys(board: Board<AuthHooks>): KeyTable {
  const all: KeyRecord[] = [
    { slot: 'test', secret: IDENTITY.keys.test, mode: 'test', permissions: [...ALL_PERMISSIONS], revoked: false },
    { slot: 'live', secret: IDENTITY.keys.live, mode: 'live', permissions: [...ALL_PERMISSIONS], revoked: false },
    {
      slot: 'restricted',
      secret: IDENTITY.keys.restricted,
      mode: 'test',
      permissions: ['merchant:status'],
      revoked: false,
    },
    { slot: 'revoked', secret: IDENTITY.keys.revoked, mode: 'test', permissions: [...ALL_PERMISSIONS], revoked: true },
  ];
  for (const patch of board.keys) patch(all);
  const bySecret = new Map(all.map((k) => [k.secret, k]));
  return {
    all,
    slot: (slot) => all.find((k) => k.slot === slot) as KeyRecord,
    exact: (secret) => bySecret.get(secret),
  };
}

/**
 * An Authorization header split into scheme and credentials; a header without a space is a bare token.
 * `gap` is the whitespace between the two, as sent.
 */
interface Credentials {
  scheme: string;
  gap: string;
  token: string;
}

export function splitCredentials(header: string): Credentials {
  const trimmed = header.trim();
  const gap = /[ \t]+/.exec(trimmed);
  if (!gap) return { scheme: '', gap: '', token: trimmed };
  return { scheme: trimmed.slice(0, gap.index), gap: gap[0], token: trimmed.slice(gap.index).trim() };
}

/** The decision for presented credentials: the key they name (a revoked one too), or why not. Faults may rewrite it. */
interface AuthCheck {
  credentials: Credentials;
  key: KeyRecord | undefined;
  failure: Failure | undefined;
}

type AuthResult =
  | { key: KeyRecord; presented: string | undefined }
  | { key: undefined; failure: Failure; presented: string | undefined };

/** How the header's spelling is read: the variants `spacing` and `scheme`. */
type Spelling = Pick<Variants, 'spacing' | 'scheme'>;

/**
 * `Authorization: Bearer <key>` (scheme case-insensitive, RFC 9110 §11.1, or exactly "Bearer" under scheme=exact;
 * one or more spaces or tabs before the key, or exactly one space under spacing=strict) → the key record, or a 401.
 */
export function authenticate(
  table: KeyTable,
  board: Board<AuthHooks>,
  spelling: Spelling,
  header: string | undefined,
  route: Route,
  request: RequestFacts,
): AuthResult {
  if (board.unguarded.some((skips) => skips(request))) return { key: table.slot('test'), presented: undefined };
  if (header === undefined || header.trim() === '') {
    if (board.missingKey.some((allows) => allows(route))) return { key: table.slot('test'), presented: undefined };
    const other = firstAnswer(board.alternateKey, request, table.all);
    if (other && !other.revoked) return { key: other, presented: undefined };
    return { key: undefined, failure: reject(401, MESSAGES.missingKey), presented: undefined };
  }
  const credentials = splitCredentials(header);
  const presented = credentials.token;
  const check: AuthCheck = { credentials, key: undefined, failure: undefined };
  const spaced = spelling.spacing === 'lenient' || credentials.gap === ' ';
  const named =
    spelling.scheme === 'exact' ? credentials.scheme === 'Bearer' : credentials.scheme.toLowerCase() === 'bearer';
  const bearer = named && spaced && !/\s/.test(presented);
  const token = bearer ? presented : firstAnswer(board.credentials, credentials);
  if (token !== undefined) check.key = table.exact(token) ?? firstAnswer(board.matchKey, token, table.all);
  if (!check.key) check.failure = reject(401, MESSAGES.invalidKey);
  else if (check.key.revoked) check.failure = reject(401, MESSAGES.revokedKey);
  for (const rewrite of board.auth) rewrite(check, request);
  if (check.failure || !check.key) {
    return { key: undefined, failure: check.failure ?? reject(401, MESSAGES.invalidKey), presented };
  }
  return { key: check.key, presented };
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
