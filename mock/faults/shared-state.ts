/**
 * Faults of state shared between concurrent requests: a handler that awaits its data source while a request-scoped
 * value waits in module state, which the next request overwrites (arrival.ts). Alone, every request is answered
 * right; only a request in flight while another arrives is answered as what the other left there.
 */
import type { Arriving } from '../arrival.ts';
import type { FaultHooks } from '../switchboard.ts';
import { fault } from './fault.ts';

/** A data source's answer time: how long each request is held. */
const HOLD_MS = 15;

/** The merchant id segment of a payments listing's request-target, and the target around it. */
const LISTING = /^(.*\/payments\/n1\/merchant\/)([^/?#]+)(\/payments(?:[?#].*)?)$/;

/** What the response cache of `cache-keyed-by-url` holds: by request-target, the key a 200 went to, and when. */
const cached = new Map<string, { key: string; at: number }>();
/** How long it keeps an answer. */
const CACHE_MS = 60_000;
const targetOf = (f: { path: string; search: string }) => `${f.path}?${f.search}`;

/** The last request of `list` that `test` picks: what the module state holds once they all arrived. */
const lastOf = (list: readonly Arriving[], test: (r: Arriving) => boolean) => [...list].reverse().find(test);

/**
 * The hooks of a fault that holds every request and answers a listing held while other listings arrived at the target
 * `as` gives from its own (matched by LISTING) and the last listing that arrived; undefined: as it arrived.
 */
const heldListing = (as: (own: RegExpExecArray, last: Arriving) => string | undefined): FaultHooks => ({
  held: {
    holdMs: HOLD_MS,
    answerAs: (self, later) => {
      const own = LISTING.exec(self.url);
      const last = lastOf(later, (r) => LISTING.test(r.url));
      const url = own && last ? as(own, last) : undefined;
      return url === undefined ? undefined : { url };
    },
  },
});

export const SHARED_STATE_FAULTS = [
  fault(
    'principal-in-shared-state',
    'AUTH-FORBIDDEN',
    "the permission and mode checks read the principal from module state, which every request that carries Authorization sets on arrival, after awaiting the data source: a request in flight while another key's arrives is judged as that key (the restricted key, held while a test-key request arrives, lists payments)",
    {
      held: {
        holdMs: HOLD_MS,
        answerAs: (self, later) => {
          if (self.authorization === undefined) return undefined;
          const last = lastOf(later, (r) => r.authorization !== undefined);
          return last && last.authorization !== self.authorization ? { authorization: last.authorization } : undefined;
        },
      },
    },
  ),
  fault(
    'query-in-shared-state',
    'PAG-ECHO',
    "the listing's parameters (offset, limit, filter, sort) go into a query builder shared by every request, which each listing request fills on arrival, run after awaiting the data source: a listing in flight while another arrives is answered, echo and all, with the other's parameters on its own merchant",
    heldListing((own, last) => {
      const query = (url: string) => url.slice(url.indexOf('?') + 1 || url.length);
      if (query(last.url) === query(own[0])) return undefined;
      const path = own[0].split('?')[0] as string;
      return query(last.url) ? `${path}?${query(last.url)}` : path;
    }),
  ),
  fault(
    'cache-keyed-by-url',
    'AUTH-MISSING',
    'a response cache in front of the listings keyed by the request-target alone (no Vary: Authorization): a GET whose target a valid key was answered 200 within the last minute is answered the same without Authorization',
    {
      headers: (_h, f, status) => {
        if (status === 200 && f.method === 'GET' && f.route === 'list' && f.presented)
          cached.set(targetOf(f), { key: f.presented, at: Date.now() });
      },
      alternateKey: (r, keys) => {
        const hit = r.method === 'GET' ? cached.get(targetOf(r)) : undefined;
        return hit && Date.now() - hit.at < CACHE_MS ? keys.find((k) => k.secret === hit.key) : undefined;
      },
    },
  ),
  fault(
    'merchant-in-shared-state',
    'MER-ISOLATION',
    "the listing's data query reads the merchant id from module state, which every listing request sets on arrival, after awaiting the data source: a listing in flight while another merchant's arrives is served that merchant's payments",
    heldListing((own, last) => {
      const other = LISTING.exec(last.url)?.[2];
      return other && other !== own[2] ? `${own[1]}${other}${own[3]}` : undefined;
    }),
  ),
];
