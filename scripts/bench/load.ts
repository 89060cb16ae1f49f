/**
 * One autocannon load on one endpoint. The options object carries the Authorization header (the mock's
 * test key): it is built here, handed to autocannon, and never logged, returned or written anywhere.
 */
import autocannon from 'autocannon';
import { redact } from '../../fixtures/secrets.ts';

export interface LoadSpec {
  /** Base URL of the server, e.g. http://127.0.0.1:4123 */
  baseUrl: string;
  /** Path and query, e.g. /payments/n1/merchant/msb_…/payments?limit=10 (no secret in it). */
  path: string;
  connections: number;
  seconds: number;
}

export interface LoadResult {
  path: string;
  connections: number;
  seconds: number;
  /** Mean of autocannon's per-second samples. */
  requestsPerSecond: number;
  /** Completed requests / measured duration: a cross-check of the mean. */
  requestsPerSecondOverall: number;
  requests: number;
  latencyMs: { p50: number; p90: number; p99: number; max: number };
  non2xx: number;
  errors: number;
  timeouts: number;
  /** Response status → count. */
  statusCodes: Record<string, number>;
}

let current: autocannon.Instance | undefined;

/** Stops the load in progress, if any (on SIGINT). */
export function stopCurrentLoad(): void {
  current?.stop();
}

/** Runs the load; `authorization` is the header's value and goes nowhere but into the request. */
export async function runLoad(spec: LoadSpec, authorization: string): Promise<LoadResult> {
  let result: autocannon.Result;
  try {
    current = autocannon({
      url: `${spec.baseUrl}${spec.path}`,
      method: 'GET',
      connections: spec.connections,
      duration: spec.seconds,
      headers: { authorization },
    });
    result = await current;
  } catch (error) {
    // Never rethrow autocannon's own error: it could quote the options.
    throw new Error(`autocannon failed: ${redact(error instanceof Error ? error.message : String(error))}`);
  } finally {
    current = undefined;
  }
  const statusCodes = Object.fromEntries(Object.entries(result.statusCodeStats).map(([code, s]) => [code, s.count]));
  const completed = result.requests.total ?? Object.values(statusCodes).reduce((n, c) => n + c, 0);
  return {
    path: spec.path,
    connections: spec.connections,
    seconds: spec.seconds,
    requestsPerSecond: result.requests.mean,
    requestsPerSecondOverall: result.duration > 0 ? round(completed / result.duration, 1) : 0,
    requests: completed,
    latencyMs: { p50: result.latency.p50, p90: result.latency.p90, p99: result.latency.p99, max: result.latency.max },
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    statusCodes,
  };
}

export function round(value: number, digits = 2): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}
