/** The console table of `npm run bench`: the figures of reports/bench.json, short. */
import type { LoadResult } from './load.ts';
import {
  type CapacityBench,
  type ConformanceBench,
  listPath,
  type MemoryBench,
  mb,
  type PrismBench,
  signed,
} from './steps.ts';

export interface TargetRow {
  name: string;
  value: number | null;
  /** The value as shown, with its unit. */
  shown: string;
  target: string;
  /** null: not measured (the table says why in `note`). */
  met: boolean | null;
  note?: string;
}

export interface Comparison {
  connections: number;
  mockRequestsPerSecond: number;
  prismRequestsPerSecond: number;
  ratio: number;
  mockP99Ms: number;
  prismP99Ms: number;
  prismNon2xx: number;
}

export interface RenderInput {
  header: string;
  conformance: ConformanceBench | null;
  capacity: CapacityBench | null;
  suiteRatio: number | null;
  prism: (PrismBench & { skipped: boolean; comparison: Comparison[] }) | null;
  memory: MemoryBench | null;
  memorySeconds: number;
  targets: TargetRow[];
  notes: string[];
}

function table(rows: string[][], indent = '  '): string {
  const widths = rows[0]?.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length))) ?? [];
  return rows
    .map((r) => indent + r.map((cell, i) => (i < r.length - 1 ? cell.padEnd(widths[i] ?? 0) : cell)).join('  '))
    .join('\n');
}

const n0 = (n: number) => Math.round(n).toLocaleString('en-US');
const loadFlag = (r: LoadResult) => (r.non2xx + r.errors + r.timeouts > 0 ? ' FLAG' : '');

export function render(x: RenderInput): string {
  const out: string[] = [x.header, ''];

  const c = x.conformance;
  out.push(
    `Conformance run against the bundled mock (${c ? `${c.runs.length} run${c.runs.length === 1 ? '' : 's'}` : 'not measured'})`,
  );
  if (c?.wallSeconds) {
    const exits = c.runs.map((r) => (r.exitCode === null ? `${r.signal}` : String(r.exitCode))).join(', ');
    out.push(
      table([
        [
          'wall time',
          `median ${c.wallSeconds.median.toFixed(2)} s (min ${c.wallSeconds.min.toFixed(2)}, max ${c.wallSeconds.max.toFixed(2)})`,
        ],
        [
          'exit codes',
          `${exits}${c.failedRuns ? `  (${c.failedRuns} FAILED run${c.failedRuns === 1 ? '' : 's'})` : ''}`,
        ],
        ['requests sent', c.requests === null ? 'unknown (no conformance.json)' : `${n0(c.requests)} (median)`],
        [
          'request rate',
          c.requestsPerSecond === null
            ? '—'
            : `${c.requestsPerSecond.toFixed(1)} req/s (median requests / median wall)`,
        ],
        [
          'time split',
          c.runs
            .map((r) =>
              r.playwrightSeconds === null
                ? '—'
                : `${r.playwrightSeconds.toFixed(1)} s Playwright run (${r.tests} tests: ${r.testSecondsSummed?.toFixed(1)} s summed over workers) + ${(r.wallSeconds - r.playwrightSeconds).toFixed(1)} s start/exit`,
            )
            .join('\n                 '),
        ],
      ]),
    );
  }
  out.push('');

  const cap = x.capacity;
  out.push(`Mock capacity (autocannon, GET ${listPath(0).replace(/\d+$/, '…')})`);
  if (cap) {
    out.push(
      table([
        ['limit', 'conns', 'req/s', 'p99 ms', 'non-2xx', 'errors'],
        ...cap.runs.map((r) => [
          r.path.replace(/^.*limit=/, ''),
          String(r.connections),
          n0(r.requestsPerSecond),
          String(r.latencyMs.p99),
          `${r.non2xx}${loadFlag(r)}`,
          String(r.errors + r.timeouts),
        ]),
      ]),
    );
    if (x.suiteRatio !== null && c?.requestsPerSecond != null) {
      out.push(`  suite rate / 1-connection limit=10 rate: ${x.suiteRatio.toFixed(3)}`);
    }
  }
  out.push('');

  const p = x.prism;
  out.push('Mock vs Prism (limit=10)');
  if (!p) out.push('  NOT MEASURED (see the error below)');
  else if (p.skipped) out.push('  skipped (--skip-prism)');
  else if (!p.started) out.push(`  NOT MEASURED: ${p.error ?? 'Prism did not start'}`);
  else {
    out.push(
      table([
        ['conns', 'mock req/s', 'Prism req/s', 'mock/Prism', 'mock p99 ms', 'Prism p99 ms', 'Prism non-2xx'],
        ...p.comparison.map((r) => [
          String(r.connections),
          n0(r.mockRequestsPerSecond),
          n0(r.prismRequestsPerSecond),
          `${r.ratio.toFixed(1)}×`,
          String(r.mockP99Ms),
          String(r.prismP99Ms),
          `${r.prismNon2xx}${r.prismNon2xx ? ' FLAG' : ''}`,
        ]),
      ]),
    );
    if (p.error) out.push(`  ${p.error}`);
  }
  out.push('');

  const m = x.memory;
  out.push(`Mock memory (VmRSS, ${x.memorySeconds} s at 10 connections, limit=10)`);
  if (m) {
    out.push(
      table([
        ['start', 'end', 'growth', 'peak (VmHWM)', 'req/s', 'non-2xx'],
        [
          `${mb(m.startKB)} MB`,
          `${mb(m.endKB)} MB`,
          `${signed(m.growthPercent)}%`,
          `${mb(m.peakKB)} MB`,
          n0(m.load.requestsPerSecond),
          `${m.load.non2xx}${loadFlag(m.load)}`,
        ],
      ]),
    );
    if (m.growthAfterFirstSamplePercent !== null) {
      out.push(
        `  after the first ${m.samples[0]?.seconds ?? 0} s under load: ${mb(m.samples[0]?.rssKB ?? 0)} → ${mb(m.endKB)} MB (${signed(m.growthAfterFirstSamplePercent)}%)`,
      );
    }
  }
  out.push('');

  out.push('Targets');
  out.push(
    table([
      ['target', 'value', 'threshold', 'met'],
      ...x.targets.map((t) => [
        t.name,
        t.shown,
        t.target,
        t.met === null ? `n/a${t.note ? ` (${t.note})` : ''}` : t.met ? 'yes' : 'NO',
      ]),
    ]),
  );
  for (const note of x.notes) out.push(`Note: ${note}`);
  return out.join('\n');
}
