/**
 * fidelity --calibrate and --check against the bundled mock as the reference A, started in-process with its own
 * variant combinations (the proof's named sets and combinations drawn from its legal space): the calibration finds the
 * combination (every case alike; where it chose another value, no case can tell the two apart), A receives no more
 * requests than one fidelity run and none when calibrated again, the calibration file holds no key, record id or
 * merchant id of A, the mock loads it, and --check exits 1 naming the cases once A has moved (a declared collection:
 * ./calibrate-collection.test.ts).
 */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { main } from '../../fidelity/main.ts';
import { casesOf } from '../../fidelity/measure.ts';
import { mockCollections, runMock, servedAs } from '../../fidelity/mock-runs.ts';
import { type RunningMock, type Shapes, startMock, VARIANT_DEFAULTS } from '../../mock/index.ts';
import { drawLegalSpace, variantArgs } from '../proof/legal-space.ts';
import { VARIANT_SETS } from '../proof/variant-sets.ts';
import { calibrationBench } from '../support/calibration.ts';
import { KEY_SHAPE, scanPaths } from '../support/scan.ts';

const { dir, reference, calibrate, quiet } = calibrationBench('calibrate-test-');

const COMBINATIONS: Array<[string, string[]]> = [
  ...Object.entries(VARIANT_SETS),
  ...drawLegalSpace(20261128, 3).map((c, i): [string, string[]] => [`legal ${i + 1}`, variantArgs(c)]),
];

describe('fidelity --calibrate: the mock as A, in its own combinations', () => {
  for (const [name, variants] of COMBINATIONS) {
    test(`${name}: every case alike; a value other than A's is one no case tells apart`, async () => {
      const a = await reference(name.replace(/\W/g, '-'), variants);
      try {
        const { code, record } = await calibrate(a.file, join(dir, `r-${name.replace(/\W/g, '-')}`));
        assert.equal(code, 0);
        const m = /^fidelity: (\d+)\/(\d+) cases answered alike/.exec(record.alike.after);
        assert.ok(m && m[1] === m[2], `${name}: ${record.alike.after}`);
        const found = { ...VARIANT_DEFAULTS, ...record.variants } as Record<string, string>;
        const cases = casesOf(record.measured).filter((c) => record.reference[c.id]);
        const collections = servedAs(record.measured.collections, await mockCollections());
        for (const [axis, value] of Object.entries(a.mock.variants)) {
          if (found[axis] === value || record.unseen[axis]) continue;
          const [x, y] = await Promise.all([
            runMock(cases, found, { collections }),
            runMock(cases, { ...found, [axis]: value }, { collections }),
          ]);
          for (const c of cases) {
            const [p, q] = [x.answers.get(c.id), y.answers.get(c.id)];
            assert.deepEqual(
              p,
              q,
              `${name}: ${axis}=${value} (found ${found[axis]}) answers ${c.id} ${c.label} otherwise`,
            );
          }
        }
      } finally {
        await a.mock.stop();
      }
    });
  }
});

/** Shapes no variant of the mock has, echoing every value of the request a refusal may echo. */
const ECHOING: Shapes = {
  errors: [
    {
      type: 'application/vnd.api+json',
      body: {
        errors: [{ status: '{{statusText}}', title: '{{title}}', detail: '{{message}}', source: '{{path}}{{query}}' }],
        meta: {
          merchant: '{{merchantId}}',
          key: '{{keyPrefix}}****{{keyLast4}}',
          trace: '{{requestId}}',
          at: '{{timestamp}}',
        },
      },
      headers: { 'x-trace-id': '{{uuid}}' },
    },
  ],
  status: { type: 'application/json', body: { ok: true, merchantMode: '{{mode}}' } },
  envelope: { links: { self: '{{path}}{{query}}' }, pageCount: '{{pages}}' },
};

describe('fidelity --calibrate: what A receives, what is written', () => {
  let a: Awaited<ReturnType<typeof reference>>;
  let b: RunningMock;
  before(async () => {
    // A's refusals echo the path and query, the merchant id, the key's mode and last four, a request id and a time;
    // its status body and envelope carry fields of their own: what a calibration must learn without A's values.
    a = await reference('echoes', ['errors=rich', 'invalid=422'], ECHOING);
    b = await startMock({ port: 0 });
  });
  after(async () => {
    await a.mock.stop();
    await b.stop();
  });

  test('no more requests to A than one fidelity run, none when calibrated again', async () => {
    const bFile = join(dir, 'b.env');
    writeFileSync(
      bFile,
      `${Object.entries(b.env)
        .map(([k, v]) => `${k}=${v}`)
        .join('\n')}\n`,
    );
    const start = a.requests();
    assert.equal(await main([a.file, bFile, '--reports', join(dir, 'plain')], quiet().io), 0);
    const fidelityRun = a.requests() - start;
    const first = await calibrate(a.file, join(dir, 'twice'));
    const calibration = a.requests() - start - fidelityRun;
    const again = await calibrate(a.file, join(dir, 'twice'));
    assert.equal(first.code, 0);
    assert.ok(calibration <= fidelityRun, `calibration sent ${calibration} requests, a fidelity run ${fidelityRun}`);
    assert.equal(a.requests() - start - fidelityRun - calibration, 0, 'the second calibration sent requests to A');
    assert.match(again.out, /measured earlier .*nothing sent to A now/);
    assert.deepEqual(again.record.variants, first.record.variants);
  });

  test('the calibration file holds no key, record id or merchant id of A (placeholders only)', async () => {
    const reports = join(dir, 'secrets');
    const { record } = await calibrate(a.file, reports);
    assert.ok(record.shapes.errors?.length && record.shapes.status && record.shapes.envelope, 'shapes learned');
    const text = readFileSync(join(reports, 'calibration.json'), 'utf8');
    const keys = Object.values(a.mock.env).filter((v) => v.startsWith('sk_'));
    const scan = scanPaths([join(reports, 'calibration.json')], keys, [KEY_SHAPE]);
    assert.deepEqual(scan.hits, []);
    const merchants = [
      a.mock.env.SANDBOX_MERCHANT_ID,
      a.mock.env.LIVE_MERCHANT_ID,
      a.mock.env.OTHER_SANDBOX_MERCHANT_ID,
    ];
    for (const m of merchants) assert.ok(!text.includes(m), `merchant id ${m} written`);
    const page = await fetch(`${a.mock.url}/payments/n1/merchant/${merchants[0]}/payments?limit=100`, {
      headers: { authorization: `Bearer ${a.mock.env.API_TEST_KEY}` },
    });
    const ids = ((await page.json()) as { data: Array<{ id: string }> }).data.map((r) => r.id);
    for (const id of ids) assert.ok(!text.includes(id), `record id ${id} written`);
    assert.match(text, /\{\{merchantId\}\}|\{\{keyLast4\}\}|\{\{path\}\}/, 'the echoes became placeholders');
  });

  test('--check: exit 0 while A answers as calibrated, 1 naming the cases once it has moved', async () => {
    const reports = join(dir, 'drift');
    await calibrate(a.file, reports);
    const file = join(reports, 'calibration.json');
    const same = quiet();
    assert.equal(await main(['--check', file, a.file, '--reports', reports], same.io), 0, same.out.join('\n'));
    assert.match(same.out.join('\n'), /no drift: A answers the \d+ cases of the calibration as it did then/);
    const moved = await reference('moved', ['errors=rich', 'extras=on', 'status-endpoint=text', 'over-limit=reject']);
    try {
      const drift = quiet();
      const code = await main(['--check', file, moved.file, '--reports', reports], drift.io);
      const text = drift.out.join('\n');
      assert.equal(code, 1, text);
      assert.match(text, /drift: A answers \d+ of the \d+ cases otherwise than at calibration/);
      assert.match(text, /c\d+ LIM-CAP .*status: 2xx → 4xx/);
    } finally {
      await moved.mock.stop();
    }
  });
});
