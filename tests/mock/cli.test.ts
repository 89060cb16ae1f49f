/**
 * `npm run mock` (mock/cli.ts) as a process: banner, env lines, quiet mode, listings, exit codes, signals.
 */
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { after, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { KEY_VARS } from '../../core/model/credentials.ts';
import { type CliIo, main, USAGE } from '../../mock/cli.ts';
import { FAULTS, IDENTITY, startMock, TEST_CA, VARIANT_DIMENSIONS } from '../../mock/index.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

interface Cli {
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  exited: Promise<number | null>;
}

function cli(...args: string[]): Cli {
  const child = spawn(process.execPath, ['--import', 'tsx', 'mock/cli.ts', ...args], { cwd: ROOT, stdio: 'pipe' });
  let out = '';
  let err = '';
  child.stdout?.on('data', (c: Buffer) => {
    out += c.toString();
  });
  child.stderr?.on('data', (c: Buffer) => {
    err += c.toString();
  });
  const exited = once(child, 'exit').then(([code]) => code as number | null);
  running.add(child);
  void exited.then(() => running.delete(child));
  return { child, stdout: () => out, stderr: () => err, exited };
}

/** Children still running when the tests end (a failed wait) are stopped, so the runner can exit. */
const running = new Set<ChildProcess>();
after(() => {
  for (const child of running) child.kill('SIGKILL');
});

async function until(ok: () => boolean | Promise<boolean>, what: string, ms = 20_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await ok())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

async function freePort(): Promise<number> {
  const server = createServer().listen(0, IDENTITY.host);
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  await new Promise((r) => server.close(r));
  return port;
}

/** Every variable the suite reads for what the mock has: its address, every key slot (the old key too), its merchants. */
const ENV_LINES = [
  'API_BASE_URL',
  ...Object.values(KEY_VARS),
  'SANDBOX_MERCHANT_ID',
  'LIVE_MERCHANT_ID',
  'OTHER_SANDBOX_MERCHANT_ID',
  'API_DEFAULT_LIMIT',
] as const;

function envOf(stdout: string): Record<string, string> {
  return Object.fromEntries(
    stdout
      .split('\n')
      .map((l) => /^([A-Z_]+)=(\S+)$/.exec(l))
      .filter((m): m is RegExpExecArray => m !== null)
      .map((m) => [m[1], m[2]]),
  );
}

async function statusWith(url: string, key: string): Promise<number> {
  return (await fetch(`${url}/merchant/status`, { headers: { Authorization: `Bearer ${key}` } })).status;
}

describe('mock CLI', { concurrency: 3 }, () => {
  test('banner, env lines, SIGTERM exits 0', async () => {
    const run = cli('--port', '0');
    await until(() => run.stdout().includes('# faults:'), 'the banner');
    const lines = run.stdout().split('\n');
    const url = /^Mock payment API listening on (http:\/\/127\.0\.0\.1:\d+)$/.exec(lines[0] ?? '')?.[1];
    assert.ok(url, `first line: ${lines[0]}`);
    const env = envOf(run.stdout());
    for (const name of ENV_LINES)
      assert.ok(
        lines.some((l) => l.startsWith(`${name}=`)),
        `${name} line`,
      );
    assert.deepEqual(
      [env.API_BASE_URL, env.API_TEST_KEY, env.API_LIVE_KEY, env.SANDBOX_MERCHANT_ID, env.LIVE_MERCHANT_ID],
      [url, IDENTITY.keys.test, IDENTITY.keys.live, IDENTITY.merchants.sandbox, IDENTITY.merchants.live],
    );
    assert.match(
      run.stdout(),
      /^# variants: over-limit=clamp, invalid=400, .*method=405, routing=auth-first, spacing=lenient, scheme=insensitive, errors=json, ids=string, status-endpoint=200, prefix=none, .*data=default$/m,
    );
    assert.match(run.stdout(), /^# faults: none$/m);
    assert.equal(await statusWith(url, env.API_TEST_KEY ?? ''), 200);
    run.child.kill('SIGTERM');
    assert.equal(await run.exited, 0);
    assert.equal(run.stderr(), '');
  });

  test('variants and faults show in the banner and env; SIGINT exits 0', async () => {
    const run = cli(
      '--port',
      '0',
      '--variant',
      'ties=reverse,amount=string',
      '--fault',
      'live-key-format',
      '--seed',
      '7',
    );
    await until(() => run.stdout().includes('# faults:'), 'the banner');
    assert.match(run.stdout(), /^# variants: .*ties=reverse, .*amount=string, /m);
    assert.match(run.stdout(), /^# faults: live-key-format$/m);
    const env = envOf(run.stdout());
    assert.match(env.API_LIVE_KEY ?? '', /^sk_prod_/);
    assert.equal(await statusWith(env.API_BASE_URL ?? '', env.API_LIVE_KEY ?? ''), 200);
    run.child.kill('SIGINT');
    assert.equal(await run.exited, 0);
  });

  test('--tls serves HTTPS with the test-only certificate and says how to trust it', async () => {
    const run = cli('--port', '0', '--tls');
    await until(() => run.stdout().includes('# trust'), 'the banner');
    const env = envOf(run.stdout());
    assert.match(env.API_BASE_URL ?? '', /^https:\/\/127\.0\.0\.1:\d+$/);
    assert.match(
      run.stdout(),
      new RegExp(`^# trust the test-only certificate with: NODE_EXTRA_CA_CERTS=${TEST_CA}$`, 'm'),
    );
    const { Agent, request } = await import('undici');
    const trusting = new Agent({ connect: { ca: readFileSync(TEST_CA, 'utf8') } });
    const res = await request(`${env.API_BASE_URL}/merchant/status`, {
      headers: { authorization: `Bearer ${IDENTITY.keys.test}` },
      dispatcher: trusting,
    });
    assert.equal(res.statusCode, 200);
    await res.body.text();
    // Without the CA, the certificate is not trusted.
    await assert.rejects(fetch(`${env.API_BASE_URL}/merchant/status`), /fetch failed/);
    await trusting.close();
    run.child.kill('SIGTERM');
    assert.equal(await run.exited, 0);
  });

  test('--grow and prefix=api: the base URL carries the prefix, the banner says the data grows, and it does', async () => {
    const run = cli('--port', '0', '--grow', '2', '--variant', 'prefix=api');
    await until(() => run.stdout().includes('# data grows'), 'the banner');
    assert.match(run.stdout(), /^# data grows: one new payment in every listing after every 2 requests$/m);
    const env = envOf(run.stdout());
    assert.match(env.API_BASE_URL ?? '', /^http:\/\/127\.0\.0\.1:\d+\/api\/v2$/);
    assert.match(run.stdout(), new RegExp(`^Mock payment API listening on ${env.API_BASE_URL}$`, 'm'));
    const listing = `${env.API_BASE_URL}/payments/n1/merchant/${IDENTITY.merchants.sandbox}/payments`;
    const totals: number[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await fetch(listing, { headers: { Authorization: `Bearer ${IDENTITY.keys.test}` } });
      totals.push(((await res.json()) as { total: number }).total);
    }
    assert.deepEqual(totals, [237, 237, 238]);
    run.child.kill('SIGTERM');
    assert.equal(await run.exited, 0);
  });

  test('--quiet prints nothing and serves on the given port', async () => {
    const port = await freePort();
    const run = cli('--quiet', '--port', String(port));
    const url = `http://${IDENTITY.host}:${port}`;
    await until(
      () =>
        statusWith(url, IDENTITY.keys.test).then(
          (s) => s === 200,
          () => false,
        ),
      'the quiet mock',
    );
    run.child.kill('SIGTERM');
    assert.equal(await run.exited, 0);
    assert.equal(run.stdout() + run.stderr(), '');
  });

  test('a bad option: one line on stderr, exit 2', async () => {
    const run = cli('--variant', 'over-limit=maybe');
    assert.equal(await run.exited, 2);
    assert.equal(run.stdout(), '');
    assert.equal(run.stderr(), 'mock: variant over-limit has no value "maybe"; allowed: clamp, reject (see --help)\n');
  });

  test('port in use: clear error, exit 1', async () => {
    const holder = await startMock();
    try {
      const run = cli('--port', String(holder.port));
      assert.equal(await run.exited, 1);
      assert.match(run.stderr(), new RegExp(`^mock: port ${holder.port} is already in use`));
    } finally {
      await holder.stop();
    }
  });
});

/** main() in-process with captured output, for what needs no running server. */
async function runMain(...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const io: CliIo = { out: (l) => out.push(l), err: (l) => err.push(l), stopSignal: () => Promise.resolve() };
  const code = await main(argv, io);
  return { code, out: out.join('\n'), err };
}

describe('mock CLI options (in-process)', () => {
  const bad: [string[], RegExp][] = [
    [['--bogus'], /Unknown option '--bogus'/],
    [['--variant', 'over-limit=maybe'], /variant over-limit has no value "maybe"; allowed: clamp, reject/],
    [['--variant', 'speed=fast'], /unknown variant "speed"; variants are: over-limit, /],
    [['--variant', 'ties'], /variant "ties" must have the form name=value/],
    [['--fault', 'nope'], /unknown fault "nope"; faults are: envelope-success-string, /],
    [['--port', '70000'], /--port must be an integer from 0 to 65535, got "70000"/],
    [['--port', 'abc'], /--port must be an integer/],
    [['--seed=-1'], /--seed must be an integer from 0/],
    [['--grow', '0'], /--grow must be an integer from 1 to /],
    [['--grow', 'often'], /--grow must be an integer/],
    [['--quiet=yes'], /--quiet/],
    [['extra'], /Unexpected argument 'extra'/],
  ];
  for (const [args, message] of bad) {
    test(`bad option ${args.join(' ')}: one error line, exit 2`, async () => {
      const { code, out, err } = await runMain(...args);
      assert.equal(code, 2);
      assert.equal(out, '');
      assert.equal(err.length, 1);
      assert.match(err[0] ?? '', /^mock: .* \(see --help\)$/);
      assert.doesNotMatch(err[0] ?? '', /\n/);
      assert.match(err[0] ?? '', message);
    });
  }
  test('--list-faults: name, rule, description of every fault', async () => {
    const { code, out } = await runMain('--list-faults');
    assert.equal(code, 0);
    assert.match(out, /^FAULT +RULE +DESCRIPTION$/m);
    for (const f of FAULTS) assert.match(out, new RegExp(`^${f.name} +${f.rule} +\\S`, 'm'));
  });
  test('--list-variants: every dimension with its values and default', async () => {
    const { code, out } = await runMain('--list-variants');
    assert.equal(code, 0);
    for (const d of VARIANT_DIMENSIONS) {
      assert.match(out, new RegExp(`^${d.name} +${d.values.join(' \\| ')} +${d.values[0]} +\\S`, 'm'));
    }
  });
  test('--help prints the usage with the fixture defaults', async () => {
    const { code, out } = await runMain('--help');
    assert.equal(code, 0);
    assert.equal(out, USAGE);
    assert.match(out, new RegExp(`default ${IDENTITY.mockPort}`));
  });
  test('a bad option wins over --help', async () => {
    assert.equal((await runMain('--help', '--fault', 'nope')).code, 2);
  });
});
