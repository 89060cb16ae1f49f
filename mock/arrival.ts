/**
 * Arrival: what a request shares with the others in flight. The clean mock answers each request on its own, at once;
 * a handler that awaits its data source with a request-scoped value kept in module state (the principal the auth
 * middleware found, the merchant the router read) answers a request with what the latest arrival left there. A fault
 * hooks here to hold requests that long and to say what each is then answered as (server.ts runs it first).
 */

/** A request as it arrived: what a fault may read and rewrite of it. */
export interface Arriving {
  readonly method: string;
  /** The request-target as sent (path and query). */
  readonly url: string;
  readonly authorization: string | undefined;
}

/** A request held while others arrive, and answered as what they left in the state it shares with them. */
export interface HeldRequests {
  /** How long each request is held before it is answered (a data source's answer time). */
  holdMs: number;
  /**
   * What a request is answered as once it was held: `later` arrived while it was, in order. Undefined: as it arrived.
   */
  answerAs: (self: Arriving, later: readonly Arriving[]) => Partial<Arriving> | undefined;
}

export interface ArrivalHooks {
  held?: HeldRequests;
}
