/**
 * The network a CI runner has (run by npm test): the suite, as a user runs it, against the mock serving TLS
 *   - through a real HTTP proxy (HTTPS_PROXY) with the mock's test CA trusted (NODE_EXTRA_CA_CERTS): it passes,
 *     the proxy carried its requests, and nothing it wrote holds a key;
 *   - without that CA: it stops with one message that names NODE_EXTRA_CA_CERTS, and no key;
 * against the plain mock with API_MAX_RPS=20 and two workers: measured at the mock, no 1-second window holds
 * more than 21 requests (the README's promise: the rate, and one more for where a window starts), and the budget
 * API_MAX_REQUESTS is never exceeded; and bursts against a mock paced at 10 requests a second (pacedBursts).
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createProxy } from 'proxy';
import { type MockEnv, type RunningMock, startMock, TEST_CA } from '../../mock/index.ts';
import { runSuite, type SuiteRun } from '../../scripts/run-suite.ts';
import { scanPaths } from '../support/scan.ts';
import { busiestWindow } from '../support/windows.ts';

export interface NetworkResult {
  scenario: string;
  problems: string[];
  detail: string;
}

const PROXY_VARS = ['HTTPS_PROXY', 'https_proxy', 'HTTP_PROXY', 'http_proxy', 'NO_PROXY', 'no_proxy'];

/** The environment of a run against `mock`: its keys and ids, its own reports dir, no proxy or CA of the caller's. */
function runEnv(mock: RunningMock, dir: string, extra: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, ...(mock.env as MockEnv & NodeJS.ProcessEnv) };
  for (const name of [...PROXY_VARS, 'NODE_EXTRA_CA_CERTS']) delete env[name];
  return { ...env, CONFORMANCE_PROFILE: '', CONFORMANCE_REPORTS_DIR: dir, FORCE_COLOR: '0', ...extra };
}

async function run(scenario: string, mock: RunningMock, extra: NodeJS.ProcessEnv, grep: string) {
  const dir = `reports/network/${scenario}`;
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const child: SuiteRun = await runSuite(runEnv(mock, dir, extra), { args: ['--grep', grep] });
  const output = `${child.stdout}\n${child.stderr}`;
  writeFileSync(`${dir}/console.txt`, output);
  const scan = scanPaths(
    [dir],
    Object.values(mock.env).filter((v) => v.startsWith('sk_')),
  );
  return { child, output, leaks: scan.hits.map((h) => `${h.file} (${h.form})`), files: scan.files };
}

async function throughProxy(): Promise<NetworkResult> {
  const mock = await startMock({ tls: true });
  const proxy = createProxy(createServer());
  let tunnels = 0;
  proxy.on('connect', () => {
    tunnels += 1;
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  const proxyURL = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
  try {
    const r = await run(
      'proxy-tls',
      mock,
      { HTTPS_PROXY: proxyURL, NODE_EXTRA_CA_CERTS: TEST_CA },
      '@cutover|KEY-SECRET',
    );
    const problems = [];
    if (r.child.status !== 0) problems.push(`the run failed (exit ${r.child.status})`);
    if (tunnels === 0) problems.push('no request went through the proxy');
    if (r.leaks.length > 0) problems.push(`key leaks: ${r.leaks.slice(0, 3).join(', ')}`);
    return { scenario: 'proxy-tls', problems, detail: `${tunnels} CONNECT tunnels, ${r.files} files scanned` };
  } finally {
    proxy.close();
    await mock.stop();
  }
}

async function untrustedCertificate(): Promise<NetworkResult> {
  const mock = await startMock({ tls: true });
  try {
    const r = await run('untrusted', mock, {}, '@cutover');
    const problems = [];
    if (r.child.status !== 3)
      problems.push(`exit ${r.child.status} against an untrusted certificate, expected 3 (inconclusive)`);
    const mentions = r.output.split('NODE_EXTRA_CA_CERTS').length - 1;
    if (mentions !== 1) problems.push(`the message naming NODE_EXTRA_CA_CERTS appears ${mentions} times, not once`);
    if (r.leaks.length > 0) problems.push(`key leaks: ${r.leaks.slice(0, 3).join(', ')}`);
    return { scenario: 'untrusted-tls', problems, detail: `exit ${r.child.status}, one clear message` };
  } finally {
    await mock.stop();
  }
}

async function pacing(): Promise<NetworkResult> {
  const arrivals: number[] = [];
  const mock = await startMock({ onRequest: () => arrivals.push(performance.timeOrigin + performance.now()) });
  try {
    const budget = 70;
    const r = await run('pacing', mock, { API_MAX_RPS: '20', API_MAX_REQUESTS: String(budget) }, 'AUTH-INVALID');
    const most = busiestWindow(arrivals, 1000);
    const problems = [];
    if (most > 21) problems.push(`${most} requests reached the mock within one second (API_MAX_RPS=20)`);
    if (arrivals.length > budget) problems.push(`${arrivals.length} requests sent, over API_MAX_REQUESTS=${budget}`);
    if (arrivals.length < budget) problems.push(`only ${arrivals.length} requests: the budget was not reached`);
    if (r.leaks.length > 0) problems.push(`key leaks: ${r.leaks.slice(0, 3).join(', ')}`);
    return { scenario: 'pacing', problems, detail: `${arrivals.length} requests, at most ${most} in any second` };
  } finally {
    await mock.stop();
  }
}

/**
 * Two checks of requests in flight together (specs/concurrent.spec.ts), by their titles: a page's echo, and the
 * restricted key's refusal while other keys' requests are in flight (the rest of that file works the same way).
 */
const IN_FLIGHT = 'PAG-ECHO each page in flight|AUTH-FORBIDDEN .* while other';

/**
 * Bursts on a paced target (a sandbox that allows 10 requests a second, 40 ms away) that keeps the principal in state
 * concurrent requests share (the fault principal-in-shared-state): the requests of a burst are reserved together
 * (ledger.ts, reserveTogether), so they are in flight at once there too — PAG-ECHO's check of pages in flight together
 * is judged (not "not exercised": the pace no longer spaces them), no request gets a 429 — and the fault is caught by
 * its rule (AUTH-FORBIDDEN), exit 1. Before, the pace spaced a burst's requests one slot apart and every check of
 * requests in flight together read "not exercised" there.
 */
async function pacedBursts(): Promise<NetworkResult> {
  const mock = await startMock({ rateLimit: 10, latencyMs: 40, faults: ['principal-in-shared-state'] });
  try {
    const r = await run('paced-bursts', mock, {}, IN_FLIGHT);
    const log = 'reports/network/paced-bursts/requests.ndjson';
    const throttled = existsSync(log) ? readFileSync(log, 'utf8').split('"status":429,').length - 1 : 0;
    const problems: string[] = [];
    if (throttled > 0) problems.push(`${throttled} answer(s) 429 to the bursts: the pace's limit was exceeded`);
    if (/not exercised: PAG-ECHO/.test(r.output)) problems.push('PAG-ECHO not exercised: the bursts did not overlap');
    if (r.child.status !== 1 || !/AUTH-FORBIDDEN \(MUST\) failed/.test(r.output))
      problems.push(`exit ${r.child.status} (expected 1, AUTH-FORBIDDEN failing)`);
    if (!/PAG-ECHO\s+MUST\s+pass/.test(r.output))
      problems.push('PAG-ECHO did not pass on the pages in flight together');
    if (r.leaks.length > 0) problems.push(`key leaks: ${r.leaks.slice(0, 3).join(', ')}`);
    return { scenario: 'paced-bursts', problems, detail: `exit ${r.child.status}, AUTH-FORBIDDEN failed, no 429` };
  } finally {
    await mock.stop();
  }
}

/**
 * The proxy and the certificate side by side (each its own mock, proxy and reports folder), then the pacing alone: its
 * mock times each arrival in this process, whose event loop the other mocks would make late and bunch.
 */
export async function runNetwork(): Promise<NetworkResult[]> {
  const [proxy, certificate] = await Promise.all([throughProxy(), untrustedCertificate()]);
  return [proxy, certificate, await pacing(), await pacedBursts()];
}
