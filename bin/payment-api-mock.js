#!/usr/bin/env node
/**
 * payment-api-mock: the reference mock of the payment API, as installed with the package (`--help` lists its
 * options: port, variants, faults, TLS). In a clone, `npm run mock` runs the same CLI from the sources.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const cli = new URL('../dist/mock/cli.js', import.meta.url);
if (!existsSync(fileURLToPath(cli))) {
  console.error('payment-api-mock: this installation has no compiled mock (dist/); in a clone, run `npm run mock`');
  process.exit(1);
}
const { main } = await import(cli.href);
process.exitCode = await main(process.argv.slice(2));
