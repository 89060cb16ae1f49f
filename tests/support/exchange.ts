/** Synthetic exchanges for unit tests of the pure checks: a check is fed a broken and a correct response. */
import { asKey } from '../../core/model/credentials.ts';
import { buildURL, type Exchange, type QueryPairs } from '../../core/model/exchange.ts';

export function fakeExchange(init: {
  status?: number;
  json?: unknown;
  text?: string;
  headers?: Record<string, string>;
  query?: QueryPairs;
  path?: string;
  keyLeak?: string;
}): Exchange {
  const text = init.text ?? (init.json === undefined ? '' : JSON.stringify(init.json));
  const path = init.path ?? '/payments/n1/merchant/m1/payments';
  const query = init.query ?? [];
  const url = buildURL('http://127.0.0.1:1', path, query);
  return {
    method: 'GET',
    url,
    path,
    query,
    sent: { accept: 'application/json' },
    auth: asKey('test'),
    authLabel: 'Authorization: Bearer $API_TEST_KEY',
    status: init.status ?? 200,
    headers: init.headers ?? { 'content-type': 'application/json' },
    text,
    json: init.json,
    curl: `curl -sS -g -i -H "Authorization: Bearer $API_TEST_KEY" '${url}'`,
    keyLeak: init.keyLeak,
  };
}

/** A listing envelope with `n` records `{id, status, amount}` (ids r0, r1, …) unless `data` is given. */
export function envelope(
  fields: { offset?: number; limit?: number; total?: number; data?: unknown[]; n?: number } = {},
) {
  const data =
    fields.data ??
    Array.from({ length: fields.n ?? 0 }, (_, i) => ({ id: `r${i}`, status: 'COMPLETED', amount: i + 1 }));
  return {
    success: true,
    message: 'OK',
    data,
    offset: fields.offset ?? 0,
    limit: fields.limit ?? 10,
    total: fields.total ?? data.length,
  };
}
