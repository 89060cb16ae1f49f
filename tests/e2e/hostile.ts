/**
 * First contact (npm test, stage `hostile`): the suite, as a user runs it, against targets that are not what a first
 * day expects — each a small server of this test's own — and against the bundled mock set up wrong. Every case must
 * end with the exit code it deserves (2 or 3 for a target that is not the API or does not answer, 1 for an API that
 * answers wrongly, 0 for one that answers rightly in an unusual way), say the problem in one sentence (its phrase
 * exactly once in the console), and leave no key in anything it wrote or printed (tests/support/scan.ts). A case that
 * must stop at the preflight proves it by what it sent (no check ran, a handful of requests), never by a stopwatch:
 * the only time bound is a hang guard, three times what the case takes on a quiet machine.
 *
 * The cases run side by side, with short time settings (API_TIMEOUT_MS=1000) for the ones that stall; one stalling
 * case runs with the default settings, to prove a user's run gives up after one API_TIMEOUT_MS (one attempt).
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, request, type Server, type ServerResponse } from 'node:http';
import { type AddressInfo, createServer as createNetServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { type MockEnv, type RunningMock, startMock } from '../../mock/index.ts';
import { againstMock, runSuite } from '../../scripts/run-suite.ts';
import { scanPaths } from '../support/scan.ts';
import { CANARY_KEYS } from './secrets-canary.ts';

export interface HostileResult {
  scenario: string;
  problems: string[];
  detail: string;
}

interface Stoppable {
  url: string;
  stop(): Promise<void>;
}

/** An HTTP server on a free loopback port; every connection is closed when it stops. */
async function serve(handler: (req: import('node:http').IncomingMessage, res: ServerResponse) => void) {
  const server: Server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A TCP server that does something to every connection (never answers, resets it). */
async function tcp(onSocket: (socket: Socket) => void): Promise<Stoppable> {
  const sockets = new Set<Socket>();
  const server = createNetServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => {});
    socket.on('close', () => sockets.delete(socket));
    onSocket(socket);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    stop: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/** A front of the bundled mock that changes each answer: its body, its headers, what comes before it. */
async function front(
  mock: RunningMock,
  change: (res: ServerResponse, status: number, headers: Record<string, string>, body: Buffer) => void,
) {
  const origin = new URL(mock.url);
  return serve((req, res) => {
    const upstream = request(
      { host: origin.hostname, port: origin.port, path: req.url, method: req.method, headers: req.headers },
      (answer) => {
        const chunks: Buffer[] = [];
        answer.on('data', (c: Buffer) => chunks.push(c));
        answer.on('end', () => {
          const headers: Record<string, string> = {};
          for (const [k, v] of Object.entries(answer.headers)) if (typeof v === 'string') headers[k] = v;
          delete headers['content-length'];
          delete headers.connection;
          delete headers['keep-alive'];
          change(res, answer.statusCode ?? 502, headers, Buffer.concat(chunks));
        });
      },
    );
    upstream.on('error', () => res.destroy());
    upstream.end();
  });
}

const HTML =
  '<!DOCTYPE html><html><head><title>Error response</title></head><body><h1>404 File not found</h1></body></html>';

/** A listing whose `total` is 10^12, with 25 records behind it: an API that answers wrongly, never to be walked. */
function hugeTotal(req: import('node:http').IncomingMessage, res: ServerResponse): void {
  const url = new URL(req.url ?? '/', 'http://x');
  const offset = Number(url.searchParams.get('offset') ?? 0);
  const limit = Math.min(Number(url.searchParams.get('limit') ?? 10), 100);
  const [status, body] = ((): [number, unknown] => {
    if (!(req.headers.authorization ?? '').startsWith('Bearer sk_test_CANARYt3st')) return [401, { success: false }];
    if (url.pathname === '/merchant/status') return [200, { success: true, message: 'ok' }];
    if (!/^\/payments\/n1\/merchant\/msb_huge\/payments$/.test(url.pathname)) return [404, { message: 'not found' }];
    if (!Number.isInteger(offset) || !Number.isInteger(limit) || offset < 0 || limit < 1) return [400, {}];
    const data = Array.from({ length: Math.max(0, Math.min(limit, 25 - offset)) }, (_, i) => ({
      id: `p${offset + i}`,
      status: 'COMPLETED',
      amount: offset + i + 1,
    }));
    return [200, { success: true, message: 'OK', data, offset, limit, total: 1e12 }];
  })();
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

/**
 * An API that checks the key's permission before it looks the merchant up (legal: §7 names 403 for a missing
 * permission, not which check comes first): the restricted key gets 403 on any merchant, known or not; the test key
 * 404 on a merchant that is not its account's (msb_known is).
 */
function permissionFirst(req: import('node:http').IncomingMessage, res: ServerResponse): void {
  const url = new URL(req.url ?? '/', 'http://x');
  const auth = req.headers.authorization ?? '';
  const key = [CANARY_KEYS.API_TEST_KEY, CANARY_KEYS.API_RESTRICTED_KEY].find((k) => auth === `Bearer ${k}`);
  const [status, body] = ((): [number, unknown] => {
    if (!key) return [401, { success: false, message: 'unauthorized' }];
    if (url.pathname === '/merchant/status') return [200, { success: true, message: 'ok' }];
    const listing = /^\/payments\/n1\/merchant\/([^/]+)\/payments$/.exec(url.pathname);
    if (!listing) return [404, { success: false, message: 'not found' }];
    if (key === CANARY_KEYS.API_RESTRICTED_KEY) return [403, { success: false, message: 'forbidden' }];
    if (listing[1] !== 'msb_known') return [404, { success: false, message: 'merchant not found' }];
    return [200, { success: true, message: 'OK', data: [], offset: 0, limit: 10, total: 0 }];
  })();
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

interface Case {
  scenario: string;
  /** The exit code the case deserves. */
  exit: number;
  /** The one sentence's phrase, which must appear exactly once in the console. */
  phrase?: RegExp;
  /** What it takes on a quiet machine, side by side with the others, in seconds: its hang guard is 3 times that. */
  expected: number;
  /** Starts its target: the environment of the run (the target and keys), what to stop, what to check afterwards. */
  start(): Promise<{ env: NodeJS.ProcessEnv; stop(): Promise<void>; after?: () => string[]; args?: string[] }>;
}

const canaryEnv = (url: string, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv => ({
  API_BASE_URL: url,
  API_TEST_KEY: CANARY_KEYS.API_TEST_KEY,
  API_LIVE_KEY: CANARY_KEYS.API_LIVE_KEY,
  SANDBOX_MERCHANT_ID: 'msb_hostile',
  ...extra,
});
const SHORT = { API_TIMEOUT_MS: '1000' };

/** A case whose target is one server of its own. */
const against = (
  scenario: string,
  exit: number,
  phrase: RegExp | undefined,
  expected: number,
  target: () => Promise<Stoppable>,
  extra: NodeJS.ProcessEnv = {},
): Case => ({
  scenario,
  exit,
  phrase,
  expected,
  start: async () => {
    const t = await target();
    return { env: canaryEnv(t.url, extra), stop: t.stop };
  },
});

/** A case against a front of the bundled mock. */
const fronted = (
  scenario: string,
  exit: number,
  phrase: RegExp | undefined,
  grep: string,
  change: Parameters<typeof front>[1],
): Case => ({
  scenario,
  exit,
  phrase,
  expected: 20,
  start: async () => {
    const mock = await startMock({ port: 0 });
    const f = await front(mock, change);
    return {
      args: ['--grep', grep],
      env: { ...againstMock(mock.env), API_BASE_URL: f.url },
      stop: async () => {
        await f.stop();
        await mock.stop();
      },
    };
  },
});

/** A case against the bundled mock set up wrong. */
const misconfigured = (scenario: string, phrase: RegExp, change: (env: MockEnv) => NodeJS.ProcessEnv): Case => ({
  scenario,
  exit: 2,
  phrase,
  expected: 10,
  start: async () => {
    const mock = await startMock({ port: 0 });
    return { env: { ...againstMock(mock.env), ...change(mock.env) }, stop: mock.stop };
  },
});

const CASES: Case[] = [
  {
    scenario: 'redirect to another host',
    exit: 2,
    phrase: /follows no redirect/,
    expected: 10,
    start: async () => {
      let elsewhere = 0;
      let keysElsewhere = 0;
      const other = await serve((req, res) => {
        elsewhere += 1;
        if (req.headers.authorization) keysElsewhere += 1;
        res.end('{}');
      });
      const gateway = await serve((_req, res) =>
        res.writeHead(302, { location: `http://localhost:${other.port}/sso/login?token=t0psecret&next=/x` }).end(),
      );
      return {
        env: canaryEnv(gateway.url),
        stop: async () => {
          await gateway.stop();
          await other.stop();
        },
        after: () => [
          ...(elsewhere > 0 ? [`the other host saw ${elsewhere} request(s), ${keysElsewhere} with a key`] : []),
        ],
      };
    },
  },
  against('an HTML page (a static web server)', 2, /is not the payment API/, 10, () =>
    serve((_req, res) => res.writeHead(404, { 'content-type': 'text/html; charset=utf-8' }).end(HTML)),
  ),
  {
    ...against('plain HTTP behind https://', 3, /speaks plain HTTP, not TLS/, 10, () =>
      serve((_req, res) => res.writeHead(401, { 'content-type': 'application/json' }).end('{"success":false}')),
    ),
    start: async () => {
      const t = await serve((_req, res) =>
        res.writeHead(401, { 'content-type': 'application/json' }).end('{"success":false}'),
      );
      return { env: canaryEnv(t.url.replace('http:', 'https:')), stop: t.stop };
    },
  },
  against('accepts and never answers', 3, /does not answer, no check was run/, 10, () => tcp(() => {}), SHORT),
  // With the defaults, one API_TIMEOUT_MS (10 s) and no second attempt after it: the sentence says so.
  against(
    'accepts and never answers, default settings',
    3,
    /does not answer, no check was run\. .* failed after 1 attempt\(s\): no answer before API_TIMEOUT_MS/,
    15,
    () => tcp(() => {}),
  ),
  against(
    'sends its headers, then stalls',
    3,
    /sent its headers \(HTTP 200\), then its body stalled/,
    10,
    () =>
      serve((_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.flushHeaders();
      }),
    SHORT,
  ),
  against(
    'trickles a byte a second',
    3,
    /sent its headers \(HTTP 200\), then its body stalled or trickled/,
    10,
    () =>
      serve((_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write(' '); // the headers and a first byte now, then one a second
        const timer = setInterval(() => res.write(' '), 1000);
        res.on('close', () => clearInterval(timer));
      }),
    // Long enough for the headers to arrive on a busy machine (with 1 s they came too late there: "does not answer").
    { API_TIMEOUT_MS: '3000' },
  ),
  against('sends 50 MB', 2, /more than 5 MB, cut there/, 10, () =>
    serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      const chunk = Buffer.from('0,'.repeat(512 * 1024)); // 1 MB
      let sent = 0;
      const more = () => {
        while (sent < 50 && res.write(sent === 0 ? Buffer.concat([Buffer.from('['), chunk]) : chunk)) sent += 1;
        if (sent >= 50) res.end(']');
      };
      res.on('drain', () => {
        sent += 1;
        more();
      });
      res.on('error', () => {});
      more();
    }),
  ),
  against('resets every connection', 3, /does not answer, no check was run/, 10, () =>
    tcp((socket) => socket.resetAndDestroy()),
  ),
  against('invalid JSON', 2, /is not the payment API/, 10, () =>
    serve((_req, res) => res.writeHead(401, { 'content-type': 'application/json' }).end('{"success": tru')),
  ),
  fronted(
    'JSON with a byte order mark',
    1,
    /byte order mark \(U\+FEFF\)/,
    'ENV-SCHEMA|AUTH-STATUS',
    (res, status, headers, body) => res.writeHead(status, headers).end(Buffer.concat([Buffer.from('\uFEFF'), body])),
  ),
  fronted(
    'Content-Encoding: gzip, unasked',
    0,
    /Content-Encoding: gzip/,
    'ENV-|PAG-TOTAL|AUTH-',
    (res, status, headers, body) =>
      res.writeHead(status, { ...headers, 'content-encoding': 'gzip' }).end(gzipSync(body)),
  ),
  fronted('1xx interim answers', 0, undefined, 'ENV-|PAG-TOTAL|AUTH-', (res, status, headers, body) => {
    res.writeProcessing();
    res.writeEarlyHints({ link: '</style.css>; rel=preload; as=style' });
    res.writeHead(status, headers).end(body);
  }),
  {
    ...against('a listing whose total is 10^12', 1, /PAG-TOTAL \(MUST\) failed/, 20, () => serve(hugeTotal)),
    start: async () => {
      const t = await serve(hugeTotal);
      return {
        env: canaryEnv(t.url, { SANDBOX_MERCHANT_ID: 'msb_huge', API_LIVE_KEY: '' }),
        args: ['--grep', 'PAG-TOTAL|PAG-PARTITION'],
        stop: t.stop,
        // No walk may try to enumerate it: the checks read a capped prefix (API_MAX_RECORDS) and stop.
        after: () => {
          const sent = requestsOf('a listing whose total is 10^12');
          return sent > 600 ? [`${sent} requests: a walk tried to enumerate the 10^12 records`] : [];
        },
      };
    },
  },
  // The restricted key's 403 says nothing of the merchant: the test key's 404 decides, in the preflight's seconds.
  against(
    'an unknown merchant on an API that answers the restricted key 403 first',
    2,
    /SANDBOX_MERCHANT_ID=msb_hostile is not found: API_TEST_KEY, accepted by \/merchant\/status, gets 404/,
    10,
    () => serve(permissionFirst),
    { API_LIVE_KEY: '', API_RESTRICTED_KEY: CANARY_KEYS.API_RESTRICTED_KEY },
  ),
  misconfigured('mock: a revoked key as API_TEST_KEY', /API_TEST_KEY is refused with 401 on both endpoints/, (e) => ({
    API_TEST_KEY: e.API_REVOKED_KEY,
  })),
  misconfigured('mock: a never-issued key', /API_TEST_KEY is refused with 401 on both endpoints/, () => ({
    API_TEST_KEY: 'sk_test_NEVERissuedKEY0a1b2c3d4e5f',
  })),
  misconfigured('mock: a merchant that does not exist', /SANDBOX_MERCHANT_ID=msb_nope is not found/, () => ({
    SANDBOX_MERCHANT_ID: 'msb_nope',
  })),
  // A declared collection's path the target does not serve: exit 2 in the preflight's seconds, the collection named
  // (an OpenAPI document's collection takes the name of its path's last segment).
  {
    scenario: 'mock: an OpenAPI document whose listing the target does not serve',
    exit: 2,
    phrase:
      /Collection refundz \(.+\): GET \/payments\/n1\/merchant\/\w+\/refundz\?limit=1 with API_TEST_KEY answered HTTP 404/,
    expected: 10,
    start: async () => {
      const mock = await startMock({ port: 0 });
      // An input, not an artifact: outside reports/ (whose scan would read the example's `restrictedKey` against the
      // mock's readable restricted key, MOCKrestrictedKEY…, as most of it quoted).
      const dir = mkdtempSync(join(tmpdir(), 'hostile-collections-'));
      const file = join(dir, 'wrong-path.openapi.yaml');
      const document = readFileSync('examples/openapi.yaml', 'utf8').replace('}/refunds:', '}/refundz:');
      writeFileSync(file, document);
      const stop = async () => {
        await mock.stop();
        rmSync(dir, { recursive: true, force: true });
      };
      return { env: againstMock(mock.env), args: ['--collections', file], stop };
    },
  },
  misconfigured(
    'mock: a wrong path prefix',
    /answers 404 to GET \/merchant\/status for every key .* API_BASE_URL=http:\/\/127\.0\.0\.1:\d+\./,
    (e) => ({ API_BASE_URL: `${e.API_BASE_URL}/payments-api/v2` }),
  ),
];

/** The fault case: exit 1, and its replay line carries --env-file as given and a --reports folder beside the run's. */
const FAULT_CASE: Case = {
  scenario: 'mock with a fault (page-size-one-short), --env-file and --reports',
  exit: 1,
  expected: 10,
  start: async () => {
    const mock = await startMock({ port: 0, faults: ['page-size-one-short'] });
    const file = 'reports/hostile/fault.env';
    mkdirSync('reports/hostile', { recursive: true });
    writeFileSync(
      file,
      `${Object.entries(againstMock(mock.env))
        .map(([k, v]) => `${k}=${v}`)
        .join('\n')}\n`,
    );
    const reports = 'reports/hostile/fault-given';
    return {
      env: {},
      args: ['--env-file', file, '--reports', reports, '--grep', 'PAG-SIZE'],
      stop: async () => {
        rmSync(file, { force: true }); // the user's own file, with keys by design
        await mock.stop();
      },
      after: () => {
        const matrix = JSON.parse(readFileSync(`${reports}/conformance.json`, 'utf8')) as {
          checks: Array<{ rule: string; replay?: string }>;
        };
        const replay = matrix.checks.find((c) => c.rule === 'PAG-SIZE' && c.replay)?.replay ?? '';
        return replay.includes(`--env-file ${file} --reports ${reports}-replay-`)
          ? []
          : [`the replay line does not carry --env-file and a --reports folder of its own: ${replay || '(none)'}`];
      },
    };
  },
};

/** The caller's environment without anything that configures the suite, a proxy or a CA. */
function cleanEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (/^(API_|CONFORMANCE_|FC_|SANDBOX_|LIVE_|OTHER_)|_PROXY$|^NODE_EXTRA_CA_CERTS$/i.test(name)) continue;
    env[name] = value;
  }
  return env;
}

/**
 * The hang guard: a case fails for its time only past this many times what it takes on a quiet machine. Six: on a
 * machine that other jobs keep busy (a load of 10 on 2 cores) the whole-suite cases took a little over three times.
 */
const HANG_GUARD = 6;
/**
 * The preflight's requests at most: no key, 3 keys on 2 endpoints, 2 more merchants, 3 shorter prefixes, retries, and
 * one per declared collection.
 */
const PREFLIGHT_MAX_REQUESTS = 16;

/**
 * A set-up mistake or a target that does not answer stops the run in seconds: proven by what the run did, not how long
 * it took (a busy machine is slow): no check ran, and it sent no more than the preflight's requests.
 */
function stoppedAtPreflight(dir: string): string[] {
  let matrix: { requests?: number; checks?: Array<{ verdict: string }> };
  try {
    matrix = JSON.parse(readFileSync(`${dir}/conformance.json`, 'utf8'));
  } catch {
    return ['no conformance.json: what the run sent is unknown'];
  }
  const ran = (matrix.checks ?? []).filter((c) => c.verdict !== 'not run').length;
  const sent = matrix.requests ?? Number.NaN;
  return [
    ...(ran > 0 ? [`${ran} check(s) ran: the run did not stop at the preflight`] : []),
    ...(sent <= PREFLIGHT_MAX_REQUESTS
      ? []
      : [`${sent} requests sent, more than the preflight's ${PREFLIGHT_MAX_REQUESTS}`]),
  ];
}

/** The requests a case's run sent, from its rule matrix. */
function requestsOf(scenario: string): number {
  const file = `reports/hostile/${slug(scenario)}/conformance.json`;
  return (JSON.parse(readFileSync(file, 'utf8')) as { requests: number }).requests;
}

const slug = (s: string) =>
  s
    .replace(/[^a-z0-9]+/gi, '-')
    .replace(/^-|-$/g, '')
    .toLowerCase();

async function runCase(c: Case): Promise<HostileResult> {
  const dir = `reports/hostile/${slug(c.scenario)}`;
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const target = await c.start();
  let run: Awaited<ReturnType<typeof runSuite>>;
  let later: string[] = [];
  try {
    run = await runSuite(
      { ...cleanEnv(), ...target.env, CONFORMANCE_REPORTS_DIR: dir, FC_NUM_RUNS: '5', FORCE_COLOR: '0' },
      { args: target.args ?? [], timeoutMs: (HANG_GUARD * c.expected + 30) * 1000 },
    );
  } finally {
    await target.stop();
  }
  later = target.after?.() ?? [];
  const output = `${run.stdout}\n${run.stderr}`;
  writeFileSync(`${dir}/console.txt`, output);
  const keys = [...Object.values(CANARY_KEYS), ...Object.values(target.env).filter((v) => v?.startsWith('sk_'))];
  // The fault case's reports are in the folder it gave (--reports); no other case may scan it while that case writes it.
  const scan = scanPaths([dir, ...(c === FAULT_CASE ? ['reports/hostile/fault-given'] : [])], keys as string[]);
  const problems: string[] = [];
  if (run.status !== c.exit)
    problems.push(`exit ${run.status}, expected ${c.exit}: ${output.trim().split('\n').slice(-3).join(' | ')}`);
  if (run.seconds > HANG_GUARD * c.expected) {
    problems.push(`hung: ${run.seconds.toFixed(1)} s, over ${HANG_GUARD} times the ${c.expected} s it takes`);
  }
  if (c.exit >= 2) problems.push(...stoppedAtPreflight(dir));
  if (c.phrase) {
    const times = output.split('\n').filter((line) => c.phrase?.test(line)).length;
    if (times !== 1) problems.push(`the problem's sentence (${c.phrase.source}) appears ${times} times, not once`);
  }
  if (/t0psecret/.test(output)) problems.push("a redirect's query reached the console");
  problems.push(...later, ...scan.hits.map((h) => `key leak: ${h.file} (${h.form})`));
  const said = c.phrase ? (output.split('\n').find((line) => c.phrase?.test(line)) ?? '').replace(/^Error: /, '') : '';
  return {
    scenario: c.scenario,
    problems,
    detail: `exit ${run.status} in ${run.seconds.toFixed(1)} s${said ? `: ${said.slice(0, 160)}${said.length > 160 ? '…' : ''}` : ''}`,
  };
}

/** Every case, a few at a time. */
export async function runHostile(parallel = 6): Promise<HostileResult[]> {
  const queue = [...CASES, FAULT_CASE];
  const results: HostileResult[] = new Array(queue.length);
  let next = 0;
  const worker = async () => {
    while (next < queue.length) {
      const i = next++;
      const c = queue[i] as Case;
      results[i] = await runCase(c).catch((error: Error) => ({
        scenario: c.scenario,
        problems: [`the case itself failed: ${error.message}`],
        detail: 'not run',
      }));
    }
  };
  await Promise.all(Array.from({ length: parallel }, worker));
  return results;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const started = performance.now();
  for (const r of await runHostile()) {
    console.log(
      `${r.problems.length ? 'FAIL' : 'ok  '} ${r.scenario}: ${r.detail}${r.problems.length ? ` — ${r.problems.join('; ')}` : ''}`,
    );
  }
  console.log(`${((performance.now() - started) / 1000).toFixed(1)} s`);
}
