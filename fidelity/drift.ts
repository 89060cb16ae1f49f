/**
 * `fidelity --check CALIBRATION A`: has A moved away from the calibration (a vendor changed its behaviour)? The cases
 * of the calibration are asked of A again (the requests of one fidelity run) and each answer compared with what A
 * answered then — its judged aspects, status code and media type; the calibrated mock is asked them too (in-process),
 * for the reports. Exit 1 when any case is answered otherwise than at calibration, naming each; 0 when none.
 */
import { type CalibrationRecord, type Signature, signatureOf } from './calibration-file.ts';
import type { Case } from './cases.ts';
import { compareAnswers, summaryLine } from './compare.ts';
import { casesOf } from './measure.ts';
import { mockCollections, runMock, servedAs } from './mock-runs.ts';
import { consoleText, type FidelityRun, writeReports } from './reports.ts';
import { askAll, firstPages } from './run.ts';
import type { Side } from './targets.ts';

type Io = { out: (line: string) => void; err: (line: string) => void };

/** What changed in a case's answer: `aspect: then → now` for each part that differs. */
function moved(then: Signature, now: Signature): string[] {
  const names = [...new Set([...Object.keys(then), ...Object.keys(now)])];
  return names.filter((n) => then[n] !== now[n]).map((n) => `${n}: ${then[n] ?? 'absent'} → ${now[n] ?? 'absent'}`);
}

/** Whether a file read as a calibration is one `--check` can use (written by `--calibrate`). */
export function isRecord(c: object): c is CalibrationRecord {
  const r = c as Partial<CalibrationRecord>;
  return typeof r.measured === 'object' && typeof r.reference === 'object' && Array.isArray(r.measured?.collections);
}

/** The drift check (module comment); the exit code. */
export async function check(record: CalibrationRecord, file: string, a: Side, dir: string, io: Io): Promise<number> {
  const collections = record.measured.collections;
  a.collections = new Map(collections.map((c) => [c.name, c]));
  const served = servedAs(collections, await mockCollections());
  if (!(await firstPages([a], io.err))) return 1;
  const cases = casesOf(record.measured);
  const asked = cases.filter((c) => record.reference[c.id]);
  const now = await askAll(a, asked);
  const drift = asked.flatMap((c) => {
    const x = now.get(c.id);
    const changes =
      x && typeof x !== 'string' ? moved(record.reference[c.id] as Signature, signatureOf(x)) : ['not asked'];
    return changes.length ? [`${c.id} ${c.rule} ${c.label}: ${changes.join('; ')}`] : [];
  });
  const mock = await runMock(asked, record.variants, { collections: served, shapes: record.shapes });
  const skip = (c: Case) => (record.reference[c.id] ? undefined : 'not compared at calibration');
  const results = compareAnswers(cases, ['A', 'B'], [now, mock.answers], skip);
  const verdict = drift.length
    ? `drift: A answers ${drift.length} of the ${asked.length} cases otherwise than at calibration (${record.measured.target})`
    : `no drift: A answers the ${asked.length} cases of the calibration as it did then`;
  const run: FidelityRun = {
    seed: record.measured.seed,
    runs: record.measured.runs,
    sides: [
      { name: 'A', file: a.file, baseURL: a.target.baseURL, total: a.totals.get('') ?? 0, sent: a.api.sent },
      {
        name: 'B',
        file: `the bundled mock, calibrated (${file})`,
        baseURL: 'in-process',
        total: mock.total,
        sent: mock.sent,
      },
    ],
    results,
    sections: [{ title: 'Drift since the calibration', lines: [verdict, ...drift] }],
    extra: { drift: { calibration: file, cases: asked.length, moved: drift } },
  };
  const written = writeReports(dir, run);
  io.out(
    [
      consoleText(run),
      verdict,
      ...drift.map((d) => `  ${d}`),
      `Reports: ${written.join(', ')}`,
      summaryLine(results),
    ].join('\n'),
  );
  return drift.length ? 1 : 0;
}
