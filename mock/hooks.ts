/**
 * The fixed points where faults may deviate, in the order a request meets them.
 * The clean pipeline decides first; each hook then sees that decision and may rewrite it.
 * With no fault active every list is empty and the pipeline runs unchanged.
 */

import type { AuthCheck, Credentials, KeyRecord } from './auth.ts';
import type { Access, PermissionCheck } from './authorize.ts';
import type { Status } from './data.ts';
import type { Failure } from './errors.ts';
import type { Param, ParsedQuery, QuerySettings } from './params.ts';
import type { Echo, PageFacts, Plan, QueryContext, Slice } from './query.ts';
import type { Route, RouteKind } from './routes.ts';
import type { Row, Store } from './store.ts';

/** What hooks know about the request itself, filled in as the pass goes. */
export interface RequestFacts {
  /** The request-target's path, as sent (not decoded). */
  path: string;
  /** The raw query string, without `?`. */
  search: string;
  route: RouteKind;
  /** The key as presented (never sent back by the clean mock). */
  presented: string | undefined;
}

export interface FaultHooks {
  /** Start: patch the issued keys. */
  keys?(keys: KeyRecord[]): void;
  /** Start: patch query settings (default limit, cap, over-limit answer). */
  settings?(settings: QuerySettings): void;
  /** Routing: the endpoint a faulty router finds for the path (undefined = the clean router's). */
  route?(route: Route, request: RequestFacts): Route | undefined;
  /** Before auth: answer early (e.g. reveal an unknown merchant before checking the key). */
  beforeAuth?(route: Route, store: Store, request: RequestFacts): Failure | undefined;
  /** Auth: whether the request skips authentication (a route without the auth middleware): served as the test key. */
  unguarded?(request: RequestFacts): boolean;
  /** Auth: whether a request without Authorization passes as the test key. */
  missingKey?(route: Route): boolean;
  /** Auth: a token from credentials that are not `Bearer <token>`. */
  credentials?(credentials: Credentials): string | undefined;
  /** Auth: a key for a token that matched no key exactly. */
  matchKey?(token: string, keys: readonly KeyRecord[]): KeyRecord | undefined;
  /** Auth: rewrite the authentication decision for presented credentials. */
  auth?(check: AuthCheck, request: RequestFacts): void;
  /** Merchant: rewrite the access decision. */
  access?(access: Access, request: RequestFacts): void;
  /** Permission: rewrite the permission decision. */
  permission?(check: PermissionCheck, request: RequestFacts): void;
  /** Params: inspect each query value before validation: a failure refuses the request; may throw. */
  queryValue?(name: string, value: string): Failure | undefined;
  /** Params: whether a repeated parameter is accepted (its first value is the one validated). */
  repeated?(param: Param): boolean;
  /** Params: a value for an offset/limit that failed clean parsing (undefined = still invalid); may throw. */
  oddParam?(name: 'offset' | 'limit', raw: string): number | undefined;
  /** Params: a status for a filter[status] value that names none exactly (undefined = unknown status). */
  oddStatus?(raw: string): Status | undefined;
  /** Params: rewrite the validated query (what the query layer reads from the raw query string). */
  query?(query: ParsedQuery, search: string): void;
  /** Query: rewrite which precomputed list serves the page and which counts the total. */
  plan?(plan: Plan, context: QueryContext): void;
  /** Query: replace the list that serves the page (a fault's own ordering, computed once and memoised). */
  rows?(rows: readonly Row[], plan: Plan, context: QueryContext): readonly Row[] | undefined;
  /** Query: move the slice of the list that becomes the page. */
  slice?(slice: Slice, facts: PageFacts): void;
  /** Query: rewrite the rows of the page after slicing. */
  page?(data: readonly Row[], facts: PageFacts): readonly Row[] | undefined;
  /** Envelope numbers: rewrite offset, limit, total. */
  echo?(echo: Echo, facts: PageFacts): void;
  /** Rendering: rewrite a 200 body (listing or status). */
  body?(body: Record<string, unknown>, facts: RequestFacts): void;
  /** Rendering: rewrite a failure before its body is built. */
  error?(failure: Failure, facts: RequestFacts): void;
  /** Rendering: add or change response headers. */
  headers?(headers: Record<string, string | number>, facts: RequestFacts): void;
}

export type HookPoint = keyof FaultHooks;
export type Switchboard = { readonly [P in HookPoint]-?: readonly NonNullable<FaultHooks[P]>[] };

/** The stages of one request pass (server.ts), in order; `start` runs once when the mock starts. */
export const STAGES = ['start', 'route', 'auth', 'access', 'params', 'query', 'render'] as const;
export type Stage = (typeof STAGES)[number];

/**
 * Every hook point with its stage, in the order a request meets them. Typed against FaultHooks, so a hook
 * point missing here (or named here but not in FaultHooks) fails the typecheck.
 */
export const HOOK_STAGES = {
  keys: 'start',
  settings: 'start',
  route: 'route',
  beforeAuth: 'auth',
  unguarded: 'auth',
  missingKey: 'auth',
  credentials: 'auth',
  matchKey: 'auth',
  auth: 'auth',
  access: 'access',
  permission: 'access',
  queryValue: 'params',
  repeated: 'params',
  oddParam: 'params',
  oddStatus: 'params',
  query: 'params',
  plan: 'query',
  rows: 'query',
  slice: 'query',
  page: 'query',
  echo: 'query',
  body: 'render',
  error: 'render',
  headers: 'render',
} as const satisfies Record<HookPoint, Stage>;

/** The hook points in request order (the key order of HOOK_STAGES). */
export const HOOK_POINTS = Object.keys(HOOK_STAGES) as readonly HookPoint[];

/** Collects the hooks of the active faults per point, in catalogue order. */
export function compileHooks(active: readonly FaultHooks[]): Switchboard {
  const board: Record<string, unknown[]> = {};
  for (const point of HOOK_POINTS) {
    board[point] = active.flatMap((hooks) => {
      const hook = hooks[point];
      return hook === undefined ? [] : [hook];
    });
  }
  return board as unknown as Switchboard;
}

/** The first defined answer of a list of hooks, asked in order with the same arguments. */
export function firstAnswer<A extends unknown[], T>(
  hooks: readonly ((...args: A) => T | undefined)[],
  ...args: A
): T | undefined {
  for (const hook of hooks) {
    const answer = hook(...args);
    if (answer !== undefined) return answer;
  }
  return undefined;
}
