/**
 * A rate-limited, distant mock: a thin wrapper around the request handler (server.ts) that holds every request for
 * `latencyMs` (a target that far away) and then allows `rateLimit` requests in any 1-second window. Beyond it, the
 * request is answered 429 Too Many Requests with Retry-After (whole seconds until the window has room again); every
 * answer carries the limit as the IETF draft writes it: `RateLimit-Policy: "default";q=N;w=1` and
 * `RateLimit: "default";r=<left>;t=<seconds to reset>`. The rest of the mock never sees a refused request.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

export interface ThrottleOptions {
  /** Requests allowed in any 1-second window; beyond that, 429. Unset or 0: no limit. */
  rateLimit?: number;
  /** Each request is held this long before it is handled (a target this far away). */
  latencyMs?: number;
}

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

const WINDOW_MS = 1000;

export function throttle(handle: Handler, opts: ThrottleOptions): Handler {
  const limit = opts.rateLimit ?? 0;
  const latency = opts.latencyMs ?? 0;
  if (limit <= 0 && latency <= 0) return handle;
  /** Arrival times of the requests allowed in the last window, oldest first. */
  const allowed: number[] = [];
  const serve = (req: IncomingMessage, res: ServerResponse) => {
    if (limit <= 0) return handle(req, res);
    const now = performance.now();
    while (allowed.length > 0 && (allowed[0] as number) <= now - WINDOW_MS) allowed.shift();
    const reset = allowed.length > 0 ? Math.max(1, Math.ceil(((allowed[0] as number) + WINDOW_MS - now) / 1000)) : 1;
    res.setHeader('RateLimit-Policy', `"default";q=${limit};w=${WINDOW_MS / 1000}`);
    if (allowed.length >= limit) {
      req.resume();
      res.on('error', () => {});
      res.setHeader('RateLimit', `"default";r=0;t=${reset}`);
      res.writeHead(429, { 'content-type': 'application/json', 'retry-after': String(reset) });
      res.end('{"success":false,"message":"Too many requests"}');
      return;
    }
    allowed.push(now);
    res.setHeader('RateLimit', `"default";r=${limit - allowed.length};t=${reset}`);
    handle(req, res);
  };
  return latency > 0 ? (req, res) => void setTimeout(() => serve(req, res), latency) : serve;
}
