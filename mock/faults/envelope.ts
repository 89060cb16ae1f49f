/** Faults of the listing envelope (§2), its echo (§4.2 rule 3) and the default limit (§4.2, §8). */
import { type Fault, fault } from './fault.ts';

const pastEnd = (offset: number, total: number) => offset >= total;

export const ENVELOPE_FAULTS: readonly Fault[] = [
  fault('envelope-success-string', 'ENV-SCHEMA', 'listing envelope carries success as the string "true"', {
    body: (b, f) => {
      if (f.route === 'list') b.success = 'true';
    },
  }),
  fault('envelope-missing-message', 'ENV-SCHEMA', 'listing envelope has no message field', {
    body: (b, f) => {
      if (f.route === 'list') b.message = undefined;
    },
  }),
  fault('envelope-total-string', 'ENV-SCHEMA', 'listing envelope carries total as a string ("237")', {
    body: (b, f) => {
      if (f.route === 'list') b.total = String(b.total);
    },
  }),
  fault('echo-offset-zero', 'PAG-ECHO', 'offset always echoed as 0; the data is still the right slice', {
    echo: (e) => {
      e.offset = 0;
    },
  }),
  fault('echo-limit-omitted-zero', 'PAG-ECHO', 'limit omitted: echoes limit 0 while serving the default', {
    echo: (e, f) => {
      if (!f.query.limitGiven) e.limit = 0;
    },
  }),
  fault('echo-offset-clamped', 'PAG-ECHO', 'offset >= total is echoed as total instead of as sent', {
    echo: (e, f) => {
      if (pastEnd(f.query.offset, f.total)) e.offset = f.total;
    },
  }),
  fault('default-limit-25', 'PAG-DEFAULT', 'limit omitted: 25 records, echoed as 25 (env still announces 10)', {
    settings: (s) => {
      s.defaultLimit = 25;
    },
  }),
];
