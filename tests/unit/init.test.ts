/**
 * `payment-api-conformance init` (commands/init.ts) writes the package's example env file into the current folder,
 * never over a file that is there; and replay lines carry the options the user gave (core/run/property.ts `rerun`).
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { main } from '../../commands/init.ts';
import { replayFolder, replayLine, rerun } from '../../core/run/property.ts';

const dir = mkdtempSync(join(tmpdir(), 'init-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** Runs init in `dir`, quietly; its exit code. */
async function init(args: string[]): Promise<number> {
  const [log, error] = [console.log, console.error];
  console.log = console.error = () => {};
  try {
    return await main(args, dir);
  } finally {
    [console.log, console.error] = [log, error];
  }
}

describe('init', () => {
  test('writes .env from .env.example, and .env.<profile> from its example', async () => {
    assert.equal(await init([]), 0);
    assert.equal(readFileSync(join(dir, '.env'), 'utf8'), readFileSync('.env.example', 'utf8'));
    for (const profile of ['sandbox', 'live']) {
      assert.equal(await init(['--profile', profile]), 0);
      assert.equal(readFileSync(join(dir, `.env.${profile}`), 'utf8'), readFileSync(`.env.${profile}.example`, 'utf8'));
    }
  });

  test('never overwrites a file (exit 2) unless --force; refuses a profile it has no example for', async () => {
    writeFileSync(join(dir, '.env.sandbox'), 'API_TEST_KEY=mine\n');
    assert.equal(await init(['--profile', 'sandbox']), 2);
    assert.equal(readFileSync(join(dir, '.env.sandbox'), 'utf8'), 'API_TEST_KEY=mine\n');
    assert.equal(await init(['--profile', 'sandbox', '--force']), 0);
    assert.notEqual(readFileSync(join(dir, '.env.sandbox'), 'utf8'), 'API_TEST_KEY=mine\n');
    assert.equal(await init(['--profile', 'staging']), 2);
    assert.equal(existsSync(join(dir, '.env.staging')), false);
    assert.equal(await init(['--unknown']), 2);
  });
});

describe('replay lines', () => {
  test('carry the command and options the user gave (CONFORMANCE_INVOCATION), else the npm script of a clone', () => {
    const given = 'npx payment-api-conformance --env-file ci.env --profile sandbox';
    assert.equal(rerun({ CONFORMANCE_INVOCATION: given }), given);
    assert.equal(rerun({}), 'npm run conformance --');
  });

  test('write to a folder of their own beside the run folder, named by seed and check, never over the run', () => {
    const cwd = '/work/app';
    const title = 'PAG-SIZE any request on any listing (offset, limit)';
    assert.equal(
      replayFolder('reports', 42, title, cwd),
      'reports-replay-42-pag-size-any-request-on-any-listing-offset-limit',
    );
    assert.equal(
      replayFolder('/work/app/out/faulty', 42, title, cwd).startsWith('out/faulty-replay-42-pag-size-'),
      true,
    );
    assert.equal(
      replayFolder('/elsewhere/r', 7, 'LIM-CAP x', cwd),
      '/elsewhere/r-replay-7-lim-cap-x',
      'outside: absolute',
    );
    // A replay's own replay lines name its folder again, not a folder inside or beside it.
    const once = replayFolder('reports', 42, title, cwd);
    assert.equal(replayFolder(once, 42, title, cwd), once);
    const env = {
      CONFORMANCE_INVOCATION: 'npx payment-api-conformance --env-file ci.env',
      CONFORMANCE_REPORTS_DIR: 'out dir',
    };
    assert.equal(
      replayLine(42, '3:1', 'LIM-CAP limit above 100', env).replace(process.cwd(), '.'),
      "FC_SEED=42 FC_PATH=3:1 npx payment-api-conformance --env-file ci.env --reports 'out dir-replay-42-lim-cap-limit-above-100' --grep 'LIM-CAP limit above 100'",
    );
  });
});
