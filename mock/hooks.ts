/**
 * What the hooks of every stage share: the request as hooks see it, the shape of one stage's hook lists, and how a
 * list of hooks is asked. Each stage declares its own hook interface (`RouteHooks` in routes.ts, `AuthHooks` in
 * auth.ts, …) and receives only its own lists; switchboard.ts composes them. This module imports no other.
 *
 * The clean pipeline decides first; each hook then sees that decision and may rewrite it. With no fault active
 * every list is empty and the pipeline runs unchanged.
 */

/** The endpoints a request-target can name (routes.ts: `Route`). */
export type RouteKind = 'status' | 'list' | 'unknown';

/** What hooks know about the request itself, filled in as the pass goes. */
export interface RequestFacts {
  /** The request's method, as sent (`GET`, `HEAD`, `OPTIONS`, …). */
  method: string;
  /** The request-target's path, as sent (not decoded). */
  path: string;
  /** The raw query string, without `?`. */
  search: string;
  route: RouteKind;
  /** The key as presented (never sent back by the clean mock). */
  presented: string | undefined;
  /** The request's Content-Type header, as sent. */
  contentType?: string;
  /** Every header of the request, as Node parsed them (lower-case names); faults read what a clean mock ignores. */
  headers?: Readonly<Record<string, string | string[] | undefined>>;
  /** The collection other than payments whose path it names (collections.ts), if any. */
  collection?: string;
}

/** One stage's hooks, compiled: per hook point of `H`, the active faults' hooks in catalogue order. */
export type Board<H> = { readonly [P in keyof H]-?: readonly NonNullable<H[P]>[] };

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
