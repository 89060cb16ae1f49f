/**
 * The package stage's fidelity scenario (tests/e2e/package.ts): the installed command's `fidelity` subcommand, from the
 * compiled package — two bundled mocks compared with `--reports`, the mock calibrated to one of them
 * (`--calibrate`, every case alike after), and the installed `payment-api-mock` loading the calibration file.
 */
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startMock } from '../../mock/index.ts';

interface Run {
  status: number | null;
  output: string;
}
type Command = (args: string[], log: string, via?: string[]) => Promise<Run>;

/** The scenario's problems and what it saw. */
export async function fidelityScenario(app: string, command: Command): Promise<{ problems: string[]; detail: string }> {
  const [a, b] = await Promise.all([
    startMock({ port: 0, variants: ['over-limit=reject', 'errors=problem', 'ties=reverse'] }),
    startMock({ port: 0 }),
  ]);
  const files = ['a.env', 'b.env'];
  try {
    for (const [i, m] of [a, b].entries()) {
      writeFileSync(
        join(app, files[i] as string),
        `${Object.entries(m.env)
          .map(([k, v]) => `${k}=${v}`)
          .join('\n')}\n`,
      );
    }
    const diff = await command(['fidelity', 'a.env', 'b.env', '--reports', 'out/fidelity'], 'fidelity');
    const calibrated = await command(['fidelity', '--calibrate', 'a.env', '--reports', 'out/calibrated'], 'calibrate');
    const file = join('out', 'calibrated', 'calibration.json');
    const loaded = await command(['--calibration', file, '--list-variants'], 'mock-calibration', [
      join(app, 'node_modules', '.bin', 'payment-api-mock'),
    ]);
    const alike = /^fidelity: (\d+)\/\1 cases answered alike/m.test(calibrated.output);
    const problems = [
      ...(diff.status === 0 && existsSync(join(app, 'out', 'fidelity', 'fidelity-junit.xml'))
        ? []
        : [`fidelity A B: exit ${diff.status}: ${diff.output.slice(-300)}`]),
      ...(calibrated.status === 0 && alike && existsSync(join(app, file))
        ? []
        : [`fidelity --calibrate: exit ${calibrated.status}: ${calibrated.output.slice(-300)}`]),
      ...(calibrated.output.includes(`npx payment-api-mock --calibration ${join(app, file)}`)
        ? []
        : ['--calibrate does not print the installed mock’s command']),
      ...(loaded.status === 0 ? [] : [`payment-api-mock --calibration: exit ${loaded.status}: ${loaded.output}`]),
    ];
    const last = calibrated.output.trim().split('\n').at(-1);
    return { problems, detail: `fidelity A B exit ${diff.status}; --calibrate exit ${calibrated.status} (${last})` };
  } finally {
    await Promise.all([a.stop(), b.stop()]);
    for (const f of files) rmSync(join(app, f), { force: true });
  }
}
