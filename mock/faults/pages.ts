/** Faults of pagination (§4.2 rules 1, 2, 4): page size, total, partition, past the end. */
import { type Fault, fault } from './fault.ts';

const pastEnd = (offset: number, total: number) => offset >= total;

export const PAGE_FAULTS: readonly Fault[] = [
  fault('page-size-one-short', 'PAG-SIZE', 'full pages carry limit-1 records', {
    slice: (s, f) => {
      if (s.end - s.start === f.query.limit) s.end -= 1;
    },
  }),
  fault('total-is-page-size', 'PAG-TOTAL', 'total is the size of the page, not the number of matches', {
    echo: (e, f) => {
      e.total = f.dataLength;
    },
  }),
  fault('total-after-offset', 'PAG-TOTAL', 'total counts only the records from offset on (total - offset)', {
    echo: (e, f) => {
      e.total = Math.max(0, f.total - f.query.offset);
    },
  }),
  fault(
    'offset-off-by-one-low',
    'PAG-PARTITION',
    'offset > 0 starts the slice at offset-1: duplicates at page boundaries',
    {
      slice: (s, f) => {
        if (f.query.offset > 0)
          Object.assign(s, { start: s.start - 1, end: Math.min(s.start - 1 + f.query.limit, f.total) });
      },
    },
  ),
  fault('offset-off-by-one-high', 'PAG-PARTITION', 'offset > 0 starts the slice at offset+1: gaps at page boundaries', {
    slice: (s, f) => {
      if (f.query.offset > 0)
        Object.assign(s, { start: s.start + 1, end: Math.min(s.start + 1 + f.query.limit, f.total) });
    },
  }),
  fault('past-end-nonempty', 'PAG-EMPTY', 'offset >= total returns the last page instead of []', {
    slice: (s, f) => {
      if (f.total > 0 && pastEnd(f.query.offset, f.total))
        Object.assign(s, { start: Math.max(0, f.total - f.query.limit), end: f.total });
    },
  }),
  fault('past-end-total-zero', 'PAG-EMPTY', 'offset >= total reports total 0', {
    echo: (e, f) => {
      if (pastEnd(f.query.offset, f.total)) e.total = 0;
    },
  }),
];
