/**
 * `npx tsx scripts/bench/leak-scan.ts`: what the key-leak scan (core/client/leak.ts) and the redaction
 * (core/model/secrets.ts) cost per response, on answers of the bundled mock — 200 listings of ~10-30 KB (the
 * `extras` variant on, limit 60 to 100), 100 error bodies (401, 403, 404, 400) and their headers — for the mock's
 * configured keys (the run scans each exchange for each). Prints figures, asserts nothing: a time bound would fail
 * on a busy machine, not on a slow scan. No key is printed.
 */
import { performance } from 'node:perf_hooks';
import { findKeyLeak, type ResponseText } from '../../core/client/leak.ts';
import { paymentsPath } from '../../core/model/listing.ts';
import { redact, registerSecret } from '../../core/model/secrets.ts';
import { IDENTITY, startMock } from '../../mock/index.ts';

async function answers(): Promise<ResponseText[]> {
  const mock = await startMock({ variants: { extras: 'on' } });
  const out: ResponseText[] = [];
  const get = async (path: string, key: string | null) => {
    const res = await fetch(mock.url + path, { headers: key === null ? {} : { authorization: `Bearer ${key}` } });
    out.push({ headers: Object.fromEntries(res.headers), text: await res.text() });
  };
  try {
    const list = paymentsPath(IDENTITY.merchants.sandbox);
    for (let i = 0; i < 200; i++) await get(`${list}?offset=${i % 50}&limit=${60 + (i % 41)}`, IDENTITY.keys.test);
    for (let i = 0; i < 25; i++) {
      await get(list, `${IDENTITY.keys.test}x${i}`);
      await get(list, IDENTITY.keys.restricted);
      await get(paymentsPath(`msb_unknown${i}`), IDENTITY.keys.test);
      await get(`${list}?limit=-${i + 1}`, IDENTITY.keys.test);
    }
  } finally {
    await mock.stop();
  }
  return out;
}

/** Microseconds per call of `fn` over every answer, the best of `rounds` passes (the least disturbed one). */
function perAnswer(texts: readonly ResponseText[], fn: (res: ResponseText) => unknown, rounds = 7): number {
  let best = Number.POSITIVE_INFINITY;
  for (let r = 0; r < rounds; r++) {
    const t0 = performance.now();
    for (const res of texts) fn(res);
    best = Math.min(best, ((performance.now() - t0) * 1000) / texts.length);
  }
  return best;
}

const texts = await answers();
// The mock's four keys and a fifth (an old key), as a fully configured run has.
const keys = [...Object.values(IDENTITY.keys), 'sk_live_BENCHoldKEYr5t6y7u8i9o0p1'];
for (const key of keys) registerSecret(key);
const bytes = texts.reduce((n, t) => n + t.text.length, 0) / texts.length;
const listings = texts.filter((t) => t.text.length > 5000);
const errors = texts.filter((t) => t.text.length <= 5000);
let found = 0;
// A new object per pass, as each exchange of a run is: nothing read for one pass is reused by the next.
const scan = ({ headers, text }: ResponseText) => {
  const res = { headers, text };
  for (const key of keys) if (findKeyLeak(key, res)) found++;
};
const line = (label: string, set: readonly ResponseText[], fn: (res: ResponseText) => unknown, per: number) => {
  const us = perAnswer(set, fn);
  console.log(
    `${label.padEnd(44)} ${us.toFixed(1).padStart(8)} µs/response  ${(us / per).toFixed(1).padStart(7)} µs/key`,
  );
};
console.log(
  `${texts.length} answers (${listings.length} listings, ${errors.length} errors), mean body ${Math.round(bytes)} chars, ${keys.length} keys`,
);
line('findKeyLeak, every key: all answers', texts, scan, keys.length);
line('findKeyLeak, every key: listings', listings, scan, keys.length);
line('findKeyLeak, every key: error bodies', errors, scan, keys.length);
line(
  'redact(body) and each header: all answers',
  texts,
  (res) => {
    redact(res.text);
    for (const v of Object.values(res.headers)) redact(v);
  },
  1,
);
console.log(`leaks found in a clean mock's answers: ${found} (expected 0)`);
