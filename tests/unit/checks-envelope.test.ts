import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  capNotationViolation,
  capViolation,
  defaultLimitViolation,
  echoViolation,
  emptyViolation,
  envelopeViolation,
  robustnessViolation,
  sizeViolation,
} from '../../checks/envelope.ts';
import { limitInForce, MAX_LIMIT } from '../../core/model/listing.ts';
import { envelope, fakeExchange } from '../support/exchange.ts';

type Fields = Parameters<typeof envelope>[0];
/** A 200 listing; `patch` rewrites the envelope after it is built (to break it). */
const page = (fields: Fields = {}, patch: Record<string, unknown> = {}) =>
  fakeExchange({ json: { ...envelope(fields), ...patch } });
const status = (code: number, json: unknown = { success: false, message: 'no' }) =>
  fakeExchange({ status: code, json });

describe('envelopeViolation (ENV-SCHEMA)', () => {
  test('a conforming page passes: records, empty data, extra fields, amount as a numeric string', () => {
    assert.equal(envelopeViolation(page({ n: 3, total: 40 })), undefined);
    assert.equal(envelopeViolation(page({ n: 0, offset: 50, total: 40 })), undefined);
    assert.equal(envelopeViolation(page({ n: 1 }, { hasMore: false })), undefined);
    assert.equal(envelopeViolation(page({ data: [{ id: 'x', status: 'COMPLETED', amount: '12.50' }] })), undefined);
  });

  const broken: Array<[string, ReturnType<typeof fakeExchange>, RegExp]> = [
    ['success as the string "true"', page({ n: 1 }, { success: 'true' }), /\/success/],
    ['success false', page({ n: 1 }, { success: false }), /\/success/],
    ['message missing', page({ n: 1 }, { message: undefined }), /\/message/],
    ['total as the string "237"', page({ n: 1 }, { total: '237' }), /\/total/],
    ['negative offset', page({ n: 1 }, { offset: -1 }), /\/offset/],
    ['limit not an integer', page({ n: 1 }, { limit: 1.5 }), /\/limit/],
    ['data not an array', page({ n: 1 }, { data: {} }), /\/data/],
    ['a record without amount', page({ data: [{ id: 'x', status: 'COMPLETED' }] }), /\/data\/0/],
    ['a non-JSON body', fakeExchange({ text: '<html>oops</html>' }), /not JSON/],
    ['a 500', status(500), /HTTP 500/],
  ];
  for (const [name, e, received] of broken) {
    test(`${name} fails`, () => {
      const v = envelopeViolation(e);
      assert.equal(v?.rule, 'ENV-SCHEMA');
      assert.match(v?.received ?? '', received);
      assert.equal(v?.exchange, e);
    });
  }
});

describe('limitInForce', () => {
  test('the requested limit in 1..100, the default when omitted, 100 above the cap', () => {
    assert.equal(limitInForce({ limit: 7 }, 10), 7);
    assert.equal(limitInForce({ limit: MAX_LIMIT }, 10), 100);
    assert.equal(limitInForce({}, 10), 10);
    assert.equal(limitInForce({ offset: 5 }, 25), 25);
    assert.equal(limitInForce({ limit: 101 }, 10), 100);
    assert.equal(limitInForce({ limit: 10 ** 9 }, 10), 100);
  });
});

describe('echoViolation (PAG-ECHO)', () => {
  test('offset as sent and the limit in force pass', () => {
    assert.equal(echoViolation(page({ offset: 5, limit: 7, total: 40, n: 7 }), { offset: 5, limit: 7 }, 10), undefined);
    assert.equal(echoViolation(page({ offset: 0, limit: 10, total: 40, n: 10 }), {}, 10), undefined);
    assert.equal(echoViolation(page({ offset: 0, limit: 100, total: 40, n: 40 }), { limit: 150 }, 10), undefined);
    assert.equal(echoViolation(page({ offset: 900, limit: 10, total: 40 }), { offset: 900, limit: 10 }, 10), undefined);
  });
  test('a response that is not a usable 200 is left to other checks', () => {
    assert.equal(echoViolation(status(400), { limit: 150 }, 10), undefined);
    assert.equal(echoViolation(page({ n: 1 }, { total: '1' }), {}, 10), undefined);
  });
  const broken: Array<[string, ReturnType<typeof fakeExchange>, Parameters<typeof echoViolation>[1], RegExp]> = [
    ['offset echoed as 0', page({ offset: 0, limit: 7, total: 40, n: 7 }), { offset: 5, limit: 7 }, /offset 5/],
    ['limit omitted, echoed as 0', page({ offset: 0, limit: 0, total: 40, n: 10 }), {}, /\(omitted: the default\)/],
    [
      'offset past the end echoed as total',
      page({ offset: 40, limit: 10, total: 40 }),
      { offset: 41, limit: 10 },
      /offset 41/,
    ],
    [
      'over the cap, requested limit echoed',
      page({ offset: 0, limit: 150, total: 400, n: 100 }),
      { limit: 150 },
      /150 clamped/,
    ],
    ['default other than the configured one', page({ offset: 0, limit: 25, total: 40, n: 25 }), {}, /limit 10/],
  ];
  for (const [name, e, sent, expected] of broken) {
    test(`${name} fails`, () => {
      const v = echoViolation(e, sent, 10);
      assert.equal(v?.rule, 'PAG-ECHO');
      assert.match(v?.expected ?? '', expected);
    });
  }
});

describe('defaultLimitViolation (PAG-DEFAULT)', () => {
  test('the default echoed, with a full page or the rest of the set, passes', () => {
    assert.equal(defaultLimitViolation(page({ offset: 0, limit: 10, total: 40, n: 10 }), 10), undefined);
    assert.equal(defaultLimitViolation(page({ offset: 37, limit: 10, total: 40, n: 3 }), 10), undefined);
    assert.equal(defaultLimitViolation(page({ offset: 50, limit: 10, total: 40 }), 10), undefined);
    assert.equal(defaultLimitViolation(page({ offset: 0, limit: 25, total: 40, n: 25 }), 25), undefined);
  });
  test('another default (25), echoed or only served, fails', () => {
    assert.equal(defaultLimitViolation(page({ offset: 0, limit: 25, total: 40, n: 25 }), 10)?.rule, 'PAG-DEFAULT');
    assert.equal(defaultLimitViolation(page({ offset: 0, limit: 10, total: 40, n: 25 }), 10)?.rule, 'PAG-DEFAULT');
  });
  test('limit echoed as 0 while serving the default fails', () => {
    assert.match(
      defaultLimitViolation(page({ offset: 0, limit: 0, total: 40, n: 10 }), 10)?.received ?? '',
      /echoed 0/,
    );
  });
  test('a refusal of the request without limit fails', () => {
    assert.equal(defaultLimitViolation(status(400), 10)?.rule, 'PAG-DEFAULT');
  });
});

describe('sizeViolation (PAG-SIZE)', () => {
  test('full pages, the short last page and pages past the end pass', () => {
    assert.equal(sizeViolation(page({ offset: 0, limit: 10, total: 40, n: 10 })), undefined);
    assert.equal(sizeViolation(page({ offset: 35, limit: 10, total: 40, n: 5 })), undefined);
    assert.equal(sizeViolation(page({ offset: 40, limit: 10, total: 40 })), undefined);
    assert.equal(sizeViolation(page({ offset: 0, limit: 10, total: 0 })), undefined);
  });
  test('a full page one short fails with the expected count', () => {
    const v = sizeViolation(page({ offset: 0, limit: 10, total: 40, n: 9 }));
    assert.equal(v?.rule, 'PAG-SIZE');
    assert.match(v?.expected ?? '', /^10 records/);
  });
  test('records past the end, or more than the limit, fail', () => {
    assert.equal(sizeViolation(page({ offset: 41, limit: 10, total: 40, n: 10 }))?.rule, 'PAG-SIZE');
    assert.equal(sizeViolation(page({ offset: 0, limit: 10, total: 40, n: 11 }))?.rule, 'PAG-SIZE');
  });
  test('a response that is not a usable 200 is left to other checks', () => {
    assert.equal(sizeViolation(status(500)), undefined);
  });
});

describe('emptyViolation (PAG-EMPTY)', () => {
  test('offset at or past the end with data [] and the known total passes', () => {
    assert.equal(emptyViolation(page({ offset: 40, limit: 10, total: 40 }), 40, 40, false), undefined);
    assert.equal(emptyViolation(page({ offset: 41, limit: 10, total: 40 }), 41, 40, false), undefined);
    assert.equal(emptyViolation(page({ offset: 0, limit: 10, total: 0 }), 0, 0, false), undefined);
  });
  test('a page inside the data is not judged', () => {
    assert.equal(emptyViolation(page({ offset: 0, limit: 10, total: 40, n: 10 }), 0, 40, false), undefined);
  });
  test('an absurd offset may be refused with a 4xx; an ordinary one may not', () => {
    assert.equal(emptyViolation(status(400), 45, 40, true), undefined);
    assert.equal(emptyViolation(status(400), 45, 40, false)?.rule, 'PAG-EMPTY');
    assert.equal(emptyViolation(status(500), 45, 40, true)?.rule, 'PAG-EMPTY');
  });
  test('a past-end request fails on records even when the target echoes a wrong offset', () => {
    // offset 45 was sent (past total 40); the target echoes 0 and serves a page: still PAG-EMPTY.
    assert.equal(emptyViolation(page({ offset: 0, limit: 10, total: 40, n: 10 }), 45, 40, false)?.rule, 'PAG-EMPTY');
  });
  test('records past the end fail', () => {
    const v = emptyViolation(page({ offset: 40, limit: 10, total: 40, n: 10 }), 40, 40, false);
    assert.equal(v?.rule, 'PAG-EMPTY');
    assert.match(v?.received ?? '', /10 records/);
  });
  test('total 0 (or any other total) past the end fails', () => {
    assert.equal(emptyViolation(page({ offset: 40, limit: 10, total: 0 }), 40, 40, false)?.rule, 'PAG-EMPTY');
    assert.equal(emptyViolation(page({ offset: 45, limit: 10, total: 5 }), 45, 40, false)?.rule, 'PAG-EMPTY');
  });
  test('total 0 with records fails', () => {
    assert.equal(emptyViolation(page({ offset: 0, limit: 10, total: 0, n: 2 }), 0, 0, false)?.rule, 'PAG-EMPTY');
  });
});

describe('capViolation (LIM-CAP)', () => {
  test('a 4xx, or 100 records with limit echoed as 100, passes', () => {
    assert.equal(capViolation(status(400), 101), undefined);
    assert.equal(capViolation(status(422), 10 ** 9), undefined);
    assert.equal(capViolation(page({ offset: 0, limit: 100, total: 400, n: 100 }), 101), undefined);
    assert.equal(capViolation(page({ offset: 390, limit: 100, total: 400, n: 10 }), 150), undefined);
  });
  test('more than 100 records fails (uncapped, or capped at 101)', () => {
    const v = capViolation(page({ offset: 0, limit: 101, total: 400, n: 101 }), 101);
    assert.equal(v?.rule, 'LIM-CAP');
    assert.match(v?.received ?? '', /101 records/);
  });
  test('100 records with the requested limit echoed fails', () => {
    assert.match(capViolation(page({ offset: 0, limit: 150, total: 400, n: 100 }), 150)?.received ?? '', /echoed 150/);
  });
  test('a 5xx, or a 200 without a usable envelope, fails', () => {
    assert.equal(capViolation(status(500), 101)?.rule, 'LIM-CAP');
    assert.equal(capViolation(page({ n: 1 }, { limit: '100' }), 101)?.rule, 'LIM-CAP');
  });
});

describe('robustnessViolation (INP-ROBUST)', () => {
  test('any 4xx, with any body, passes', () => {
    assert.equal(robustnessViolation(status(400), 'limit=abc'), undefined);
    assert.equal(robustnessViolation(status(422, { error: { code: 'x' } }), 'limit=abc'), undefined);
    assert.equal(robustnessViolation(fakeExchange({ status: 404, text: 'nope' }), 'limit=abc'), undefined);
  });
  test('a coerced 200 whose envelope holds for the values it echoes passes', () => {
    assert.equal(robustnessViolation(page({ offset: 0, limit: 10, total: 40, n: 10 }), 'limit=abc'), undefined);
  });
  test('a 5xx fails, naming the odd input', () => {
    const v = robustnessViolation(
      fakeExchange({ status: 500, text: 'RangeError: at parse' }),
      'offset=1.5 (non-integer)',
    );
    assert.equal(v?.rule, 'INP-ROBUST');
    assert.match(v?.expected ?? '', /offset=1\.5/);
    assert.match(v?.received ?? '', /HTTP 500/);
  });
  test('a 200 echoing a negative offset fails (envelope)', () => {
    const v = robustnessViolation(page({ offset: 0, limit: 10, total: 40, n: 1 }, { offset: -1 }), 'offset=-1');
    assert.equal(v?.rule, 'INP-ROBUST');
    assert.match(v?.received ?? '', /\/offset/);
  });
  test('a 200 whose size contradicts its own echo fails', () => {
    assert.equal(robustnessViolation(page({ offset: 0, limit: 10, total: 40, n: 3 }), 'limit=1e2')?.rule, 'INP-ROBUST');
  });
});

describe('capNotationViolation (LIM-CAP for a limit written another way)', () => {
  const page = (n: number, limit: number) => fakeExchange({ json: envelope({ n, limit, total: 237 }) });
  test('a 4xx, or a 200 reading it as any limit up to 100, passes', () => {
    assert.equal(capNotationViolation(fakeExchange({ status: 400, json: {} }), 'limit=1e3'), undefined);
    assert.equal(capNotationViolation(page(100, 100), 'limit=1e3'), undefined);
    assert.equal(capNotationViolation(page(1, 1), 'limit=1e3 (read as 1)'), undefined);
    assert.equal(capNotationViolation(page(5, 5), 'limit=5&limit=500'), undefined);
  });
  test('more than 100 records, more records than echoed, or an echo above 100 fails', () => {
    for (const [n, limit] of [
      [237, 237],
      [100, 5],
      [100, 500],
    ] as const) {
      const v = capNotationViolation(page(n, limit), 'limit=+500 (plus sign)');
      assert.equal(v?.rule, 'LIM-CAP', `${n} records, limit ${limit}`);
      assert.match(v?.expected ?? '', /limit=\+500 \(plus sign\)/);
    }
    assert.equal(capNotationViolation(fakeExchange({ status: 500, text: 'x' }), 'limit=1e3')?.rule, 'LIM-CAP');
  });
});
