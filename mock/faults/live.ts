/**
 * Faults of the live merchant's listings (§4.2 on the live data): one code path, the live one, forgets what the
 * sandbox path does, so a suite that walks only the sandbox listing misses them.
 */
import type { Access } from '../authorize.ts';
import { listingKey } from '../data.ts';
import { type Fault, fault } from './fault.ts';

const onLiveMerchant = (a: Access) => a.merchant?.kind === 'live';
const liveKeyOnLive = (a: Access) => onLiveMerchant(a) && a.mode === 'live';

export const LIVE_FAULTS: readonly Fault[] = [
  fault(
    'live-total-counts-both-modes',
    'PAG-TOTAL',
    "on the live merchant, total counts both modes' records (the count query forgets the mode); the data is right",
    {
      echo: (e, f) => {
        const { merchant } = f.access;
        if (merchant?.kind !== 'live') return;
        const both = f.store.listing([listingKey(merchant.id, 'live'), listingKey(merchant.id, 'test')]);
        e.total = both.totals[f.plan.total];
      },
    },
  ),
  fault('live-filter-ignored', 'FLT-STATUS', "filter[status] is ignored on the live merchant's listings (both keys)", {
    plan: (plan, c) => {
      if (onLiveMerchant(c.access)) Object.assign(plan, { rows: 'all', total: 'all' });
    },
  }),
  fault('live-sort-ignored', 'SRT-AMOUNT', "sort is ignored on the live key's listing of the live merchant", {
    plan: (plan, c) => {
      if (liveKeyOnLive(c.access)) plan.order = 'unsorted';
    },
  }),
  fault(
    'live-offset-ignored',
    'PAG-PARTITION',
    "on the live key's listing of the live merchant, offset is echoed as sent but the page always starts at 0",
    {
      slice: (s, f) => {
        if (liveKeyOnLive(f.access)) Object.assign(s, { start: 0, end: Math.min(f.query.limit, f.total) });
      },
    },
  ),
  fault(
    'live-default-limit',
    'PAG-DEFAULT',
    "the live key's listing of the live merchant has a default page size of its own (20): a limit omitted there lists and echoes 20",
    {
      plan: (_plan, c) => {
        if (liveKeyOnLive(c.access) && !c.query.limitGiven) c.query.limit = 20;
      },
    },
  ),
];
