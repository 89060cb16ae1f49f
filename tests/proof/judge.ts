/**
 * Judges the self-test's fault and variant runs (tests/proof/playwright.config.ts), from each check's record.
 * - Mutation: each `fault:NAME` project (the checks of the rule the fault declares) must end with a failure of
 *   that rule (a failure of another kind is a miss). A fault of an ADVISORY rule runs strict: its finding counts.
 * - Specificity: each `variant:NAME` project (a named combination of legal variants) and each `legal:<seed>:<i>`
 *   project (a combination of the legal space drawn for the run, ./legal-space.ts) must have no failed check. A
 *   failure of a drawn combination names the combination and the seed that replays it.
 * Writes reports/mutation.json and reports/specificity.json, prints both tables, and makes the run pass
 * or fail on that verdict alone (the faulty runs' own failures are expected).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import type { FullConfig, FullResult, Reporter, TestCase, TestResult } from '@playwright/test/reporter';
import { disposition, ofCheck } from '../../core/model/disposition.ts';
import { family, sameFamily } from '../../core/model/rules.ts';
import { redact } from '../../core/model/secrets.ts';
import { renderFinding } from '../../core/model/verdict.ts';
import { FAULTS } from '../../mock/index.ts';
import { recordOfResult } from '../../reporters/records.ts';
import { scopedFaultOf, seedRunOf } from './collection-projects.ts';
import { describeCombination, legalProject } from './legal-space.ts';

interface ProjectTally {
  tests: number;
  failed: number;
  /** Rules whose checks recorded a failure (an advisory finding counts: its fault's run is strict). */
  fired: Set<string>;
  /** The collections each finding was about: `RULE@collection` (payments for the spec's). */
  firedOn: Set<string>;
  advisories: Set<string>;
  /** Checks that ended without a verdict of the target (a crash, a timeout): always suspicious. */
  otherErrors: string[];
  firstFailure?: string;
}

export default class ProofJudge implements Reporter {
  private readonly tallies = new Map<string, ProjectTally>();
  private readonly outputDir: string;
  private started = Date.now();

  constructor(options: { outputDir?: string } = {}) {
    this.outputDir = options.outputDir ?? 'reports';
  }

  private configured: string[] = [];
  /** The variants of each project that has some (`use.mock.variants`). */
  private readonly variantsOf = new Map<string, readonly string[]>();

  onBegin(config: FullConfig): void {
    this.started = Date.now();
    this.configured = config.projects.map((p) => p.name).filter((name) => !name.startsWith('watch:'));
    for (const p of config.projects) {
      const variants = (p.use as { mock?: { variants?: string[] } } | undefined)?.mock?.variants;
      if (variants) this.variantsOf.set(p.name, variants);
    }
    const drawn = this.configured.map(legalProject).filter((l) => l !== undefined);
    const seeds = [...new Set(drawn.map((l) => l.seed))];
    if (seeds.length > 0) {
      console.log(
        `legal space: ${drawn.length} combinations drawn from seed ${seeds.join(', ')} (LEGAL_SEED=${seeds[0]} replays)`,
      );
    }
  }

  onTestEnd(test: TestCase, result: TestResult): void {
    // A project's teardown (`watch:<project>`, the checks of every answer) counts as part of that project.
    const project = (test.parent.project()?.name ?? '?').replace(/^watch:/, '');
    const t = this.tallies.get(project) ?? {
      tests: 0,
      failed: 0,
      fired: new Set(),
      firedOn: new Set(),
      advisories: new Set(),
      otherErrors: [],
    };
    this.tallies.set(project, t);
    t.tests += 1;
    const record = recordOfResult(test, result);
    if (!record) return;
    if (record.verdict === 'advisory') t.advisories.add(record.rule);
    // A fault of an ADVISORY rule runs strict (tests/proof/playwright.config.ts): there an advisory finding fails.
    const strict = (test.parent.project()?.use as { mock?: { strict?: boolean } } | undefined)?.mock?.strict === true;
    const finding = disposition(ofCheck(record), { strict }) === 'fail';
    const crashed = record.verdict === 'inconclusive' && (record.cause === 'crash' || record.cause === 'timeout');
    if (!finding && !crashed) return;
    t.failed += 1;
    const first = `${test.title}: ${finding ? renderFinding(record).split('\n')[0] : record.reason}`;
    t.firstFailure ??= first;
    if (finding) t.fired.add(record.rule);
    // Where it fired: a crash too (a check that met another rule's violation, WrongRule), which for a fault switched
    // on for one collection is a deviation seen elsewhere when it happens on another.
    t.firedOn.add(`${finding ? record.rule : 'CRASH'}@${record.collection ?? 'payments'}`);
    if (!finding && t.otherErrors.length < 3) t.otherErrors.push(first);
  }

  async onEnd(result: FullResult): Promise<{ status: FullResult['status'] }> {
    const seconds = (Date.now() - this.started) / 1000;
    // Every configured project is judged: one that never reported (a crash, a global timeout) is a miss.
    const empty = (): ProjectTally => ({
      tests: 0,
      failed: 0,
      fired: new Set(),
      firedOn: new Set(),
      advisories: new Set(),
      otherErrors: [],
    });
    for (const name of this.configured) if (!this.tallies.has(name)) this.tallies.set(name, empty());
    const mutation = FAULTS.filter((f) => this.tallies.has(`fault:${f.name}`)).map((f) => {
      const t = this.tallies.get(`fault:${f.name}`) as ProjectTally;
      const fired = [...new Set([...t.fired, ...t.advisories])].sort();
      // Caught by its rule, or its family's id on another collection (FLT-STATUS on payments, FLT-FIELD on refunds).
      const caught = [...t.fired].some((r) => sameFamily(r, f.rule));
      const verdict = t.tests === 0 ? 'NOT RUN' : caught ? 'caught' : 'MISSED';
      const otherErrors = t.otherErrors.length ? { otherErrors: t.otherErrors.map(redact) } : {};
      return { fault: f.name, rule: f.rule, failedRules: fired, failedChecks: t.failed, ...otherErrors, verdict };
    });
    // A fault switched on for one collection (`NAME@refunds`) must fail its rule on that collection, and no rule on
    // another: a failure elsewhere (the payments) would mean the checks confuse the collections.
    for (const name of [...this.tallies.keys()].filter((n) => scopedFaultOf(n))) {
      const { fault, collection } = scopedFaultOf(name) as { fault: string; collection: string };
      const f = FAULTS.find((x) => x.name === fault);
      const t = this.tallies.get(name) as ProjectTally;
      const elsewhere = [...t.firedOn].filter((x) => !x.endsWith(`@${collection}`));
      const caught = f !== undefined && family(f.rule).some((r) => t.firedOn.has(`${r}@${collection}`));
      const verdict = t.tests === 0 ? 'NOT RUN' : !caught ? 'MISSED' : elsewhere.length ? 'ELSEWHERE' : 'caught';
      mutation.push({
        fault: `${fault}@${collection}`,
        rule: f?.rule ?? 'ENV-SCHEMA',
        failedRules: [...t.firedOn].sort(),
        failedChecks: t.failed,
        ...(t.otherErrors.length ? { otherErrors: t.otherErrors.map(redact) } : {}),
        verdict,
      });
    }
    // A seeded catch run with one of ten seeds: caught by its rule on each, whatever the seed drew.
    for (const name of [...this.tallies.keys()].filter((n) => seedRunOf(n))) {
      const { fault, seed } = seedRunOf(name) as { fault: string; seed: number };
      const f = FAULTS.find((x) => x.name === fault);
      const t = this.tallies.get(name) as ProjectTally;
      const caught = f !== undefined && [...t.fired].some((r) => sameFamily(r, f.rule));
      mutation.push({
        fault: `${fault} (FC_SEED=${seed})`,
        rule: f?.rule ?? 'ENV-SCHEMA',
        failedRules: [...t.fired].sort(),
        failedChecks: t.failed,
        ...(t.otherErrors.length ? { otherErrors: t.otherErrors.map(redact) } : {}),
        verdict: t.tests === 0 ? 'NOT RUN' : caught ? 'caught' : 'MISSED',
      });
    }
    const specificity = [...this.tallies.entries()]
      .filter(([name]) => name.startsWith('variant:') || legalProject(name))
      .map(([name, t]) => {
        const drawn = legalProject(name);
        const variants = this.variantsOf.get(name) ?? [];
        return {
          variant: drawn ? name : name.slice('variant:'.length),
          ...(drawn
            ? {
                seed: drawn.seed,
                combination: describeCombination(variants),
                variants: [...variants],
                replay: `LEGAL_SEED=${drawn.seed} MATRIX_ONLY=${name}`,
              }
            : {}),
          checks: t.tests,
          failedChecks: t.failed,
          failedRules: [...t.fired].sort(),
          advisories: [...t.advisories].sort(),
          firstFailure: t.firstFailure ? redact(t.firstFailure) : undefined,
          ...(t.otherErrors.length ? { otherErrors: t.otherErrors.map(redact) } : {}),
          verdict: t.tests === 0 ? 'NOT RUN' : t.failed === 0 ? 'clean' : 'FALSE ALARM',
        };
      });
    const drawnRuns = specificity.filter((s) => s.seed !== undefined);
    const seeds = [...new Set(drawnRuns.map((s) => s.seed))];
    const caught = mutation.filter((m) => m.verdict === 'caught').length;
    const clean = specificity.filter((s) => s.verdict === 'clean').length;
    const drawnClean = drawnRuns.filter((s) => s.verdict === 'clean').length;
    // 'failed' is the expected status (the faulty runs fail); a timed-out or interrupted run proves nothing.
    const complete = result.status === 'passed' || result.status === 'failed';
    const ok = caught === mutation.length && clean === specificity.length && complete;

    const lines: string[] = [
      '',
      'Mutation run (one run per mock fault of the checks of its declared rule; each must fail)',
    ];
    const w = Math.max(5, ...mutation.map((m) => m.fault.length));
    const rw = Math.max(4, ...mutation.map((m) => m.rule.length));
    lines.push(`  ${'fault'.padEnd(w)}  ${'rule'.padEnd(rw)}  verdict  rules that failed`);
    for (const m of mutation) {
      lines.push(
        `  ${m.fault.padEnd(w)}  ${m.rule.padEnd(rw)}  ${m.verdict.padEnd(7)}  ${m.failedRules.join(' ') || '-'}`,
      );
    }
    lines.push('', 'Specificity run (legal variants; each must pass with no failed check)');
    for (const s of specificity.filter((v) => v.seed === undefined)) {
      const extra = s.advisories.length ? ` (advisory: ${s.advisories.join(' ')})` : '';
      lines.push(
        `  ${s.variant.padEnd(28)}  ${s.verdict}  ${s.checks} checks${extra}${s.firstFailure ? `\n      first failure: ${s.firstFailure}` : ''}`,
      );
    }
    if (drawnRuns.length > 0) {
      lines.push(
        '',
        `Legal space (${drawnRuns.length} combinations drawn from seed ${seeds.join(', ')}, every value of every axis at least once; each must pass)`,
      );
      for (const s of drawnRuns) {
        const extra = s.advisories.length ? ` (advisory: ${s.advisories.join(' ')})` : '';
        lines.push(`  ${s.variant.padEnd(22)}  ${s.verdict}  ${s.checks} checks${extra}`, `      ${s.combination}`);
        if (s.verdict !== 'clean') {
          lines.push(
            `      FALSE ALARM on the combination ${(s.variants ?? []).join(', ')} (seed ${s.seed})`,
            ...(s.firstFailure ? [`      first failure: ${s.firstFailure}`] : []),
            `      replay: ${s.replay} node node_modules/@playwright/test/cli.js test -c tests/proof/playwright.config.ts`,
          );
        }
      }
    }
    const others = [
      ...mutation.map((m) => [m.fault, m.otherErrors ?? []] as const),
      ...specificity.map((v) => [v.variant, v.otherErrors ?? []] as const),
    ];
    for (const [name, errors] of others) {
      for (const e of errors) lines.push(`  note: ${name}: a failure that is not a rule violation: ${e}`);
    }
    if (!complete) lines.push(`  the run ended ${result.status}: the matrix is incomplete`);
    lines.push(
      '',
      `mutation score: ${caught}/${mutation.length}`,
      `specificity: ${clean}/${specificity.length} variant runs clean`,
      ...(drawnRuns.length
        ? [`legal space: ${drawnClean}/${drawnRuns.length} combinations clean (seed ${seeds.join(', ')})`]
        : []),
      `matrix time: ${seconds.toFixed(1)} s`,
    );
    console.log(redact(lines.join('\n')));

    mkdirSync(this.outputDir, { recursive: true });
    const write = (file: string, body: unknown) =>
      writeFileSync(`${this.outputDir}/${file}`, redact(`${JSON.stringify(body, null, 2)}\n`));
    write('mutation.json', { score: `${caught}/${mutation.length}`, caught, total: mutation.length, faults: mutation });
    const legal = drawnRuns.length ? { legal: { seeds, combinations: drawnRuns.length, clean: drawnClean } } : {};
    write('specificity.json', { clean, total: specificity.length, ...legal, variants: specificity });
    return { status: ok ? 'passed' : 'failed' };
  }

  printsToStdio(): boolean {
    return true;
  }
}
