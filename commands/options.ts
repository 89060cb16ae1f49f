/**
 * The one argument parser of the subcommands (`init`, `merge`, `diff`, `report`, `rules`, `fidelity`): node:util's parseArgs,
 * strict, with `-h`/`--help` for each. A usage error prints `<command>: <what>` and the usage line, and is a bad
 * configuration (exit 2); `--help` prints the usage line (exit 0).
 */
import { type ParseArgsConfig, parseArgs } from 'node:util';
import { EXIT_CODES } from '../core/model/outputs.ts';

type Options = NonNullable<ParseArgsConfig['options']>;

/** The values and positionals of a command's arguments, or the exit code when it should stop here (help, misuse). */
export function commandArgs<O extends Options>(
  command: string,
  args: string[],
  options: O,
  usage: string,
  allowPositionals = false,
) {
  try {
    const all = { ...options, help: { type: 'boolean', short: 'h' } } as const;
    const parsed = parseArgs({ args, options: all, allowPositionals, strict: true });
    if ((parsed.values as { help?: boolean }).help) {
      console.log(usage);
      return 0;
    }
    return parsed;
  } catch (error) {
    console.error(`${command}: ${(error as Error).message}\n${usage}`);
    return EXIT_CODES['bad configuration'];
  }
}
