/** Known deviations: the baseline file, the matching of a record's evidence, and the judgment of a run (and merge). */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { mergeResults } from '../../commands/results.ts';
import {
  type BaselineEntry,
  BaselineError,
  matchesEvidence,
  PLACEHOLDER_REASON,
  parseBaseline,
} from '../../core/model/baseline.ts';
import { addDays, baselineFrom, judgeBaseline } from '../../reporters/baseline.ts';
import { type RunInfo, summarize } from '../../reporters/summary.ts';
import { baselineLines, headline } from '../../reporters/summary-text.ts';
import { checkRecord, failed, runInfo } from '../support/records.ts';

const DAY = '2026-11-24';
const entry = (over: Partial<BaselineEntry> = {}): BaselineEntry => ({
  rule: 'PAG-SIZE',
  match: 'PAG-SIZE every window',
  reason: 'VEN-123',
  until: '2026-12-31',
  ...over,
});
const info = (entries: BaselineEntry[], over: Partial<RunInfo> = {}): RunInfo =>
  runInfo({ status: 'failed', baseline: { file: 'b.json', entries, date: DAY }, ...over });
const problems = (text: string) => {
  try {
    parseBaseline(text, 'b.json');
    return [];
  } catch (error) {
    assert.ok(error instanceof BaselineError);
    return error.problems;
  }
};

describe('the baseline file', () => {
  test('entries as an object or an array; every problem named by its entry', () => {
    const e = entry();
    assert.deepEqual(parseBaseline(JSON.stringify({ entries: [e] }), 'b.json'), [e]);
    assert.deepEqual(parseBaseline(JSON.stringify([{ ...e, comment: 'kept' }]), 'b.json'), [e]);
    assert.match(problems('{')[0] ?? '', /^not JSON/);
    assert.deepEqual(problems('{"known": []}'), ['expected {"entries": [ … ]} or an array of entries']);
    const listed = problems(
      JSON.stringify([
        { rule: 'PAG-SIZ', match: '', reason: '', until: '2026-02-30', untill: 'x' },
        { rule: 'PAG-SIZE', match: { receved: 'x' }, reason: 'r', until: '2026-01-01' },
        { rule: 'PAG-SIZE', match: '/(unclosed/', reason: 'r', until: '2026-01-01' },
      ]),
    );
    assert.deepEqual(listed.slice(0, 6), [
      'entry 1: unknown field "untill"',
      'entry 1: rule "PAG-SIZ" is not a rule id of the catalogue',
      'entry 1: match must be a non-empty string',
      'entry 1: reason must be a non-empty string',
      'entry 1: until must be a date YYYY-MM-DD',
      'entry 2: match.receved is not one of check, expected, received, request',
    ]);
    assert.match(listed[6] ?? '', /^entry 3: match is not a valid regular expression/);
    assert.equal(listed.length, 7);
    const found = { ...e, found: { seed: 12, drawn: true } };
    assert.deepEqual(parseBaseline(JSON.stringify([found]), 'b.json'), [found]);
    assert.deepEqual(problems(JSON.stringify([{ ...e, found: { seed: -1, drawn: 'yes' } }])), [
      'entry 1: found must be {"seed": a whole number, "drawn": true or false}',
    ]);
  });
});

describe('matching the evidence', () => {
  const r = failed('PAG-SIZE every window', '6 records', {
    expected: '7 records (offset 230, limit 10, total 237)',
    reproduction: ['curl -sS -g -i -H "Authorization: Bearer $API_TEST_KEY" \'http://x/payments?offset=230\''],
  });
  test('a string: a substring of the title, expected, received or a request; /…/ a regular expression', () => {
    for (const m of ['every window', '6 records', 'total 237', 'offset=230', '/^\\d records$/', '/WINDOW/i']) {
      assert.ok(matchesEvidence(m, r), m);
    }
    for (const m of ['7 records (offset 0', '/^7 records$/', 'PAG-TOTAL']) assert.ok(!matchesEvidence(m, r), m);
  });
  test('an object: every field given must match its own field', () => {
    assert.ok(matchesEvidence({ check: 'every window', received: '/^6 records$/' }, r));
    assert.ok(!matchesEvidence({ check: 'every window', received: '101 records' }, r));
    assert.ok(!matchesEvidence({ expected: '6 records' }, r), 'the received line is not the expected one');
  });
});

describe('judging a run against its baseline', () => {
  test('a matched failure is known and does not fail the run; the rule says known; the headline names it', () => {
    const s = summarize(
      [failed('PAG-SIZE every window', '6 records'), checkRecord('PAG-TOTAL a', 'pass')],
      info([entry()]),
    );
    assert.deepEqual(s.checks.find((c) => c.rule === 'PAG-SIZE')?.known, { reason: 'VEN-123', until: '2026-12-31' });
    const row = s.rules.find((r) => r.id === 'PAG-SIZE');
    assert.equal(row?.verdict, 'known');
    assert.match(row?.evidence ?? '', /^known \(VEN-123, until 2026-12-31\): 6 records/);
    assert.equal(s.outcome.exitCode, 0);
    assert.equal(s.verdicts.known, 1);
    assert.ok(s.outcome.decidedBy.some((l) => l.includes('known deviations') && l.includes('PAG-SIZE')));
    assert.match(headline(s), /^conformant for the 2 selected rule\(s\) \(exit 0\): .*1 known deviation \(PAG-SIZE\)/);
    assert.deepEqual(s.deviations?.fixed, []);
  });

  test('a new failure of the same rule (another check) is not excused: exit 1', () => {
    const s = summarize(
      [failed('PAG-SIZE every window', '6 records'), failed('PAG-SIZE the last page', '3 records')],
      info([entry()]),
    );
    assert.equal(s.rules.find((r) => r.id === 'PAG-SIZE')?.verdict, 'fail');
    assert.equal(s.outcome.exitCode, 1);
    assert.match(s.outcome.decidedBy[0] ?? '', /^PAG-SIZE \(MUST\) failed: 3 records/);
    assert.equal(s.deviations?.known.length, 1);
  });

  test('an entry whose check passed is fixed; one whose checks did not run is not judged', () => {
    const s = summarize(
      [checkRecord('PAG-SIZE every window', 'pass'), checkRecord('LIM-CAP a', 'not run', { cause: 'needs input' })],
      info([entry(), entry({ rule: 'LIM-CAP', match: 'LIM-CAP a' }), entry({ rule: 'AUTH-FIRST', match: 'x' })]),
    );
    assert.deepEqual(
      s.deviations?.fixed.map((e) => e.rule),
      ['PAG-SIZE'],
    );
    assert.deepEqual(
      s.deviations?.unjudged.map((e) => e.rule),
      ['LIM-CAP', 'AUTH-FIRST'],
    );
    assert.equal(s.outcome.exitCode, 0);
  });

  test('fixed only when the check ran on the case that failed before; else "not seen in this run", and kept', () => {
    // A property draws its cases from the run's seed: a new seed may not draw the case that failed.
    const drawn = checkRecord('PAG-SIZE every window', 'pass', { seeded: true });
    const judge = (e: BaselineEntry, seed = 7) => summarize([drawn], info([e], { seed })).deviations;
    const handWritten = judge(entry());
    assert.deepEqual(handWritten?.fixed, []);
    assert.deepEqual(handWritten?.unseen, [entry()]);
    assert.deepEqual(baselineLines(handWritten), [
      'PAG-SIZE "PAG-SIZE every window": not seen in this run, kept (its checks draw their cases from the seed and did not meet the failing one)',
    ]);
    const foundDrawn = entry({ found: { seed: 5, drawn: true } });
    assert.deepEqual(judge(foundDrawn)?.unseen, [foundDrawn]);
    assert.deepEqual(baselineLines(judge(foundDrawn)), [
      'PAG-SIZE "PAG-SIZE every window": not seen in this run, kept (its checks draw their cases from the seed and did not meet the failing one; FC_SEED=5 draws it again)',
    ]);
    assert.deepEqual(judge(foundDrawn, 5)?.fixed, [foundDrawn], 'the seed that found it draws the same cases');
    // Found on one of the cases every run tries (an example): this run tried it, and it passed.
    const onExample = entry({ found: { seed: 5, drawn: false } });
    assert.deepEqual(judge(onExample)?.fixed, [onExample]);
    assert.equal(summarize([drawn], info([entry()])).outcome.exitCode, 0, 'kept, it fails nothing');
  });

  test('an expired entry excuses nothing and fails the run, named, even when what it matched is fixed', () => {
    const old = entry({ until: '2026-11-23' });
    const failing = summarize([failed('PAG-SIZE every window', '6 records')], info([old]));
    assert.equal(failing.outcome.exitCode, 1);
    assert.equal(failing.rules.find((r) => r.id === 'PAG-SIZE')?.verdict, 'fail');
    assert.ok(
      failing.outcome.decidedBy.some((l) => /baseline entry PAG-SIZE .* expired on 2026-11-23 \(b\.json\)/.test(l)),
    );
    const fixed = summarize([checkRecord('PAG-SIZE every window', 'pass')], info([old]));
    assert.equal(fixed.outcome.exitCode, 1);
    assert.deepEqual(fixed.outcome.decidedBy, [
      'baseline entry PAG-SIZE "PAG-SIZE every window" expired on 2026-11-23 (b.json): renew its date or remove it',
      'not selected, not judged: '.concat(
        fixed.rules
          .filter((r) => r.id !== 'PAG-SIZE')
          .map((r) => r.id)
          .join(', '),
      ),
    ]);
    assert.equal(summarize([], info([entry({ until: DAY })])).deviations?.expired.length, 0, 'until is the last day');
  });

  test('an advisory finding can be known; earlier marks on the records are dropped and judged again', () => {
    const adv = checkRecord('ADV-SCHEME Basic', 'advisory', {
      received: 'HTTP 200',
      known: { reason: 'old', until: '2000-01-01' },
    });
    const { records, deviations } = judgeBaseline([adv], { file: 'b.json', entries: [], date: DAY });
    assert.equal(records[0]?.known, undefined);
    assert.deepEqual(deviations.known, []);
    const s = summarize([adv], info([entry({ rule: 'ADV-SCHEME', match: 'Basic' })]));
    assert.equal(s.rules.find((r) => r.id === 'ADV-SCHEME')?.verdict, 'known');
  });

  test('merge judges the shards together against their baseline: as one run would', () => {
    const base = info([entry(), entry({ rule: 'LIM-CAP', match: 'LIM-CAP a' })]);
    const one = summarize([failed('PAG-SIZE every window', '6 records')], { ...base, shard: { current: 1, total: 2 } });
    const two = summarize([checkRecord('LIM-CAP a', 'pass')], { ...base, shard: { current: 2, total: 2 } });
    const merged = mergeResults([one, two]);
    const whole = summarize([failed('PAG-SIZE every window', '6 records'), checkRecord('LIM-CAP a', 'pass')], base);
    assert.deepEqual(merged.deviations, whole.deviations);
    assert.deepEqual(merged.outcome, whole.outcome);
    assert.deepEqual(
      merged.deviations?.fixed.map((e) => e.rule),
      ['LIM-CAP'],
    );
  });
});

describe('an entry whose reason is still the placeholder', () => {
  test('a warning in every report that lists the baseline, whatever it excuses', () => {
    const todo = entry({ reason: PLACEHOLDER_REASON });
    const s = summarize([failed('PAG-SIZE every window', '6 records')], info([todo, entry({ rule: 'LIM-CAP' })]));
    assert.deepEqual(s.deviations?.placeholders, [todo]);
    assert.equal(s.outcome.result, 'conformant', 'it still excuses its failure');
    assert.ok(
      baselineLines(s.deviations).some((l) =>
        /: warning: its reason is still the placeholder --write-baseline wrote; say why/.test(l),
      ),
    );
    assert.equal(summarize([], info([entry({ reason: 'VEN-123' })])).deviations?.placeholders, undefined);
  });
});

describe('writing a baseline from a run', () => {
  test('one entry per failing check, matched by its title, a placeholder reason, 30 days ahead; known ones kept', () => {
    const kept = entry({ reason: 'VEN-1', until: '2027-01-15' });
    const s = summarize(
      [
        failed('PAG-SIZE every window', '6 records'),
        failed('PAG-TOTAL a', 'total 3'),
        checkRecord('ADV-SCHEME Basic', 'advisory', { received: 'HTTP 200' }),
        checkRecord('LIM-CAP a', 'pass'),
      ],
      info([kept]),
    );
    assert.deepEqual(baselineFrom(s.checks, DAY, [kept]).entries, [
      kept,
      { rule: 'PAG-TOTAL', match: 'PAG-TOTAL a', reason: PLACEHOLDER_REASON, until: '2026-12-24' },
      { rule: 'ADV-SCHEME', match: 'ADV-SCHEME Basic', reason: PLACEHOLDER_REASON, until: '2026-12-24' },
    ]);
    // With the run's seed: how each failure was found, a drawn case or one every run tries.
    const seeded = [failed('PAG-TOTAL a', 'total 3', { seeded: true, drawnCase: true }), failed('LIM-CAP b')];
    assert.deepEqual(
      baselineFrom(seeded, DAY, [], 42).entries.map((e) => e.found),
      [
        { seed: 42, drawn: true },
        { seed: 42, drawn: false },
      ],
    );
    assert.equal(addDays('2026-12-20', 30), '2027-01-19');
    // What it wrote is a baseline that excuses exactly those failures.
    const written = parseBaseline(JSON.stringify(baselineFrom(s.checks, DAY, [kept])), 'w.json');
    assert.equal(summarize(s.checks, info(written)).outcome.exitCode, 0);
  });
});

describe('a baseline written before the general rule ids (FLT-FIELD, SRT-FIELD) still matches', () => {
  // Written by --write-baseline before: the refunds' filter check reported FLT-STATUS; now it reports FLT-FIELD.
  const file = JSON.stringify({
    entries: [
      {
        rule: 'FLT-STATUS',
        match: 'FLT-STATUS refunds: filter[reason]',
        reason: 'VEN-200: the refunds filter ignores its value',
        until: '2026-12-31',
      },
      {
        rule: 'SRT-AMOUNT',
        match: { check: '/^SRT-AMOUNT refunds: sort=createdAt/' },
        reason: 'VEN-201',
        until: '2026-12-31',
      },
    ],
  });
  const entries = parseBaseline(file, 'old.json');
  const filterFailure = failed(
    'FLT-FIELD refunds: filter[reason]=R lists only R records, total = the R records of the unfiltered set (each reason, every listing)',
    '3 of 9 records have another',
    { collection: 'refunds' },
  );
  const sortFailure = failed(
    'SRT-FIELD refunds: sort=createdAt ascends and sort=-createdAt descends as instants',
    'x',
    {
      collection: 'refunds',
    },
  );

  test("an entry of the spec's id excuses a failure of the general id whose title it names with either id", () => {
    const s = summarize([filterFailure, sortFailure, checkRecord('PAG-TOTAL a', 'pass')], info(entries));
    assert.deepEqual(
      s.checks.find((c) => c.rule === 'FLT-FIELD')?.known?.reason,
      'VEN-200: the refunds filter ignores its value',
    );
    assert.deepEqual(s.checks.find((c) => c.rule === 'SRT-FIELD')?.known?.reason, 'VEN-201');
    assert.equal(s.rules.find((r) => r.id === 'FLT-FIELD')?.verdict, 'known');
    assert.equal(s.outcome.exitCode, 0);
  });

  test("another family's failure is not excused", () => {
    const s = summarize([failed('PAG-SIZE refunds: filter[reason]=R', 'x', { collection: 'refunds' })], info(entries));
    assert.equal(s.outcome.exitCode, 1);
  });
});
