/**
 * The run's request log: the client's observer sees every attempt (retries included) without changing what the client
 * does; each entry is secret-free; the files of the run's processes become requests.ndjson (a check's requests on
 * consecutive lines, the preflight first) and a HAR.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { ApiClient, TransportError } from '../../core/client/http.ts';
import { openLedger } from '../../core/client/ledger.ts';
import { BODY_LIMIT, logEntry, openRequestLog, type WireExchange } from '../../core/client/request-log.ts';
import { asKey, NO_AUTH } from '../../core/model/credentials.ts';
import { type LoggedRequest, PREFLIGHT_TAG } from '../../core/model/exchange.ts';
import { registerSecret } from '../../core/model/secrets.ts';
import { orderRequests, toHar, writeRequestLog } from '../../reporters/requests.ts';
import { closedPort } from '../support/hostile-targets.ts';
import { testTarget } from '../support/target.ts';

const KEY = 'sk_test_RequestLogCANARY7q2w9e';
registerSecret(KEY);

let server: Server;
let base = '';
let throttled = 0;
const dirs: string[] = [];
before(async () => {
  server = createServer((req, res) => {
    if (req.url === '/throttled' && throttled++ === 0) {
      res.writeHead(429, { 'retry-after': '0' }).end();
      return;
    }
    // Echoes the presented key in a header and the body, as the canary's echoing target does.
    const auth = req.headers.authorization ?? '';
    res.writeHead(200, { 'content-type': 'application/json', 'x-echo': auth });
    res.end(JSON.stringify({ success: true, message: `you sent ${auth}`, data: [] }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
after(() => {
  server.close();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const target = (over = {}) => testTarget({ baseURL: base, keys: { test: KEY }, ...over });

describe('the client observer', () => {
  test('sees every attempt with its timing, the 429 and its retry too; the client answers as without it', async () => {
    const seen: WireExchange[] = [];
    const client = new ApiClient(target(), openLedger(), (e) => seen.push(e));
    const e = await client.get('/throttled', { auth: asKey('test') });
    assert.equal(e.status, 200);
    assert.deepEqual(
      seen.map((x) => x.response?.status),
      [429, 200],
    );
    assert.equal(client.sent, 2, 'one observed attempt per request sent');
    assert.ok(seen.every((x) => x.ms >= 0 && x.started > 0 && x.auth.kind === 'key'));
    await client.close();
  });

  test('a transport failure is seen once per attempt; an observer that throws changes nothing', async () => {
    const seen: WireExchange[] = [];
    const port = await closedPort();
    const client = new ApiClient(target({ baseURL: `http://127.0.0.1:${port}` }), openLedger(), (x) => {
      seen.push(x);
      throw new Error('the observer broke');
    });
    await assert.rejects(client.get('/ok', { auth: NO_AUTH }), TransportError);
    assert.equal(seen.length, client.sent);
    assert.ok(seen.length >= 1 && seen.every((x) => x.error && !x.response));
    await client.close();
  });
});

describe('an entry of the log', () => {
  const wire = (text: string, over: Partial<WireExchange> = {}): WireExchange => ({
    started: Date.parse('2026-11-24T10:00:00Z'),
    ms: 3.14,
    method: 'GET',
    url: `${base}/payments?limit=5&q=${KEY}`,
    auth: asKey('test'),
    response: { status: 200, headers: { 'x-echo': `Bearer ${KEY}` }, text },
    ...over,
  });

  test('names the key slot, never the key: url, headers and body redacted; the check that sent it', () => {
    const e = logEntry(wire(`{"echo":"${KEY}"}`, { sentFor: { test: 't1', check: 'PAG-SIZE a', rule: 'PAG-SIZE' } }));
    assert.deepEqual(
      [e.check, e.rule, e.test, e.key, e.status, e.ms],
      ['PAG-SIZE a', 'PAG-SIZE', 't1', 'API_TEST_KEY', 200, 3.1],
    );
    assert.equal(e.authorization, 'Authorization: Bearer $API_TEST_KEY');
    assert.equal(e.time, '2026-11-24T10:00:00.000Z');
    assert.ok(!JSON.stringify(e).includes(KEY));
    assert.match(e.url, /q=\[REDACTED\]$/);
    assert.equal(logEntry(wire('', { sentFor: PREFLIGHT_TAG })).check, 'preflight');
    assert.equal(logEntry(wire('')).check, null, 'sent for nothing: outside any check');
    assert.equal(logEntry(wire('', { auth: NO_AUTH })).key, 'none');
    assert.equal(logEntry(wire('', { auth: { kind: 'literal', header: 'Bearer x' } })).key, 'literal');
  });

  test('the body is cut at the limit after redaction (no cut hides a key); a failure has no status', () => {
    const long = `${'x'.repeat(BODY_LIMIT - 5)}${KEY}${'y'.repeat(100)}`;
    const e = logEntry(wire(long));
    assert.equal(e.body.length, BODY_LIMIT);
    assert.ok(e.truncated && e.bodyLength > BODY_LIMIT);
    assert.ok(!e.body.includes('sk_test_'));
    const failed = logEntry(wire('', { response: undefined, error: 'connection refused' }));
    assert.deepEqual([failed.status, failed.error, failed.body], [null, 'connection refused', '']);
  });
});

describe('requests.ndjson and requests.har', () => {
  const entry = (time: string, test: string | null, check: string | null): LoggedRequest => ({
    time,
    ms: 1,
    check,
    rule: check?.split(' ')[0] ?? null,
    test,
    method: 'GET',
    url: 'http://x/payments?offset=5&limit=10',
    key: 'API_TEST_KEY',
    authorization: 'Authorization: Bearer $API_TEST_KEY',
    status: 200,
    headers: { 'content-type': 'application/json' },
    body: '{}',
    bodyLength: 2,
    truncated: false,
  });

  test("a check's requests are consecutive lines, blocks in the order they began, the preflight first", () => {
    const w1 = [entry('T02', 'a', 'PAG-SIZE a'), entry('T05', 'a', 'PAG-SIZE a'), entry('T06', 'c', 'LIM-CAP c')];
    const w2 = [entry('T03', 'b', 'PAG-TOTAL b'), entry('T04', 'b', 'PAG-TOTAL b')];
    const main = [entry('T09', null, 'preflight')];
    const { entries, lines } = orderRequests([w1, w2, main]);
    assert.deepEqual(
      entries.map((e) => e.test ?? e.check),
      ['preflight', 'a', 'a', 'b', 'b', 'c'],
    );
    assert.deepEqual(Object.fromEntries(lines), { a: [2, 3], b: [4, 5], c: [6, 6] });
  });

  test('a HAR 1.2 log: one page per check, the key as its variable, the query parsed', () => {
    const har = toHar([entry('2026-11-24T10:00:00.000Z', 'a', 'PAG-SIZE a')], '0.1.0');
    assert.equal(har.log.version, '1.2');
    assert.deepEqual(
      har.log.pages.map((p) => p.title),
      ['PAG-SIZE a'],
    );
    const [e] = har.log.entries;
    assert.deepEqual(e?.request.headers[1], { name: 'authorization', value: 'Bearer $API_TEST_KEY' });
    assert.deepEqual(e?.request.queryString, [
      { name: 'offset', value: '5' },
      { name: 'limit', value: '10' },
    ]);
    assert.deepEqual([e?.response.status, e?.response.content.text, e?._line, e?._rule], [200, '{}', 1, 'PAG-SIZE']);
  });

  test("written from the processes' files: as many lines as requests, the log folder removed", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'request-log-'));
    dirs.push(dir);
    const log = join(dir, '.request-log');
    mkdirSync(log);
    const requestLog = openRequestLog(log);
    assert.ok(requestLog);
    assert.equal(openRequestLog(undefined), undefined, 'no log outside a run');
    const client = new ApiClient(target(), openLedger(), requestLog.write);
    const untag = client.sendingFor({ test: 't9', check: 'PAG-SIZE a', rule: 'PAG-SIZE' });
    for (let i = 0; i < 3; i++) await client.get('/ok', { auth: asKey('test') });
    untag();
    await client.get('/ok', { auth: asKey('test') });
    await client.close();
    assert.equal(requestLog.take('t9').length, 3, "the check's own lines, for its report");
    assert.deepEqual(requestLog.take('t9'), [], 'taken once');
    writeFileSync(join(log, '999.ndjson'), '{"truncated line'); // a process killed mid-write
    const { lines, count } = writeRequestLog(log, dir, '0.1.0');
    assert.equal(count, 4);
    assert.deepEqual(lines.get('t9'), [1, 3]);
    const ndjson = readFileSync(join(dir, 'requests.ndjson'), 'utf8');
    assert.equal(ndjson.trim().split('\n').length, 4);
    const har = JSON.parse(readFileSync(join(dir, 'requests.har'), 'utf8'));
    assert.equal(har.log.entries.length, 4);
    for (const text of [ndjson, JSON.stringify(har)]) assert.ok(!text.includes(KEY) && !text.includes('sk_test_'));
    assert.deepEqual(readdirSync(dir).sort(), ['requests.har', 'requests.ndjson']);
  });
});
