/**
 * The mock for `npm run bench`: prints its URL, then per line on stdin its resident memory and, after a full GC
 * (node --expose-gc), its heap in use (bytes, space-separated); ends with stdin.
 */
import { createInterface } from 'node:readline';
import { startMock } from '../../mock/index.ts';

const mock = await startMock({ port: 0 });
process.stdout.write(`${mock.url}\n`);
createInterface({ input: process.stdin })
  .on('line', () => {
    (globalThis as { gc?: () => void }).gc?.();
    process.stdout.write(`${process.memoryUsage().rss} ${process.memoryUsage().heapUsed}\n`);
  })
  .on('close', () => void mock.stop().then(() => process.exit(0)));
