/**
 * `payment-api-conformance init [--profile sandbox|live] [--force]`: writes the package's example env file into the
 * current folder — `.env` from `.env.example`, or `.env.<profile>` from `.env.<profile>.example` — for the user to fill
 * in. The installed package keeps its examples in its own folder (node_modules/…), which is no place to edit; this
 * puts the right one where the suite reads it. It never overwrites a file (unless --force) and never holds a key.
 */

import { copyFileSync, existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { EXIT_CODES } from '../core/model/outputs.ts';
import { PROFILE_EXAMPLES } from '../core/model/target.ts';
import { commandArgs } from './options.ts';

const USAGE = `Usage: payment-api-conformance init [--profile ${PROFILE_EXAMPLES.join('|')}] [--force]`;

/** The package's folder: one level up from commands/ in a clone, two from dist/commands/ when installed. */
function packageDir(): string {
  for (const up of ['..', '../..']) {
    const dir = fileURLToPath(new URL(`${up}/`, import.meta.url));
    if (existsSync(resolve(dir, '.env.example')) && existsSync(resolve(dir, 'package.json'))) return dir;
  }
  throw new Error('the package has no .env.example (a broken installation)');
}

export async function main(args: string[], cwd = process.cwd()): Promise<number> {
  const options = { profile: { type: 'string' }, force: { type: 'boolean' } } as const;
  const parsed = commandArgs('init', args, options, USAGE);
  if (typeof parsed === 'number') return parsed;
  const { values } = parsed;
  const profile = values.profile?.trim();
  if (profile !== undefined && !(PROFILE_EXAMPLES as readonly string[]).includes(profile)) {
    console.error(
      `init: the package has examples for the profiles ${PROFILE_EXAMPLES.join(' and ')}, not "${profile}"`,
    );
    return EXIT_CODES['bad configuration'];
  }
  const name = profile ? `.env.${profile}` : '.env';
  const target = resolve(cwd, name);
  if (existsSync(target) && !values.force) {
    console.error(`init: ${target} exists already; nothing was written (--force replaces it)`);
    return EXIT_CODES['bad configuration'];
  }
  copyFileSync(resolve(packageDir(), `${name}.example`), target);
  const command = process.env.CONFORMANCE_COMMAND?.trim() || 'npx payment-api-conformance';
  console.log(`Wrote ${target} from the package's ${name}.example.`);
  console.log(
    'Fill in API_BASE_URL, API_TEST_KEY and SANDBOX_MERCHANT_ID (and the optional keys and merchants), then:',
  );
  const allow = profile === 'live' ? 'CONFORMANCE_ALLOW_LIVE=1 ' : '';
  console.log(`  ${allow}${command}${profile ? ` --profile ${profile}` : ''}`);
  return 0;
}
