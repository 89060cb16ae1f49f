/**
 * Faults of what an answer carries beyond its status (reading: "A refusal reveals nothing"; §1 mode isolation): a
 * page computed before the permission or mode check and sent with the refusal, state shared between requests that
 * leaks into another caller's error, a code path of one query that forgets the mode. The status of every answer is
 * right: only a suite that reads what every answer carries, and asks every value it learned everywhere, sees them.
 */
import { listingKey } from '../data.ts';
import { IDENTITY } from '../identity.ts';
import type { Row } from '../store.ts';
import { type Fault, fault } from './fault.ts';

/** The last page the mock served, kept in a module-level variable that every request shares (a debugging aid). */
let lastPage: readonly Row[] = [];

/** The last payment the mock served on a test-mode listing, as an audit helper keeps it (state shared by requests). */
let lastTestPayment: Row | undefined;

/** The value of a query parameter in a raw query string, as the mock's parser reads it. */
const param = (search: string, name: string) => new URLSearchParams(search).get(name);

export const REFUSAL_FAULTS: readonly Fault[] = [
  fault(
    'forbidden-carries-page',
    'AUTH-FORBIDDEN',
    "the restricted key's 403 carries the page the listing computed before the permission check (a data field)",
    {
      refused: (failure, r) => {
        if (failure.status === 403 && r.request.route === 'list' && r.access.listing.length > 0) {
          failure.carries = { field: 'data', rows: r.preview(r.access.listing) };
        }
      },
    },
  ),
  fault(
    'other-mode-404-carries-record',
    'MODE-LIVE-SANDBOX',
    "the live key's 404 on a sandbox merchant carries the sandbox page's first record in an X-Debug-Record header",
    {
      refused: (failure, r) => {
        const { merchant, mode } = r.access;
        if (failure.status !== 404 || merchant?.kind !== 'sandbox' || mode !== 'live') return;
        const rows = r.preview([listingKey(merchant.id, 'test')]);
        if (rows.length > 0) failure.carries = { field: 'record', rows, header: 'X-Debug-Record' };
      },
    },
  ),
  fault(
    'last-page-in-401',
    'AUTH-MISSING',
    'every 401 body carries the last page the mock served to anyone (a "lastResult" kept in state shared between requests)',
    {
      page: (data) => {
        lastPage = data;
        return undefined;
      },
      error: (failure) => {
        if (failure.status === 401 && lastPage.length > 0) failure.carries = { field: 'lastResult', rows: lastPage };
      },
    },
  ),
  fault(
    'revoked-401-names-last-payment',
    'AUTH-REVOKED',
    "a revoked key's 401 names the account's last payment in an X-Last-Activity header, as text (id=… amount=… status=…)",
    {
      page: (data, f) => {
        if (f.access.mode === 'test' && data[0]) lastTestPayment = data[0];
        return undefined;
      },
      headers: (h, f, status) => {
        const p = lastTestPayment;
        if (status !== 401 || f.presented !== IDENTITY.keys.revoked || !p) return;
        h['X-Last-Activity'] =
          `key revoked; last payment id=${p.id} amount=${p.amount} ${p.currency} status=${p.status}`;
      },
    },
  ),
  fault(
    'status-filter-forgets-mode',
    'MODE-ISOLATION',
    "on the live merchant, filter[status] with a status other than COMPLETED reads both modes' payments (the status index has no mode column)",
    {
      access: (a, r) => {
        const status = param(r.search, 'filter[status]');
        if (a.merchant?.kind !== 'live' || a.failure || status === null || status === 'COMPLETED') return;
        a.listing.push(listingKey(a.merchant.id, a.mode === 'live' ? 'test' : 'live'));
      },
    },
  ),
];
