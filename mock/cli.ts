/**
 * `npm run mock -- [options]` (installed: `payment-api-mock [options]`): runs the mock until SIGINT/SIGTERM and prints the env a client needs.
 * Exit codes: 0 clean shutdown or listing, 1 could not start (e.g. port in use), 2 bad option.
 */
import { rmSync, writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import {
  type Calibration,
  describeVariants,
  FAULTS,
  faultsByCollection,
  IDENTITY,
  type RunningMock,
  readCalibration,
  resolveVariants,
  startMock,
  TEST_CA,
  VARIANT_DIMENSIONS,
} from './index.ts';

export const USAGE = `Usage: payment-api-mock [options]   (in a clone: npm run mock -- [options])

  --port N                 port (default ${IDENTITY.mockPort}; 0 = any free port)
  --host HOST              address to bind (default ${IDENTITY.host})
  --seed N                 data seed (default ${IDENTITY.seed})
  --variant NAME=VALUE     a legal choice where the spec is silent; repeatable, comma lists allowed
  --calibration FILE       answer like another API: the variants and shapes a calibration chose (fidelity
                           --calibrate writes FILE); --variant flags given as well win
  --fault NAME             switch on a named deviation from the spec; repeatable; NAME@refunds: on the example
                           collection's requests only
  --grow N                 the data set grows: after every N-th request, one new payment in every listing
  --tls                    serve HTTPS with the test-only certificate of mock/tls/ (127.0.0.1, localhost)
  --rate-limit N           allow N requests in any second; beyond that 429 with Retry-After (RateLimit headers)
  --latency MS             hold each request MS milliseconds before answering (a distant target)
  --port-file FILE         write the port to FILE once listening (for scripts that start it with --port 0)
  --quiet                  print nothing
  --list-variants          print the variant dimensions and exit
  --list-faults            print the fault catalogue and exit
  --help                   print this help and exit`;

const OPTIONS = {
  port: { type: 'string' },
  host: { type: 'string' },
  seed: { type: 'string' },
  variant: { type: 'string', multiple: true },
  calibration: { type: 'string' },
  fault: { type: 'string', multiple: true },
  grow: { type: 'string' },
  tls: { type: 'boolean' },
  'rate-limit': { type: 'string' },
  latency: { type: 'string' },
  'port-file': { type: 'string' },
  quiet: { type: 'boolean' },
  'list-variants': { type: 'boolean' },
  'list-faults': { type: 'boolean' },
  help: { type: 'boolean' },
} as const;

/** Where the CLI writes; lines without their newline. */
export interface CliIo {
  out(line: string): void;
  err(line: string): void;
  /** Resolves when the process is asked to stop (SIGINT/SIGTERM). */
  stopSignal(): Promise<void>;
}

const processIo: CliIo = {
  out: (line) => void process.stdout.write(`${line}\n`),
  err: (line) => void process.stderr.write(`${line}\n`),
  stopSignal: () =>
    new Promise((resolve) => {
      process.once('SIGINT', () => resolve());
      process.once('SIGTERM', () => resolve());
    }),
};

class UsageError extends Error {}

/** The calibration read (`--calibration FILE`) and the variants in force: its own, then the flags' (which win). */
function chosenVariants(file: string | undefined, flags: readonly string[] = []) {
  const calibration = file === undefined ? undefined : readCalibration(file);
  const variants = [...Object.entries(calibration?.variants ?? {}).map(([n, v]) => `${n}=${v}`), ...flags];
  resolveVariants(variants);
  return { calibration, variants };
}

/** What a calibration's shapes reshape, in words. */
function shapesSummary(c: Calibration | undefined): string {
  const s = c?.shapes ?? {};
  const parts = [
    s.errors?.length ? `${s.errors.length} error shape(s)` : '',
    s.status ? 'the status body' : '',
    s.envelope ? `envelope fields ${Object.keys(s.envelope).join(', ')}` : '',
    s.headers ? `headers ${Object.keys(s.headers).join(', ')}` : '',
    s.statuses
      ? `statuses ${Object.entries(s.statuses)
          .map(([m, a]) => `${m} as ${a}`)
          .join(', ')}`
      : '',
  ].filter(Boolean);
  return parts.length ? `shapes: ${parts.join('; ')}` : 'variants only';
}

function table(rows: string[][]): string {
  const widths = rows[0]?.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length))) ?? [];
  return rows
    .map((r) => r.map((cell, i) => (i < r.length - 1 ? cell.padEnd(widths[i] ?? 0) : cell)).join('  '))
    .join('\n');
}

function integer(name: string, raw: string | undefined, min: number, max: number): number | undefined {
  if (raw === undefined) return undefined;
  const n = /^-?\d+$/.test(raw) ? Number(raw) : Number.NaN;
  if (!(n >= min && n <= max)) throw new UsageError(`--${name} must be an integer from ${min} to ${max}, got "${raw}"`);
  return n;
}

/** The text printed for --help, --list-variants or --list-faults, if one was asked for. */
function listing(values: { help?: boolean; 'list-variants'?: boolean; 'list-faults'?: boolean }): string | undefined {
  if (values.help) return USAGE;
  if (values['list-variants']) {
    const rows = VARIANT_DIMENSIONS.map((d) => [d.name, d.values.join(' | '), d.values[0], d.description]);
    return table([['VARIANT', 'VALUES', 'DEFAULT', 'DESCRIPTION'], ...rows]);
  }
  if (values['list-faults']) {
    return table([['FAULT', 'RULE', 'DESCRIPTION'], ...FAULTS.map((f) => [f.name, f.rule, f.description])]);
  }
  return undefined;
}

/** Runs the CLI; resolves with the exit code (after a stop signal when the mock was started). */
export async function main(argv: string[], io: CliIo = processIo): Promise<number> {
  let values: ReturnType<typeof parseArgs<{ options: typeof OPTIONS }>>['values'];
  let port: number;
  let seed: number | undefined;
  let grow: number | undefined;
  let rateLimit: number | undefined;
  let latencyMs: number | undefined;
  let chosen: ReturnType<typeof chosenVariants>;
  try {
    ({ values } = parseArgs({ args: argv, options: OPTIONS, strict: true, allowPositionals: false }));
    port = integer('port', values.port, 0, 65535) ?? IDENTITY.mockPort;
    seed = integer('seed', values.seed, 0, 2 ** 32 - 1);
    grow = integer('grow', values.grow, 1, 2 ** 31 - 1);
    rateLimit = integer('rate-limit', values['rate-limit'], 1, 1_000_000);
    latencyMs = integer('latency', values.latency, 0, 60_000);
    if (values['port-file'] !== undefined && !values['port-file'].trim())
      throw new UsageError('--port-file needs a file name');
    chosen = chosenVariants(values.calibration, values.variant);
    faultsByCollection(values.fault ?? []);
  } catch (err) {
    io.err(`mock: ${err instanceof Error ? err.message : String(err)} (see --help)`);
    return 2;
  }

  const text = listing(values);
  if (text !== undefined) {
    io.out(text);
    return 0;
  }

  let mock: RunningMock;
  try {
    mock = await startMock({
      port,
      host: values.host,
      seed,
      variants: chosen.variants,
      shapes: chosen.calibration?.shapes,
      faults: values.fault,
      tls: values.tls,
      grow: grow === undefined ? undefined : { every: grow },
      rateLimit,
      latencyMs,
    });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const where = `${values.host ?? IDENTITY.host}:${port}`;
    io.err(
      code === 'EADDRINUSE'
        ? `mock: port ${port} is already in use (${where})`
        : `mock: cannot listen on ${where}: ${code ?? String(err)}`,
    );
    return 1;
  }

  // Written once listening, so that a script that started the mock in the background knows when and where it is.
  if (values['port-file']) writeFileSync(values['port-file'], `${mock.port}\n`);
  if (!values.quiet) {
    io.out(`Mock payment API listening on ${mock.url}`);
    for (const [name, value] of Object.entries(mock.env)) io.out(`${name}=${value}`);
    io.out(`# variants: ${describeVariants(mock.variants)}`);
    if (values.calibration) io.out(`# calibration: ${values.calibration} (${shapesSummary(chosen.calibration)})`);
    io.out(`# faults: ${mock.faults.length > 0 ? mock.faults.join(', ') : 'none'}`);
    if (grow !== undefined) {
      io.out(
        `# data grows: one new payment in every listing after every ${grow === 1 ? 'request' : `${grow} requests`}`,
      );
    }
    // A comment, not a variable: NODE_EXTRA_CA_CERTS is read when Node starts, so it belongs in the client's shell.
    if (values.tls) io.out(`# trust the test-only certificate with: NODE_EXTRA_CA_CERTS=${TEST_CA}`);
    if (rateLimit || latencyMs)
      io.out(
        `# rate limit: ${rateLimit ? `${rateLimit} requests/s, then 429` : 'none'}; latency: ${latencyMs ?? 0} ms`,
      );
  }
  await io.stopSignal();
  await mock.stop();
  if (values['port-file']) rmSync(values['port-file'], { force: true });
  return 0;
}

// Run only as the entry point (`tsx mock/cli.ts`), not when imported by tests.
if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = await main(process.argv.slice(2));
}
