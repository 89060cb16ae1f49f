/**
 * The bench of the calibration tests (tests/unit/calibrate*.test.ts): a folder of their own, the bundled mock started
 * as the reference A with its env file, and fidelity --calibrate run in-process, quietly.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after } from 'node:test';
import type { CalibrationRecord } from '../../fidelity/calibration-file.ts';
import { main } from '../../fidelity/main.ts';
import { readCalibration, type Shapes, startMock } from '../../mock/index.ts';

export function calibrationBench(prefix: string) {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  after(() => rmSync(dir, { recursive: true, force: true }));
  const quiet = () => {
    const out: string[] = [];
    return { out, io: { out: (l: string) => out.push(l), err: (l: string) => out.push(l) } };
  };

  /** A started with `variants` (and shapes of its own), its env file, and how many requests it received. */
  async function reference(name: string, variants: string[], shapes?: Shapes) {
    let requests = 0;
    const mock = await startMock({ port: 0, variants, shapes, onRequest: () => void requests++ });
    const file = join(dir, `${name}.env`);
    writeFileSync(
      file,
      `${Object.entries(mock.env)
        .map(([k, v]) => `${k}=${v}`)
        .join('\n')}\n`,
    );
    return { mock, file, requests: () => requests };
  }

  async function calibrate(file: string, reports: string, ...more: string[]) {
    const { out, io } = quiet();
    const code = await main(['--calibrate', file, '--reports', reports, ...more], io);
    const record = readCalibration(join(reports, 'calibration.json')) as CalibrationRecord;
    return { code, out: out.join('\n'), record };
  }
  return { dir, reference, calibrate, quiet };
}
