import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { openLedger, resetLedger } from '../../core/client/ledger.ts';
import { busiestWindow } from '../support/windows.ts';

const dir = mkdtempSync(join(tmpdir(), 'ledger-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** Runs tests/support/ledger-child.ts in `n` processes at once, sharing the ledger file; their outputs. */
function children(n: number, ledger: string, args: string[]): Promise<string[]> {
  const child = () =>
    new Promise<string>((resolve, reject) => {
      const p = spawn('node', ['--import', 'tsx', 'tests/support/ledger-child.ts', ...args], {
        env: { ...process.env, CONFORMANCE_LEDGER: ledger },
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      let out = '';
      p.stdout.on('data', (d: Buffer) => {
        out += d.toString();
      });
      p.on('close', (code) => (code === 0 ? resolve(out) : reject(new Error(`child exited ${code}`))));
    });
  return Promise.all(Array.from({ length: n }, child));
}

describe('the ledger in memory', () => {
  test('never more than the budget; slots slightly wider than 1000/rps ms apart', () => {
    const ledger = openLedger();
    const slots = Array.from({ length: 12 }, () => ledger.reserve(10, 20));
    assert.equal(slots.filter((s) => s !== undefined).length, 10);
    assert.equal(ledger.sent(), 10);
    const given = slots.filter((s): s is number => s !== undefined);
    for (let i = 1; i < given.length; i++)
      // 20 a second: 50 ms apart, 2 % wider (51 ms), to the millisecond the clock reads.
      assert.ok((given[i] as number) - (given[i - 1] as number) >= 50);
    assert.equal(busiestWindow(given, 1000), 10);
  });
});

describe('requests reserved together (a burst in flight at once)', () => {
  // Every start the run makes: the burst's requests at its start, the others at their slots.
  const starts = (ledger: ReturnType<typeof openLedger>, k: number, rps: number) => {
    const before = Array.from({ length: 25 }, () => ledger.reserve(1000, rps) as number);
    const together = ledger.reserveTogether(1000, rps, k);
    const after = Array.from({ length: 25 }, () => ledger.reserve(1000, rps) as number);
    assert.ok(together);
    return { together, all: [...before, ...Array(together.count).fill(together.at), ...after] };
  };

  test('paced: at once, and no second of the run holds more than the pace allows, before, at or after them', () => {
    const { together, all } = starts(openLedger(), 6, 10);
    assert.equal(together.count, 6);
    assert.equal(busiestWindow(all, 1000), 10);
    // Their arrivals spread over 80 ms at the target: still no second with more.
    const spread = all.map((t, i) => (t === together.at ? t + (i % 6) * 16 : t));
    assert.ok(busiestWindow(spread, 1000) <= 10);
    // In the ledger the workers share (a file): the same.
    const file = join(dir, 'together');
    resetLedger(file);
    const shared = starts(openLedger(file), 6, 10);
    assert.equal(shared.together.count, 6);
    assert.equal(busiestWindow(shared.all, 1000), 10);
    assert.equal(openLedger(file).sent(), 56);
  });

  test('paced: never more at once than one second of the pace holds (the rest reserve as any other)', () => {
    const { together, all } = starts(openLedger(), 11, 10);
    assert.equal(together.count, 8);
    assert.ok(busiestWindow(all, 1000) <= 10);
  });

  test('within the budget: what it holds, or nothing', () => {
    const ledger = openLedger();
    ledger.reserve(5, 0);
    ledger.reserve(5, 0);
    assert.equal(ledger.reserveTogether(5, 0, 6)?.count, 3);
    assert.equal(ledger.reserveTogether(5, 0, 6), undefined);
    assert.equal(ledger.sent(), 5);
  });
});

describe('the ledger shared by processes (Playwright workers)', () => {
  test('three processes asking 40 each with a budget of 100 get exactly 100 between them', async () => {
    const file = join(dir, 'budget');
    resetLedger(file);
    const got = await children(3, file, ['reserve', '40', '100']);
    assert.equal(
      got.reduce((n, s) => n + Number(s), 0),
      100,
    );
    assert.equal(statSync(file).size, 100);
  });

  test('API_MAX_RPS 20 holds for the run: at the target, no 1-second window holds more than 24 requests', async () => {
    const arrivals: number[] = [];
    const server = createServer((_req, res) => {
      arrivals.push(performance.timeOrigin + performance.now());
      res.end('{}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const file = join(dir, 'pace');
      resetLedger(file);
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      await children(3, file, ['send', '15', '20', url]);
      assert.equal(arrivals.length, 45);
      const most = busiestWindow(arrivals, 1000);
      assert.ok(most <= 24, `${most} requests in one second`);
      assert.ok(most >= 15, `${most}: the three processes did overlap`);
    } finally {
      server.close();
    }
  });

  test('a lock left by a killed process is taken over after it goes stale', () => {
    const file = join(dir, 'stale');
    resetLedger(file);
    const ledger = openLedger(file);
    // A lock file dated 5 s ago, as a worker killed inside the critical section would leave it.
    const lock = `${file}.lock`;
    writeFileSync(lock, '');
    const old = new Date(Date.now() - 5000);
    utimesSync(lock, old, old);
    assert.notEqual(ledger.reserve(10, 0), undefined);
    assert.equal(ledger.sent(), 1);
  });
});
