/**
 * npm test: everything that proves the project, in one command, with the time each stage took.
 *   1. typecheck (tsc) beside lint (biome, markdown code fences, function lengths, madge --circular, knip: dead code)
 *   2. unit and HTTP tests (node:test): mock, checks, schemas, arbitraries, config, helpers
 *   3. the conformance run against the bundled mock, exactly as `npm run conformance` (must pass)
 *   4. the package: npm pack, installed in an empty folder, its command run there (help, exit codes 0/1/2/3, no key)
 *   5. one seed, the same requests: two runs with one FC_SEED send the same set of requests, another seed another
 *   6. proof: the suite against every mock fault (each must be caught by its rule), named combinations of legal
 *      variants and combinations drawn from the legal space (each must pass) — reports/mutation.json,
 *      reports/specificity.json (tests/proof/)
 *   7. the secrets canary: runs against down/hanging/garbage/echoing targets leak no key into any artifact
 *   8. network: through a real proxy to the mock serving TLS; an untrusted certificate; run-wide pacing
 *   9. changing data: against the mock growing under the whole suite, no check fails, they say inconclusive; pages
 *      sorted each on their own fail the sort rules though the data grows
 *  10. evidence: a total that depends on the query fails PAG-TOTAL with no rule inconclusive; pages one record short
 *      name PAG-SIZE the likely cause and every other failure what it may follow from; a brand-new account is
 *      conformant and lists what its data could not exercise (strict: it fails) (tests/e2e/evidence.ts)
 *  11. hostile: first contact — targets that redirect, serve HTML, stall, trickle, reset, send 50 MB, answer with a
 *      BOM, gzip or 1xx, a total of 10^12, and the bundled mock set up wrong: the exit code each deserves, in bounded
 *      time, one sentence, no key (tests/e2e/hostile.ts)
 *  12. the CI user's workflow: known deviations (--write-baseline, --baseline: known, new, fixed, expired), diff of two
 *      runs, requests.ndjson/.har as long as the run says, JUnit failures, --list-rules, `-- --list`, and the HTML pages
 *      (conformance.html, fidelity.html, the Allure report) opened from disk in Chromium with the outcome as headline
 *  13. reports: a folder holds one run, whole, naming its target — a set-up mistake after a conformant run leaves
 *      nothing of it, a replay line writes beside the run, a run stopped by SIGTERM keeps its judged checks
 *      (tests/e2e/reports.ts)
 *  14. time to verdict: against the mock at 10 requests a second, 40 ms away, a progress line at least every 10 s and
 *      every report named at the end; --max-time sends nothing after its budget and names what it left out (it
 *      mostly waits: it runs beside the proof, and reports here)
 *      (tests/e2e/time-to-verdict.ts)
 *  15. artifacts: everything the stages wrote under reports/ holds no key and nothing key-shaped
 * Ends with one line `selftest: N passed, M failed`.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import mockTarget from '../mock/identity.json' with { type: 'json' };
import { runChangingData } from '../tests/e2e/changing-data.ts';
import { runCiWorkflow } from '../tests/e2e/ci-workflow.ts';
import { runEvidence } from '../tests/e2e/evidence.ts';
import { runHostile } from '../tests/e2e/hostile.ts';
import { runNetwork } from '../tests/e2e/network.ts';
import { runPackage } from '../tests/e2e/package.ts';
import { runReports } from '../tests/e2e/reports.ts';
import { runSameSeed } from '../tests/e2e/same-seed.ts';
import { CANARY_KEYS, runCanary } from '../tests/e2e/secrets-canary.ts';
import { runTimeToVerdict } from '../tests/e2e/time-to-verdict.ts';
import { ensureChromium } from '../tests/support/browser.ts';
import { scanRequestMethods } from '../tests/support/methods.ts';
import { KEY_SHAPE } from '../tests/support/scan.ts';
import { scanInParts } from '../tests/support/scan-parts.ts';
import { runSuite } from './run-suite.ts';

interface Stage {
  name: string;
  passed: number;
  failed: number;
  seconds: number;
  /** CPU seconds the stage spent, its own process's and its children's: what overlapping it with another would cost. */
  cpu?: number;
  note: string;
}

/** CPU seconds so far: this process's and its waited-for children's (Linux: /proc/self/stat; elsewhere our own only). */
function cpuSeconds(): number {
  const own = process.cpuUsage();
  let children = 0;
  try {
    // Fields after the command's name in parentheses: cutime and cstime are the 14th and 15th, in clock ticks (100/s).
    const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]?.split(' ') ?? [];
    children = (Number(fields[13]) + Number(fields[14])) / 100;
  } catch {}
  return (own.user + own.system) / 1e6 + (Number.isFinite(children) ? children : 0);
}

const stages: Stage[] = [];
const only = new Set((process.env.SELFTEST_ONLY ?? '').split(',').filter(Boolean));
const want = (name: string) => only.size === 0 || only.has(name);

function run(cmd: string, args: string[], env: NodeJS.ProcessEnv = {}): number {
  const r = spawnSync(cmd, args, { stdio: 'inherit', env: { ...process.env, ...env } });
  return r.status ?? 1;
}

/** `run` that leaves this process's event loop free (a stage running beside it serves a mock from here). */
function runBeside(cmd: string, args: string[]): Promise<number> {
  return new Promise((done) => {
    const child = spawn(cmd, args, { stdio: 'inherit', env: process.env });
    child.on('error', () => done(1));
    child.on('close', (code) => done(code ?? 1));
  });
}

async function stage(
  name: string,
  body: () => Promise<Omit<Stage, 'name' | 'seconds'>> | Omit<Stage, 'name' | 'seconds'>,
) {
  if (!want(name)) return;
  console.log(`\n=== ${name} ===`);
  const t0 = Date.now();
  const cpu0 = cpuSeconds();
  const result = await body();
  const seconds = (Date.now() - t0) / 1000;
  stages.push({ name, seconds, cpu: cpuSeconds() - cpu0, ...result });
  console.log(`=== ${name}: ${result.failed === 0 ? 'ok' : 'FAILED'} (${result.note}) in ${seconds.toFixed(1)} s`);
}

const bin = (name: string) => `node_modules/.bin/${name}`;
const passFail = (ok: boolean, note: string) => ({ passed: ok ? 1 : 0, failed: ok ? 0 : 1, note });
/** A stage made of scenarios: one line each, passed when it found no problem. */
function scenarios(results: Array<{ scenario: string; detail: string; problems: string[] }>, note: string) {
  for (const r of results) {
    const problems = r.problems.length ? ` — ${r.problems.join('; ')}` : '';
    console.log(`${r.problems.length ? 'FAIL' : 'ok  '} ${r.scenario}: ${r.detail}${problems}`);
  }
  const failed = results.filter((r) => r.problems.length).length;
  return { passed: results.length - failed, failed, note };
}

const started = Date.now();
// The typecheck (one core) runs beside the lint (its own processes one after another) and reports after it.
const besideLint = want('typecheck') ? runBeside(bin('tsc'), ['-p', 'tsconfig.json']) : undefined;
await stage('lint', () => {
  const biome = run(bin('biome'), ['check', '.']) === 0;
  const markdown = run(bin('tsx'), ['scripts/lint-markdown.ts']) === 0;
  // No function over 80 lines (scripts/lint-functions.ts); no file, dependency or export that nothing uses (knip.jsonc).
  const sizes = run(bin('tsx'), ['scripts/lint-functions.ts']) === 0;
  const dead = run(bin('knip'), []) === 0;
  // Layers import downward only: no import circle between files (tests/unit/layers.test.ts checks the folders).
  const circles = run(bin('madge'), [
    '--circular',
    '--extensions',
    'ts',
    '--exclude',
    '^(node_modules|dist|reports)/',
    '.',
  ]);
  return passFail(
    biome && markdown && sizes && dead && circles === 0,
    'biome check, markdown fences, functions ≤ 80 lines, knip, madge --circular',
  );
});
await stage('typecheck', async () =>
  passFail((await besideLint) === 0, 'tsc --noEmit, strict (run beside the lint: its time here is what was left)'),
);
await stage('unit', () => {
  const tap = 'reports/unit.tap';
  const code = run('node', [
    '--import',
    'tsx',
    '--test',
    // Two test files at a time (node:test's default is one less than the CPUs: one, on a 2-core machine).
    '--test-concurrency=2',
    '--test-reporter=dot',
    '--test-reporter-destination=stdout',
    '--test-reporter=tap',
    `--test-reporter-destination=${tap}`,
    ...shards(listTests(), 4),
  ]);
  const text = existsSync(tap) ? readFileSync(tap, 'utf8') : '';
  const count = (what: string) => Number(text.match(new RegExp(`^# ${what} (\\d+)`, 'm'))?.[1] ?? 0);
  const passed = count('pass');
  const failed = count('fail') + (code !== 0 && count('fail') === 0 ? 1 : 0);
  return { passed, failed, note: `${passed} passed, ${count('fail')} failed (node:test, ${tap})` };
});
await stage('conformance', async () =>
  passFail(
    (await runSuite(process.env, { inherit: true })).status === 0,
    'npm run conformance against the bundled mock: exit 0, conformant',
  ),
);
await stage('package', async () =>
  scenarios(await runPackage(), 'npm pack, installed in an empty folder, exit codes 0 1 2 3'),
);
await stage('seed', async () => {
  const r = await runSameSeed();
  for (const p of r.problems) console.log(`FAIL ${p}`);
  return passFail(
    r.problems.length === 0,
    `seed ${r.seeds[0]} twice: ${r.sizes[0]} and ${r.sizes[1]} distinct requests${r.problems.length ? '' : ', the same set'}; seed ${r.seeds[1]}: ${r.sizes[2]}${r.problems.length ? '' : ', another'}`,
  );
});
// The time-to-verdict stage waits on a mock at 10 requests a second (about 50 s, a quarter of it CPU): it runs beside
// the proof, which keeps both cores busy, and reports in its place below.
const besideProof = want('time-to-verdict') ? runTimeToVerdict() : undefined;
await stage('proof', async () => {
  const proof = ['node_modules/@playwright/test/cli.js', 'test', '-c', 'tests/proof/playwright.config.ts'];
  const code = await runBeside('node', proof);
  const read = (f: string) => (existsSync(f) ? JSON.parse(readFileSync(f, 'utf8')) : undefined);
  const mutation = read('reports/mutation.json');
  const specificity = read('reports/specificity.json');
  if (!mutation || !specificity)
    return { passed: 0, failed: 1, note: `the proof runs produced no verdict (exit ${code})` };
  const passed = mutation.caught + specificity.clean;
  const failed =
    mutation.total -
    mutation.caught +
    (specificity.total - specificity.clean) +
    (code !== 0 && passed === mutation.total + specificity.total ? 1 : 0);
  return {
    passed,
    failed,
    note: `mutation score ${mutation.score}, ${specificity.clean}/${specificity.total} variant and legal-space runs clean${specificity.legal ? ` (legal space seed ${specificity.legal.seeds.join(', ')})` : ''}`,
  };
});
// The CI user's workflow is mostly one process at a time (its suite runs are small, its pages open in Chromium): it runs
// beside the stages from the secrets canary to the evidence, and reports in its place below.
// Chromium is installed first, if missing (apt-get, synchronous): nothing may block the event loop serving the mocks.
if (want('ci-workflow')) ensureChromium();
const besideSecrets = want('ci-workflow') ? runCiWorkflow() : undefined;
await stage('secrets', async () => {
  const results = await runCanary();
  for (const r of results) {
    const verdict = r.problems.length ? 'FAIL' : 'ok  ';
    console.log(
      `${verdict} canary ${r.scenario}: exit ${r.exitCode}, ${r.keysSent} requests carried a key, ${r.filesScanned} artifact files scanned, ${r.hits.length} hits${r.problems.length ? ` — ${r.problems.join('; ')}` : ''}`,
    );
    for (const h of r.hits.slice(0, 5)) console.log(`    leak: ${h}`);
  }
  const failed = results.filter((r) => r.problems.length).length;
  return {
    passed: results.length - failed,
    failed,
    note: `${results.length} canary scenarios, 0 key occurrences required`,
  };
});

await stage('network', async () =>
  scenarios(await runNetwork(), 'proxy + TLS, an untrusted certificate, run-wide pacing, bursts on a paced target'),
);

await stage('changing-data', async () => {
  const r = await runChangingData();
  const shown = Object.entries(r.verdicts)
    .map(([id, v]) => `${id} ${v}`)
    .join(', ');
  console.log(shown);
  for (const p of r.problems) console.log(`FAIL ${p}`);
  return passFail(
    r.problems.length === 0,
    'the mock growing under the whole suite: no false alarm, inconclusive where reads disagree',
  );
});

await stage('evidence', async () =>
  scenarios(
    await runEvidence(),
    'a total that depends on the query, pages one record short (the likely cause), a brand-new account: what verdicts rest on',
  ),
);

await stage('ci-workflow', async () =>
  scenarios(
    await (besideSecrets ?? runCiWorkflow()),
    'baseline, diff, request log, JUnit, pages in Chromium from disk (run beside the secrets to the evidence stages; its time here is what was left)',
  ),
);

await stage('hostile', async () =>
  scenarios(await runHostile(), 'first contact: hostile targets and set-up mistakes, side by side'),
);

await stage('reports', async () =>
  scenarios(
    await runReports(),
    'one run per folder, whole, naming its target; replays beside it; SIGTERM keeps verdicts',
  ),
);

await stage('time-to-verdict', async () =>
  scenarios(
    await (besideProof ?? runTimeToVerdict()),
    'a slow, rate-limited mock: the console every 10 s, --max-time kept (run beside the proof; its time here is what was left)',
  ),
);

await stage('artifacts', async () => {
  // Last: every report any stage wrote, for the mock's and the canaries' keys and anything key-shaped.
  const keys = [...Object.values(mockTarget.keys), ...Object.values(CANARY_KEYS)];
  // Every form in every file up to 256 KB; the large request logs as they are (the secrets and ci-workflow stages scan
  // theirs deep, against targets that echo keys in every encoding).
  // The machine is otherwise idle by now: a process per core.
  const roots = ['reports', 'test-results', 'playwright-report'];
  const { files, hits } = await scanInParts(roots, keys, [KEY_SHAPE], 256 * 1024, 2);
  for (const h of hits.slice(0, 10)) console.log(`    leak: ${h.file} (${h.form})`);
  // Read-only: every request log any stage kept holds GET, HEAD and OPTIONS only (and there are logs to read).
  const sent = scanRequestMethods(['reports']);
  for (const u of sent.unsafe) console.log(`    unsafe method: ${u.method} in ${u.file}`);
  const methods = Object.entries(sent.methods)
    .map(([m, n]) => `${n} ${m}`)
    .join(', ');
  const readOnly = sent.unsafe.length === 0 && (sent.files > 0 || only.size > 0);
  return passFail(
    hits.length === 0 && readOnly,
    `${files} files under reports/ scanned, ${hits.length} key occurrences; ${sent.files} request logs: ${methods || 'none'}`,
  );
});

/**
 * The test files in `n` entry files, each importing its share (dealt in turn): node:test starts a process per file it is
 * given, and a process that loads the suite's modules costs about a second of CPU; 76 files cost more in starting than
 * in testing. The files of a share run in one process, one after another, as they would in their own.
 */
function shards(files: string[], n: number): string[] {
  const dir = mkdtempSync(join(tmpdir(), 'unit-shards-'));
  return Array.from({ length: Math.min(n, files.length) }, (_, i) => {
    const entry = join(dir, `shard-${i + 1}.test.mts`);
    const mine = files.filter((_, j) => j % n === i);
    writeFileSync(entry, mine.map((f) => `import ${JSON.stringify(pathToFileURL(resolve(f)).href)};\n`).join(''));
    return entry;
  });
}

function listTests(): string[] {
  const r = spawnSync('sh', ['-c', 'ls tests/*/*.test.ts'], { encoding: 'utf8' });
  return r.stdout.split('\n').filter(Boolean);
}

const total = (Date.now() - started) / 1000;
console.log('\nStage        result  passed  failed  seconds  cpu s');
for (const s of stages) {
  const cpu = s.cpu === undefined ? '' : s.cpu.toFixed(1);
  console.log(
    `${s.name.padEnd(12)} ${s.failed ? 'FAIL' : 'ok  '}    ${String(s.passed).padStart(6)}  ${String(s.failed).padStart(6)}  ${s.seconds.toFixed(1).padStart(7)}  ${cpu.padStart(5)}  ${s.note}`,
  );
}
const cpuTotal = stages.reduce((n, s) => n + (s.cpu ?? 0), 0);
console.log(`Total time: ${total.toFixed(1)} s (${cpuTotal.toFixed(1)} s of CPU)`);
const passed = stages.reduce((n, s) => n + s.passed, 0);
const failed = stages.reduce((n, s) => n + s.failed, 0);
console.log(`selftest: ${passed} passed, ${failed} failed`);
process.exitCode = failed === 0 && stages.length > 0 ? 0 : 1;
