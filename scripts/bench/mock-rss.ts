/** The mock for `npm run bench`: prints its URL, then its resident memory (bytes) per line on stdin; ends with stdin. */
import { createInterface } from 'node:readline';
import { startMock } from '../../mock/index.ts';

const mock = await startMock({ port: 0 });
process.stdout.write(`${mock.url}\n`);
createInterface({ input: process.stdin })
  .on('line', () => process.stdout.write(`${process.memoryUsage().rss}\n`))
  .on('close', () => void mock.stop().then(() => process.exit(0)));
