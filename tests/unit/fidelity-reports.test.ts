/**
 * The reports of a fidelity run, as the conformance run writes its own: `--reports DIR` (and `--out`), one set per
 * run naming every target, the console saying where they went, a difference told a legal choice or a rule broken,
 * a skipped case showing why, one JUnit test case per case, requests counted as requests.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { main } from '../../fidelity/main.ts';
import { type RunningMock, startMock } from '../../mock/index.ts';

const dir = mkdtempSync(join(tmpdir(), 'fidelity-reports-'));
let mocks: RunningMock[] = [];
const files: string[] = [];

before(async () => {
  mocks = await Promise.all([
    startMock({ port: 0 }),
    startMock({ port: 0, variants: ['errors=problem'] }),
    startMock({ port: 0, faults: ['uncapped'] }),
  ]);
  for (const [i, m] of mocks.entries()) {
    files.push(join(dir, `${i}.env`));
    writeFileSync(
      files[i] as string,
      // Without API_OLD_KEY (which the mock prints): the key-rotation case is skipped, and says why.
      `${Object.entries(m.env)
        .filter(([k]) => k !== 'API_OLD_KEY')
        .map(([k, v]) => `${k}=${v}`)
        .join('\n')}\n`,
    );
  }
});
after(async () => {
  await Promise.all(mocks.map((m) => m.stop()));
  rmSync(dir, { recursive: true, force: true });
});

async function run(...argv: string[]) {
  const out: string[] = [];
  const code = await main(argv, { out: (l) => void out.push(l), err: (l) => void out.push(l) });
  return { code, lines: out.join('\n').split('\n') };
}

describe('fidelity reports', () => {
  test('--reports DIR: the console says where they went, the summary last; one set per run, others left alone', async () => {
    const reports = join(dir, 'r');
    mkdirSync(reports, { recursive: true });
    writeFileSync(join(reports, 'fidelity.md'), 'STALE');
    writeFileSync(join(reports, 'conformance.json'), '{}');
    const r = await run(files[0] as string, files[1] as string, '--reports', reports, '--runs', '4');
    assert.equal(r.code, 0);
    assert.match(r.lines.at(-1) ?? '', /^fidelity: \d+\/\d+ cases answered alike \(\d+ skipped\)$/);
    assert.match(
      r.lines.at(-2) ?? '',
      /^Reports: .*fidelity\.html, .*fidelity\.md, .*fidelity\.json, .*fidelity-junit\.xml$/,
    );
    assert.match(
      r.lines.join('\n'),
      /\d+ differ: \d+ legal choice\(s\) \(both answers within the rules\), 0 where an answer breaks a rule/,
    );
    assert.ok(!readFileSync(join(reports, 'fidelity.md'), 'utf8').includes('STALE'));
    assert.equal(
      readFileSync(join(reports, 'conformance.json'), 'utf8'),
      '{}',
      'another command’s report is left alone',
    );
    const out = join(dir, 'out');
    assert.equal((await run(files[0] as string, files[1] as string, '--out', out, '--runs', '2')).code, 0);
    assert.ok(existsSync(join(out, 'fidelity-junit.xml')), '--out is --reports');
  });

  test('a rule broken is told from a legal choice; JUnit has one test case per case; a skipped case says why', async () => {
    const reports = join(dir, 'three');
    const r = await run(
      files[0] as string,
      files[1] as string,
      files[2] as string,
      '--reports',
      reports,
      '--runs',
      '4',
    );
    assert.equal(r.code, 0);
    const json = JSON.parse(readFileSync(join(reports, 'fidelity.json'), 'utf8'));
    const kinds = new Set(json.results.map((x: { kind?: string }) => x.kind));
    assert.ok(kinds.has('legal choice') && kinds.has('breaks a rule'), [...kinds].join(', '));
    const broken = json.results.find((x: { kind?: string }) => x.kind === 'breaks a rule');
    assert.match(broken.breaks.join(';'), /C breaks LIM-CAP/);
    assert.equal(json.targets.length, 3);
    const junit = readFileSync(join(reports, 'fidelity-junit.xml'), 'utf8');
    assert.equal((junit.match(/<testcase /g) ?? []).length, json.results.length);
    const differing = json.results.filter(
      (x: { differences: unknown[]; skipped?: string }) => !x.skipped && x.differences.length,
    );
    assert.equal((junit.match(/<failure /g) ?? []).length, differing.length);
    assert.match(junit, /<failure message="breaks a rule \(C breaks LIM-CAP\)[^"]*" type="breaks a rule">/);
    assert.match(junit, /<failure message="legal choice: [^"]*" type="legal choice">/);
    assert.match(junit, /<skipped message="needs API_OLD_KEY"\/>/);
    for (const m of mocks) assert.ok(junit.includes(m.url), 'every target named');
    const html = readFileSync(join(reports, 'fidelity.html'), 'utf8');
    assert.match(html, /skipped: needs API_OLD_KEY/);
    assert.match(html, /\d+ requests/);
    assert.ok(!/GETs/.test(html), 'requests are counted as requests');
    assert.match(html, /breaks a rule: C breaks LIM-CAP/);
  });
});
