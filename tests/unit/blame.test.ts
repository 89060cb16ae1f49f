/**
 * Blame: what a result set's own pages break (core/run/set-flaws.ts), how a finding whose expectation was computed
 * from them says so (basedOn, derive, the rendered message), and how the outcome lists the likely cause first and the
 * rules that may follow from it after (reporters/blame.ts, summarize, headline).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  defaultLimitViolation,
  echoViolation,
  pageBasis,
  robustnessViolation,
  sizeViolation,
} from '../../checks/envelope.ts';
import { filteredTotalViolation } from '../../checks/filter.ts';
import { PAYMENTS } from '../../core/model/collection.ts';
import { asKey } from '../../core/model/credentials.ts';
import { basedOn, basedOnPages, type Page } from '../../core/model/result-set.ts';
import { formatViolation } from '../../core/model/verdict.ts';
import { flawsOf } from '../../core/run/set-flaws.ts';
import { mayFollow } from '../../reporters/blame.ts';
import { summarize } from '../../reporters/summary.ts';
import { consoleTable, headline } from '../../reporters/summary-text.ts';
import { envelope, fakeExchange } from '../support/exchange.ts';
import { checkRecord, failed, runInfo } from '../support/records.ts';

const LISTING = { collection: PAYMENTS, merchant: 'm1', auth: asKey('test') };
const records = (n: number) => Array.from({ length: n }, (_, i) => ({ id: `p${i}`, status: 'COMPLETED', amount: i }));
const ALL = records(237);

/** A page at `offset` (limit 100) holding `data`, saying `total`. */
const page = (offset: number, data: unknown[], total = 237, echoed = offset): Page => ({
  offset,
  exchange: fakeExchange({ json: envelope({ data, offset: echoed, limit: 100, total }) }),
});

describe('flawsOf: what pages break by themselves, read in context', () => {
  test('full pages one record short, with records after them: PAG-SIZE, on each page that shows it', () => {
    const pages = [page(0, ALL.slice(0, 99)), page(100, ALL.slice(100, 199)), page(200, ALL.slice(200))];
    assert.deepEqual(flawsOf(pages, 100, 10), [
      {
        rule: 'PAG-SIZE',
        why: 'page at offset 0 holds 99 records where its own offset 0, limit 100 and total 237 call for 100, as does 1 more of its pages',
        offsets: [0, 100],
      },
    ]);
  });

  test('pages that end before their total: PAG-TOTAL (or a record skipped, which PAG-PARTITION judges itself)', () => {
    const pages = [page(0, ALL.slice(0, 61), 204), page(100, [], 204)];
    assert.deepEqual(flawsOf(pages, 100, 10), [
      {
        rule: 'PAG-TOTAL',
        why: 'pages end after 61 records where the total says 204, as does 1 more of its pages',
        offsets: [0, 100],
        alike: ['PAG-PARTITION'],
      },
    ]);
  });

  test('past the total: records read before are a page past the end (PAG-EMPTY), new ones a total too low', () => {
    const repeats = [page(0, ALL.slice(0, 100), 100), page(100, ALL.slice(0, 100), 100)];
    assert.deepEqual(flawsOf(repeats, 100, 10), [
      {
        rule: 'PAG-EMPTY',
        why: 'page at offset 100, at or past its total 100, repeats 100 records read before',
        offsets: [100],
      },
    ]);
    const more = [page(0, ALL.slice(0, 100), 100), page(100, ALL.slice(100, 200), 100)];
    assert.deepEqual(flawsOf(more, 100, 10), [
      {
        rule: 'PAG-TOTAL',
        why: 'page at offset 100, past its total 100, holds records not read before',
        offsets: [100],
      },
    ]);
  });

  test('an echo other than what was sent, totals that disagree, a record twice', () => {
    const pages = [page(0, ALL.slice(0, 100)), page(100, ALL.slice(99, 199), 240, 0), page(200, ALL.slice(200))];
    assert.deepEqual(
      flawsOf(pages, 100, 10).map((f) => [f.rule, f.why]),
      [
        ['PAG-ECHO', 'page at offset 100 echoes offset 0 and limit 100 (sent 100 and 100)'],
        ['PAG-TOTAL', 'page at offset 100 says total 240 where its first page says 237'],
        ['PAG-PARTITION', 'pages hold a record twice (at offset 99 and 100)'],
      ],
    );
  });

  test('a clean read breaks nothing', () => {
    assert.deepEqual(
      flawsOf([page(0, ALL.slice(0, 100)), page(100, ALL.slice(100, 200)), page(200, ALL.slice(200))], 100, 10),
      [],
    );
  });
});

describe("a finding on one page says which of the page's own values break another rule", () => {
  const answer = (fields: Parameters<typeof envelope>[0]) => fakeExchange({ json: envelope(fields) });

  test("PAG-SIZE's expectation from an echo or a total that break PAG-ECHO or PAG-TOTAL; past its total, PAG-EMPTY's", () => {
    const echoedZero = answer({ n: 1, offset: 0, limit: 10, total: 237 });
    assert.deepEqual(pageBasis(echoedZero, { offset: 236, limit: 10 }, 10, 237), [
      {
        rule: 'PAG-ECHO',
        why: "the expectation used the page's echo (offset 0, limit 10), not what was sent (offset 236, limit 10)",
      },
    ]);
    const ownTotal = answer({ n: 7, offset: 5, limit: 7, total: 7 });
    assert.deepEqual(pageBasis(ownTotal, { offset: 5, limit: 7 }, 10, 100), [
      {
        rule: 'PAG-TOTAL',
        why: "the expectation used the page's total 7, where the listing's reference read says 100",
      },
    ]);
    assert.deepEqual(sizeViolation(answer({ n: 10, offset: 238, limit: 10, total: 237 }))?.derivedFrom, [
      {
        rule: 'PAG-EMPTY',
        why: 'the page is at or past its own total (offset 238, total 237) and holds 10 records, where PAG-EMPTY asks data []',
      },
    ]);
  });

  test("another rule's invariant on the page: PAG-DEFAULT's size, INP-ROBUST's envelope, the cap behind PAG-ECHO's limit", () => {
    const short = answer({ n: 9, offset: 0, limit: 10, total: 237 });
    assert.deepEqual(defaultLimitViolation(short, 10)?.derivedFrom, [
      {
        rule: 'PAG-SIZE',
        why: "with the default limit echoed, the size expected is PAG-SIZE's, and the page holds 9 records where its own offset 0, limit 10 and total 237 call for 10",
      },
    ]);
    assert.deepEqual(robustnessViolation(short, 'limit=010')?.derivedFrom, [
      {
        rule: 'PAG-SIZE',
        why: "the invariant the answer breaks is PAG-SIZE's (the page holds 9 records where its own offset 0, limit 10 and total 237 call for 10)",
      },
    ]);
    const uncapped = answer({ n: 101, offset: 0, limit: 101, total: 237 });
    assert.deepEqual(echoViolation(uncapped, { limit: 101 }, 10)?.derivedFrom, [
      {
        rule: 'LIM-CAP',
        why: 'limit 101 was sent, so the limit in force is the cap of LIM-CAP, which the answer breaks (101 records, limit echoed 101)',
      },
    ]);
    // The default echoed otherwise is PAG-DEFAULT's own finding: nothing to follow from.
    assert.equal(
      defaultLimitViolation(answer({ n: 25, offset: 0, limit: 25, total: 237 }), 10)?.derivedFrom,
      undefined,
    );
  });
});

describe('a finding computed from flawed pages says so', () => {
  const pages = [page(0, ALL.slice(0, 99)), page(100, ALL.slice(100, 199)), page(200, ALL.slice(200))];
  const set = { listing: LISTING, limit: 100, pages, flaws: flawsOf(pages, 100, 10) };

  test('"expected total 106", counted from pages that fail PAG-SIZE: the message says it may follow from PAG-SIZE', () => {
    const filtered = fakeExchange({ json: envelope({ n: 10, total: 107 }) });
    const v = basedOn(
      filteredTotalViolation(
        filtered,
        { field: 'status', value: 'COMPLETED' },
        { min: 106, max: 106 },
        237,
        'FLT-STATUS',
      ),
      set,
    );
    assert.equal(
      formatViolation(v as NonNullable<typeof v>)
        .split('\n')
        .slice(0, 4)
        .join('\n'),
      [
        'FLT-STATUS violated (§4.2): `filter[status]=S`: every record has status S; `total` = the number of S records in the unfiltered set',
        '  Expected: filter[status]="COMPLETED": total 106, the records with status "COMPLETED" of the unfiltered set (total 237)',
        '  Received: total 107',
        '  May follow from PAG-SIZE: the expectation was computed from merchant m1 (Authorization: Bearer $API_TEST_KEY) read at limit 100, whose page at offset 0 holds 99 records where its own offset 0, limit 100 and total 237 call for 100, as does 1 more of its pages',
      ].join('\n'),
    );
  });

  test("a check's own rule is never its own cause; a set that breaks nothing adds nothing", () => {
    const own = { rule: 'PAG-SIZE' as const, expected: 'x', received: 'y' };
    assert.deepEqual(basedOn(own, set), own);
    const clean = { ...set, flaws: [] };
    const v = { rule: 'FLT-STATUS' as const, expected: 'x', received: 'y' };
    assert.deepEqual(basedOn(v, clean), v);
    assert.equal(basedOn(undefined, set), undefined);
  });

  test("a finding on the set's own records names the flaws of the pages that hold its evidence only", () => {
    const onFirst = { rule: 'SRT-AMOUNT' as const, expected: 'x', received: 'y', exchange: pages[0]?.exchange };
    assert.deepEqual(
      basedOnPages(onFirst, set)?.derivedFrom?.map((d) => d.rule),
      ['PAG-SIZE'],
    );
    const onLast = { rule: 'SRT-AMOUNT' as const, expected: 'x', received: 'y', exchange: pages[2]?.exchange };
    assert.equal(basedOnPages(onLast, set)?.derivedFrom, undefined);
  });
});

describe('mayFollow and the outcome: the likely cause first', () => {
  const size = failed('PAG-SIZE any request', '9 records');
  const derived = (title: string, rule = 'PAG-SIZE') =>
    failed(title, 'total 107', { derivedFrom: [{ rule: rule as 'PAG-SIZE', why: 'counted from short pages' }] });

  test('a rule all of whose failures follow from a failing rule follows it; one underived failure makes a cause', () => {
    const checks = [
      size,
      derived('FLT-STATUS filter'),
      derived('PAG-TOTAL count'),
      failed('PAG-TOTAL agreement', 'total 10'),
    ];
    assert.deepEqual([...mayFollow(checks)], [['FLT-STATUS', ['PAG-SIZE']]]);
  });

  test('a derivation naming a rule that did not fail is no cause; rules that only explain each other are all shown', () => {
    assert.deepEqual([...mayFollow([derived('FLT-STATUS filter')])], []);
    assert.deepEqual(
      [...mayFollow([derived('FLT-STATUS filter', 'PAG-TOTAL'), derived('PAG-TOTAL count', 'FLT-STATUS')])],
      [],
    );
  });

  test('the outcome and the headline list the likely cause first, then what may follow from it', () => {
    const s = summarize(
      [
        derived('FLT-STATUS filter'),
        derived('PAG-DEFAULT limit omitted'),
        size,
        checkRecord('PAG-ECHO any request', 'pass'),
      ],
      runInfo(),
    );
    assert.deepEqual(s.outcome.decidedBy.slice(0, 3), [
      'PAG-SIZE (MUST) failed: 9 records',
      'PAG-DEFAULT (MUST) failed, may follow from PAG-SIZE: total 107',
      'FLT-STATUS (MUST) failed, may follow from PAG-SIZE: total 107',
    ]);
    assert.deepEqual(s.outcome.likelyCauses, ['PAG-SIZE']);
    assert.deepEqual(s.rules.find((r) => r.id === 'FLT-STATUS')?.mayFollowFrom, ['PAG-SIZE']);
    assert.equal(
      headline(s),
      'nonconformant for the 4 selected rule(s) (exit 1): 3 rules failed (likely cause PAG-SIZE; may follow from it: PAG-DEFAULT, FLT-STATUS)',
    );
    // The console says it in its last line, where the outcome line shows three rules at most.
    assert.equal(consoleTable(s, 'conformance.md').split('\n').at(-1), `In short: ${headline(s)}`);
  });

  test('with no rule following another, the outcome is as it was: no likely causes said', () => {
    const s = summarize([size, failed('FLT-STATUS filter', 'total 107')], runInfo());
    assert.equal(s.outcome.likelyCauses, undefined);
    assert.equal(
      headline(s),
      'nonconformant for the 2 selected rule(s) (exit 1): 2 rules failed (PAG-SIZE, FLT-STATUS)',
    );
  });

  test('with CONFORMANCE_STRICT=1 an advisory finding fails the run: the headline names it as the outcome does', () => {
    const advisory = checkRecord('ADV-SCHEME lower-case scheme', 'advisory');
    const s = summarize([advisory, checkRecord('PAG-ECHO any request', 'pass')], { ...runInfo(), strict: true });
    assert.equal(s.outcome.exitCode, 1);
    assert.match(headline(s), /\(exit 1\): 1 rule failed \(ADV-SCHEME\)/);
    assert.match(headline(summarize([advisory, checkRecord('PAG-ECHO any request', 'pass')], runInfo())), /\(exit 0\)/);
  });
});
