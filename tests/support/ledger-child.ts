/**
 * A worker stand-in for the ledger tests: with CONFORMANCE_LEDGER set (the test names the ledger file so), either reserves N requests within a budget
 * and prints how many it got (`reserve N BUDGET`), or sends N paced GETs through the suite's client to a URL
 * (`send N RPS URL`). Several of these share one ledger file, as Playwright's workers do.
 */
import { ApiClient } from '../../core/client/http.ts';
import { openLedger } from '../../core/client/ledger.ts';
import { NO_AUTH } from '../../core/model/credentials.ts';
import { testTarget } from './target.ts';

const [mode, count, arg, url] = process.argv.slice(2);
if (mode === 'reserve') {
  const ledger = openLedger(process.env.CONFORMANCE_LEDGER);
  let got = 0;
  for (let i = 0; i < Number(count); i++) if (ledger.reserve(Number(arg), 0) !== undefined) got += 1;
  ledger.release();
  process.stdout.write(String(got));
} else {
  const ledger = openLedger(process.env.CONFORMANCE_LEDGER);
  const client = new ApiClient(
    testTarget({ baseURL: url as string, maxRps: Number(arg), maxRequests: 10_000 }),
    ledger,
  );
  for (let i = 0; i < Number(count); i++) await client.get('/ping', { auth: NO_AUTH });
  await client.close();
}
