/**
 * `npm run fidelity -- <envA> <envB> [<envC> …] [--seed N] [--runs N] [--out DIR] [--fail-on-diff]`: the same
 * deterministic cases sent to two or more targets (offsets placed against each target's own `total`), every answer
 * judged by the suite's checks, and a per-rule table of where the answers differ from A's (docs/fidelity.md), also as
 * one HTML page (fidelity.html: rules and cases by targets). Exit: 0 ran (differences are findings),
 * 1 differences with --fail-on-diff or a target unreachable, 2 bad usage or env file.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import dotenv from 'dotenv';
import { ApiClient, BudgetExhausted, fetchPage, TargetGone, TransportError } from '../../core/client/http.ts';
import { keyModes } from '../../core/generate/access-cases.ts';
import { PAYMENTS } from '../../core/model/collection.ts';
import { asKey } from '../../core/model/credentials.ts';
import { listingOf, paymentsPath, readEnvelope, requestQuery } from '../../core/model/listing.ts';
import { statusOf } from '../../core/model/result-set.ts';
import { redact } from '../../core/model/secrets.ts';
import type { Target } from '../../core/model/target.ts';
import { sendCase } from '../../core/run/access-property.ts';
import { ConfigError, NO_BUNDLED_MOCK, resolveTarget } from '../../core/run/config.ts';
import { buildCases, type Case, compare, judge, place, type Result, ruleTable, table } from './compare.ts';
import { fidelityHtml } from './html.ts';

export const USAGE = `Usage: npm run fidelity -- <envA> <envB> [<envC> …] [--seed N] [--runs N] [--out DIR] [--fail-on-diff]
  The env files are read like .env.example; A is the reference the others are compared with. --seed (1) and --runs
  (12) fix the cases; --out (reports) gets fidelity.json, fidelity.md and fidelity.html; --fail-on-diff exits 1 when
  any case is answered differently.`;

type Side = { name: string; file: string; env: Record<string, string>; target: Target; api: ApiClient; total: number };

/** Both files, parsed with dotenv (never into process.env) and validated by the suite's own loader. */
export function loadSides(files: string[]): Side[] {
  return files.map((file, i) => {
    const name = String.fromCharCode(65 + i);
    try {
      const env = dotenv.parse(readFileSync(file));
      if (!env.API_BASE_URL?.trim()) throw new ConfigError(['API_BASE_URL is not set (a running target is needed)']);
      const target = resolveTarget(
        { ...env, CONFORMANCE_ALLOW_LIVE: process.env.CONFORMANCE_ALLOW_LIVE },
        NO_BUNDLED_MOCK,
      );
      return { name, file, env, target, api: new ApiClient(target), total: 0 };
    } catch (error) {
      const why = error instanceof ConfigError ? error.problems : [`unreadable (${(error as { code?: string }).code})`];
      throw new ConfigError([`bad env file ${file} (${name}), nothing was sent:`, ...why.map((p) => `  - ${p}`)]);
    }
  });
}

/** One target's answer to a case, judged. No answer (transport, target gone, budget spent) is an answer too. */
async function ask({ api, target: t, total }: Side, c: Case) {
  const offset = c.window?.offset && place(c.window.offset, total);
  try {
    const query = c.pairs ?? requestQuery({ ...c.window, offset });
    const list = () => api.get(paymentsPath(t.merchants.sandbox), { query, auth: asKey('test') });
    const e = c.access ? await sendCase(api, t, c.access) : await list();
    const aspects = judge(c, e, { offset, defaultLimit: t.defaultLimit, keyMode: keyModes(t) });
    return { request: redact(`${e.method} ${e.url.slice(t.baseURL.length)} (${e.authLabel})`), aspects };
  } catch (error) {
    const noAnswer = error instanceof TransportError || error instanceof TargetGone || error instanceof BudgetExhausted;
    if (!noAnswer) throw error;
    const shown = redact(error.message);
    return { request: '—', aspects: [{ aspect: 'status', rule: c.rule, key: 'no answer', shown }] };
  }
}

type Options = { seed: number; runs: number; out: string; 'fail-on-diff'?: boolean };
type Io = { out: (line: string) => void; err: (line: string) => void };

/** The options and the targets (two or more env files); a usage error or a refused configuration throws. */
function parseFidelityArgs(argv: string[]): { o: Options; sides: Side[] } {
  const [str, bool] = [{ type: 'string' }, { type: 'boolean' }] as const;
  const options = { seed: str, runs: str, out: str, 'fail-on-diff': bool };
  const { values: v, positionals: files } = parseArgs({ args: argv, allowPositionals: true, options });
  const int = (raw = '', fallback: number) => (raw === '' ? fallback : /^\d+$/.test(raw) ? +raw : -1);
  const o = { ...v, seed: int(v.seed, 1), runs: int(v.runs, 12), out: v.out ?? 'reports' };
  if (files.length < 2 || files.length > 26 || o.seed < 0 || o.runs < 1) {
    throw new Error('two or more env files, --seed ≥ 0, --runs ≥ 1');
  }
  return { o, sides: loadSides(files) };
}

/** Each target's total and the statuses its first page shows; undefined when one does not answer (said on `io`). */
async function firstPages(sides: Side[], io: Io): Promise<Set<string> | undefined> {
  const statuses = new Set<string>();
  for (const s of sides) {
    try {
      const env = readEnvelope(
        await fetchPage(s.api, listingOf(PAYMENTS, s.target.merchants.sandbox, 'test'), { offset: 0, limit: 100 }),
      );
      s.total = env?.total ?? 0;
      for (const status of env?.data.map(statusOf) ?? []) if (typeof status === 'string') statuses.add(status);
    } catch (error) {
      io.err(redact(`fidelity: ${s.file} (${s.name}) did not answer: ${(error as Error).message}`));
      return undefined;
    }
  }
  return statuses;
}

/** Every case asked of every target, each other target's answer compared with A's. */
async function compareTargets(sides: Side[], cases: Case[]) {
  const lacking = (c: Case) => c.needs.filter((v) => sides.some((s) => !s.env[v]?.trim()));
  const sent = cases.filter((c) => lacking(c).length === 0);
  const all = await Promise.all(
    sides.map(async (s) => {
      const answers = new Map<string, Awaited<ReturnType<typeof ask>>>();
      for (const c of sent) answers.set(c.id, await ask(s, c));
      return answers;
    }),
  );
  const results: Result[] = cases.map((c) => {
    const got = all.map((answers) => answers.get(c.id));
    const [a, b] = got;
    if (!a || !b || got.some((x) => !x)) return { case: c, skipped: `needs ${lacking(c).join(', ')}`, differences: [] };
    const answers = got.map((x) => x?.aspects ?? []);
    // Each other target against A; with more than two, each difference names its target.
    const differences = answers
      .slice(1)
      .flatMap((x, i) =>
        compare(a.aspects, x).map((d) => (sides.length > 2 ? { ...d, target: sides[i + 1]?.name } : d)),
      );
    const requests = got.map((x) => x?.request ?? '—');
    return { case: c, requests, a: a.aspects, b: b.aspects, ...(sides.length > 2 ? { answers } : {}), differences };
  });
  return { sent, results };
}

/** fidelity.md, fidelity.json and fidelity.html in the output folder. */
function writeFidelityReports(
  o: Options,
  sides: Side[],
  results: Result[],
  shown: { targets: string[]; summary: string; ruleRows: string[][] },
) {
  const { targets, summary, ruleRows } = shown;
  const rules = ruleTable(results);
  const cells = (r: string[]) => `| ${r.map((c) => c.replace(/\|/g, '\\|')).join(' | ')} |`;
  const md = ([head = [], ...rows]: string[][]) => [head, head.map(() => '---'), ...rows].map(cells);
  const many = sides.length > 2;
  const row = (r: Result) =>
    r.differences.map((d) => [
      d.rule,
      `${r.case.id} ${r.case.label}`,
      d.aspect,
      d.a,
      ...(many ? [d.target ?? ''] : []),
      d.b,
    ]);
  const differences = results.flatMap(row);
  const markdown = ['# Fidelity report\n', ...targets.map((t) => `- ${t}`), `\n**${summary}**\n`, ...md(ruleRows)];
  const head = ['rule', 'case', 'aspect', 'A', ...(many ? ['target', 'its answer'] : ['B'])];
  markdown.push('\n## Every difference\n', ...md([head, ...differences]));
  mkdirSync(o.out, { recursive: true });
  writeFileSync(join(o.out, 'fidelity.md'), redact(`${markdown.join('\n')}\n`));
  const json = { seed: o.seed, runs: o.runs, targets, summary, rules, results };
  // An access case's collection by its name: its declaration is not the answer's (and its `restrictedKey` looks like a secret's name).
  const byName = (k: string, v: unknown) =>
    k === 'collection' && typeof v === 'object' && v ? (v as { name: string }).name : v;
  writeFileSync(join(o.out, 'fidelity.json'), redact(`${JSON.stringify(json, byName, 2)}\n`));
  const shownSides = sides.map((s) => ({
    name: s.name,
    file: s.file,
    baseURL: s.target.baseURL,
    total: s.total,
    sent: s.api.sent,
  }));
  writeFileSync(
    join(o.out, 'fidelity.html'),
    fidelityHtml({ seed: o.seed, runs: o.runs, sides: shownSides, summary, rules, results }),
  );
}

export async function main(argv: string[], io: Io = { out: console.log, err: console.error }): Promise<number> {
  let sides: Side[];
  let o: Options;
  try {
    ({ o, sides } = parseFidelityArgs(argv));
  } catch (error) {
    const usage = error instanceof ConfigError ? error.problems.join('\n') : `${(error as Error).message}\n${USAGE}`;
    io.err(`fidelity: ${usage}`);
    return 2;
  }
  const statuses = await firstPages(sides, io);
  if (!statuses) return 1;
  const cases = buildCases(o.seed, o.runs, [...statuses]);
  const { sent, results } = await compareTargets(sides, cases);
  const alike = results.filter((r) => !r.skipped && r.differences.length === 0).length;
  const summary = `fidelity: ${alike}/${sent.length} cases answered alike (${cases.length - sent.length} skipped)`;
  const targets = sides.map(
    (s) => `${s.name} = ${s.file} (${s.target.baseURL}): total ${s.total}, ${s.api.sent} requests`,
  );
  const ruleRows = [
    ['rule', 'compared', 'differ', 'skipped', 'first difference (aspect: A vs B, case) or why skipped'],
    ...ruleTable(results).map((r) => [r.rule, String(r.compared), String(r.differ), String(r.skipped), r.first]),
  ];
  io.out(redact(`${targets.join('\n')}\n${table(ruleRows)}\n${summary}`));
  writeFidelityReports(o, sides, results, { targets, summary, ruleRows });
  return o['fail-on-diff'] && alike < sent.length ? 1 : 0;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = await main(process.argv.slice(2));
}
