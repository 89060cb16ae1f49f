/**
 * The one judgment of whether the data changed under a check: the same request, asked again. A shared sandbox gains
 * payments while a check reads it; an API may also answer two different queries of one set with different totals
 * (a fault of PAG-TOTAL). The two look alike from one pair of reads and differ on a second look: the same request
 * answering differently is a change over time (DataChanged, the check is read again once, then inconclusive); the
 * same requests answering as before is the API's own answer, which the check's rule judges.
 */
import type { ApiClient } from '../client/http.ts';
import type { Exchange } from '../model/exchange.ts';
import { readEnvelope } from '../model/listing.ts';
import type { CheckContext } from './check.ts';

/** Thrown when the same request answers differently over time (a shared sandbox gaining payments). */
export class DataChanged extends Error {
  constructor(what: string) {
    super(`the data changed while the check ran: ${what}`);
    this.name = 'DataChanged';
  }
}

const totalOf = (e: Exchange) => readEnvelope(e)?.total;
const requestOf = (e: Exchange) => `GET ${e.url.replace(/^[a-z]+:\/\/[^/]+/i, '')} (${e.authLabel})`;

/** The same request again: the path, query and credential of `e`. */
function askAgain(api: Pick<ApiClient, 'get'>, e: Exchange): Promise<Exchange> {
  return api.get(e.path, { query: e.query, auth: e.auth });
}

/** DataChanged when `again` (the same request) reports another total than `first`. */
function moved(first: Exchange, again: Exchange): DataChanged | undefined {
  const [before, after] = [totalOf(first), totalOf(again)];
  if (before === undefined || after === undefined || before === after) return undefined;
  return new DataChanged(`${requestOf(first)} answered total ${before}, then ${after}`);
}

/**
 * Two reads of one set that report different totals: each request is asked again. Throws DataChanged when either
 * answers another total than it did (a change over time); returns when both repeat themselves (the total depends on
 * the query: the API's answer, for the check's rule — PAG-TOTAL's checks fail on it — to judge).
 */
export async function sameData(ctx: Pick<CheckContext, 'api'>, first: Exchange, other: Exchange): Promise<void> {
  if (totalOf(first) === totalOf(other)) return;
  for (const e of [first, other]) {
    const change = moved(e, await askAgain(ctx.api, e));
    if (change) throw change;
  }
}

/**
 * A read that saw the data move (`sameData` threw): on a check's second attempt (`ctx.growth`) the read goes on and
 * the change is kept, since what growth cannot explain is still judged (Violation.standsUnderGrowth); else it throws.
 */
export function readOnThrough(ctx: Pick<CheckContext, 'growth'>, error: unknown): void {
  if (!(error instanceof DataChanged) || !ctx.growth) throw error;
  ctx.growth.moved ??= error;
}

/** Reads of one set (one path, filter, sort and credential), whatever the window. */
function setOf(e: Exchange): string {
  const selection = e.query.filter(([name]) => name !== 'offset' && name !== 'limit');
  return `${e.path} ${JSON.stringify(selection)} ${e.authLabel}`;
}

/** At most this many sets are read again before a violation stands. */
const MAX_ASKED_AGAIN = 12;

/**
 * Before a violation stands: the first read of each set the check read is asked again. The first that answers
 * another total makes the check's reads stale: DataChanged, naming the request. Undefined when nothing moved.
 */
export async function dataChangedUnder(
  ctx: Pick<CheckContext, 'api'>,
  reads: readonly Exchange[],
): Promise<DataChanged | undefined> {
  const firsts = new Map<string, Exchange>();
  for (const e of reads) if (totalOf(e) !== undefined && !firsts.has(setOf(e))) firsts.set(setOf(e), e);
  for (const e of [...firsts.values()].slice(0, MAX_ASKED_AGAIN)) {
    const change = moved(e, await askAgain(ctx.api, e));
    if (change) return change;
  }
  return undefined;
}
