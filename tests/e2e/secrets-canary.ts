/**
 * Secrets canary (run by npm test): the real conformance run (playwright.config.ts, all reporters) with
 * canary keys against targets that are down, hang, answer garbage, or echo the key back; then every
 * artifact (HTML report with its embedded zip, JUnit, JSON, Allure results, test-results, the rule
 * matrix, conformance.html, the request log requests.ndjson and requests.har) and the run's console output are scanned for the canary keys in all their forms. Zero hits
 * required, and the echoing target must have received and reflected the keys (else the scan proves nothing).
 */
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { runSuite } from '../../scripts/run-suite.ts';
import { closedPort, type HostileKind, startHostileTarget } from '../support/hostile-targets.ts';
import { scanInParts } from '../support/scan-parts.ts';

export const CANARY_KEYS = {
  API_TEST_KEY: 'sk_test_CANARYt3stQx7Lm2Vb9Nc4Zp8R',
  API_LIVE_KEY: 'sk_live_CANARYl1veWk3Hj6Tg1Fd5Sa0E',
  API_RESTRICTED_KEY: 'sk_test_CANARYr3strYu2Io7Pl4Kj9Mh',
  API_REVOKED_KEY: 'sk_test_CANARYr3vokBn8Gv3Cx6Zl1Qw',
  API_OLD_KEY: 'sk_live_CANARY0ldKeyAs5Df2Gh7Jk4Lz',
};

export interface CanaryResult {
  scenario: string;
  exitCode: number | null;
  filesScanned: number;
  hits: string[];
  keysSent: number;
  problems: string[];
}

/** The command's exit code each target must get: no answer is inconclusive (3), a wrong answer nonconformant (1). */
const EXPECTED_EXIT: Record<'down' | HostileKind, number> = { down: 3, hang: 3, garbage: 1, echo: 1 };

async function runScenario(scenario: 'down' | HostileKind): Promise<CanaryResult> {
  const target = scenario === 'down' ? undefined : await startHostileTarget(scenario);
  const baseURL = target?.url ?? `http://127.0.0.1:${await closedPort()}`;
  const dir = `reports/canary/${scenario}`;
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const env = {
    ...process.env,
    ...CANARY_KEYS,
    API_BASE_URL: baseURL,
    SANDBOX_MERCHANT_ID: 'msb_canary',
    LIVE_MERCHANT_ID: 'mlv_canary',
    OTHER_SANDBOX_MERCHANT_ID: 'msb_canary2',
    CONFORMANCE_PROFILE: '',
    CONFORMANCE_REPORTS_DIR: dir,
    // Short where nothing answers (down, hang: the run ends fast); for a target this process serves, a hang guard only:
    // the CI workflow's stage beside it reads files synchronously here, and a garbage target missed 300 ms, then 2 s, on
    // its first request while this process's event loop was held (exit 3, not 1) on a loaded machine.
    API_TIMEOUT_MS: scenario === 'down' || scenario === 'hang' ? '300' : '15000',
    API_MAX_REQUESTS: scenario === 'hang' ? '12' : '400',
    FC_NUM_RUNS: '3',
    FORCE_COLOR: '0',
  };
  // The run is done in a child process, as a user runs it; its exit code says why it did not pass.
  const child = await runSuite(env);
  await target?.stop();
  writeFileSync(`${dir}/console.txt`, `${child.stdout}\n${child.stderr}`);
  // In a process of its own: this one serves the hostile targets of the other lane and the CI workflow's mocks.
  const scan = await scanInParts([dir], Object.values(CANARY_KEYS), [], Number.POSITIVE_INFINITY, 1);
  const problems: string[] = [];
  if (child.status !== EXPECTED_EXIT[scenario])
    problems.push(`exit ${child.status}, expected ${EXPECTED_EXIT[scenario]} against a target that is ${scenario}`);
  if (target && target.stats.withAuthorization === 0)
    problems.push('no request carried a key: the scan would prove nothing');
  if (scenario === 'echo' && target && target.stats.echoed === 0) problems.push('the target echoed no key back');
  if (scan.hits.length > 0) problems.push(`${scan.hits.length} key leak(s)`);
  // The request log holds every request with its answer (the echoed keys too): the scan must have seen it.
  for (const file of ['requests.ndjson', 'requests.har']) {
    if (!existsSync(`${dir}/${file}`)) problems.push(`no ${file}: the scan could not cover it`);
  }
  // A target that is down gives one clear message, not a failure per check.
  const output = `${child.stdout}\n${child.stderr}`;
  if (scenario === 'down' && (!output.includes('is unreachable') || /\d+ failed/.test(output))) {
    problems.push('a down target did not stop the run with the one "unreachable" message');
  }
  return {
    scenario,
    exitCode: child.status,
    filesScanned: scan.files,
    hits: scan.hits.map((h) => `${h.file} (${h.form})`),
    keysSent: target?.stats.withAuthorization ?? 0,
    problems,
  };
}

/**
 * The scenarios in two lanes side by side: the targets that answer (CPU), and those that do not (waiting). Two suites
 * that answer at once (with the CI workflow's stage beside them) starve the hostile targets, which this process serves:
 * a garbage target then misses the 300 ms API_TIMEOUT_MS of its first request (exit 3, not 1).
 */
export async function runCanary(): Promise<CanaryResult[]> {
  const lane = async (scenarios: ReadonlyArray<'down' | HostileKind>) => {
    const results: CanaryResult[] = [];
    for (const scenario of scenarios) results.push(await runScenario(scenario));
    return results;
  };
  const [silent, answering] = await Promise.all([lane(['down', 'hang']), lane(['echo', 'garbage'])]);
  return [...silent, ...answering];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const results = await runCanary();
  for (const r of results) {
    console.log(
      `${r.problems.length ? 'FAIL' : 'ok  '} canary ${r.scenario}: exit ${r.exitCode}, ${r.keysSent} requests carried a key, ` +
        `${r.filesScanned} artifact files scanned, ${r.hits.length} hits${r.problems.length ? ` — ${r.problems.join('; ')}` : ''}`,
    );
    for (const h of r.hits.slice(0, 5)) console.log(`    leak: ${h}`);
  }
  process.exitCode = results.some((r) => r.problems.length) ? 1 : 0;
}
