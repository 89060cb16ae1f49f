/**
 * `payment-api-conformance rules [--json]` (and `--list-rules`): the rule catalogue — id, spec section, level,
 * requirement — as a table or as JSON. It runs nothing, reads no target and writes nothing.
 */

import { RULES } from '../core/model/rules.ts';
import { commandArgs } from './options.ts';

const USAGE = 'Usage: payment-api-conformance rules [--json]   (also: payment-api-conformance --list-rules)';

/** The catalogue as aligned text, one rule a line. */
function rulesTable(): string {
  const w = (f: (r: (typeof RULES)[number]) => string) => Math.max(...RULES.map((r) => f(r).length));
  const [id, section, level] = [w((r) => r.id), w((r) => r.section), w((r) => r.level)];
  const line = (a: string, b: string, c: string, d: string) =>
    `${a.padEnd(id)}  ${b.padEnd(section)}  ${c.padEnd(level)}  ${d}`;
  return [
    line('rule', 'section', 'level', 'requirement'),
    ...RULES.map((r) => line(r.id, r.section, r.level, r.requirement)),
  ].join('\n');
}

export async function main(args: string[]): Promise<number> {
  const parsed = commandArgs('rules', args, { json: { type: 'boolean' } } as const, USAGE);
  if (typeof parsed === 'number') return parsed;
  const { values } = parsed;
  if (values.json)
    console.log(
      JSON.stringify(
        RULES.map(({ id, section, level, requirement }) => ({ id, section, level, requirement })),
        null,
        2,
      ),
    );
  else
    console.log(
      `${rulesTable()}\n\n${RULES.length} rules; --grep takes any of these ids (or a regular expression of them).`,
    );
  return 0;
}
