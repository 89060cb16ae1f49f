/**
 * A result set: the records of one listing read page by page at one limit (offsets 0, L, 2L, …), with the pages they
 * came from. A whole set is read at limit 100; a check may read a prefix of a large set at a smaller limit.
 */
import type { Exchange } from './exchange.ts';
import { type Listing, readEnvelope } from './listing.ts';

/** One page of a read: the offset it was asked for and the answer. */
export interface Page {
  offset: number;
  exchange: Exchange;
}

export interface ResultSet {
  listing: Listing;
  limit: number;
  pages: Page[];
  /** The records of every page, concatenated. */
  records: unknown[];
  total: number;
  /** False when the read stopped before `total` (a page cap, or API_MAX_RECORDS). */
  complete: boolean;
}

/** The page of a set holding record `index` of the concatenation, and that page's first index. */
export function pageHolding(set: Pick<ResultSet, 'pages'>, index: number): { page: Page | undefined; start: number } {
  let start = 0;
  for (const page of set.pages) {
    const size = readEnvelope(page.exchange)?.data.length ?? 0;
    if (index < start + size) return { page, start };
    start += size;
  }
  return { page: set.pages.at(-1), start };
}
