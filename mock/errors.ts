/**
 * Every rejection the mock sends: the message texts (tests reuse them) and the one error constructor.
 * No message ever contains a key; none echoes request input.
 */
import { STATUS_CODES } from 'node:http';
import { IDENTITY } from './identity.ts';
import type { Variants } from './variants.ts';

export const MESSAGES = {
  ok: 'OK',
  keyAccepted: 'API key accepted',
  missingKey: 'Missing API key: send Authorization: Bearer <API_KEY>',
  invalidKey: 'Invalid API key',
  revokedKey: 'API key is revoked or expired',
  forbidden: 'The API key lacks the permission payments:read',
  missingToken: 'Missing Authentication Token',
  notFound: 'Not found',
  merchantNotFound: 'Merchant not found',
  merchantForbidden: 'Access to this merchant is not allowed',
  otherMode: 'Merchant not found in this mode: sandbox merchants accept test keys only',
  modeForbidden: 'This key may not access this merchant in its mode',
  methodNotAllowed: 'Method not allowed',
  unsupportedMediaType: 'Unsupported media type: send Content-Type: application/json',
  invalidOffset: 'offset must be a non-negative integer',
  invalidLimit: `limit must be an integer from 1 to ${IDENTITY.maxLimit}`,
  limitTooLarge: `limit must not exceed ${IDENTITY.maxLimit}`,
  invalidStatus: 'filter[status] must be a non-empty payment status',
  unknownStatus: 'filter[status] names no known payment status',
  invalidSort: 'sort must be amount or -amount',
  repeatedParameter: 'a query parameter was given more than once',
  unknownParameter: 'a query parameter this endpoint does not take was given',
  busy: 'Service unavailable: try again later',
  invalidFilter: 'a filter must be a non-empty value of its field',
  unknownFilter: 'the filter names no known value of its field',
  invalidFieldSort: 'sort must name a field this collection sorts by, with or without a leading -',
  invalidCollectionLimit: 'limit must be an integer from 1 to the maximum of this collection',
  collectionLimitTooLarge: 'limit must not exceed the maximum of this collection',
  valueTooLong: 'a query value is too long',
  malformedRequest: 'Malformed HTTP request',
  missingHost: 'Malformed HTTP request: HTTP/1.1 requires a Host header',
  headersTooLarge: 'Request headers too large',
  requestTimeout: 'Request timeout',
  internal: 'Internal error in the mock',
} as const;

export type Message = (typeof MESSAGES)[keyof typeof MESSAGES];

const KINDS = new Map<string, string>(Object.entries(MESSAGES).map(([kind, text]) => [text, kind]));
/** The kind of a failure (its message's name in MESSAGES: `invalidKey`), which a learned error shape may select. */
export const failureKind = (message: string): string | undefined => KINDS.get(message);

/** A rejection: status and message; `param` names the query parameter at fault, `allow` the allowed methods. */
export interface Failure {
  status: number;
  message: string;
  param?: string;
  allow?: string;
  /** Only ever set by a fault: rows sent along with the refusal (in a body field, or a header as JSON). */
  carries?: { field: string; rows: readonly unknown[]; header?: string };
}

/** The one error constructor. */
export function reject(status: number, message: Message, param?: string): Failure {
  return param === undefined ? { status, message } : { status, message, param };
}

export const JSON_TYPE = 'application/json; charset=utf-8';
const PROBLEM_TYPE = 'application/problem+json';
export const TEXT_TYPE = 'text/plain; charset=utf-8';

/** An error as sent: its media type and body. */
interface ErrorBody {
  type: string;
  body: string;
}

/** What a rich error body may echo of the request (variant errors=rich): never more than a key's last four characters. */
interface ErrorEcho {
  requestNo: number;
  path: string;
  merchantId?: string;
  /** The presented key's last four characters, and its mode prefix (`sk_test_`) when it has one. */
  keyLast4?: string;
  keyPrefix?: string;
}

/**
 * Error bodies, per the variant `errors`: json = the envelope-like default (and the `invalid=422` variant's shape
 * for parameter errors); problem = RFC 9457 problem details; text = the message on one line; rich = a gateway's
 * error object echoing the request (its path, the merchant id, the key's last four characters, an integer id).
 */
export function errorBody(
  failure: Failure,
  variants: Pick<Variants, 'invalid' | 'errors'>,
  echo: ErrorEcho = { requestNo: 0, path: '' },
): ErrorBody {
  switch (variants.errors) {
    case 'rich': {
      const { requestNo, path, merchantId, keyLast4, keyPrefix } = echo;
      const error = {
        id: requestNo,
        httpStatus: failure.status,
        code: (STATUS_CODES[failure.status] ?? 'error').toLowerCase().replace(/\W+/g, '_'),
        message: failure.message,
        path,
        ...(merchantId === undefined ? {} : { merchantId }),
        ...(keyLast4 === undefined ? {} : { key: `${keyPrefix ?? ''}…${keyLast4}`, keyLast4 }),
      };
      return { type: JSON_TYPE, body: JSON.stringify({ success: false, message: failure.message, error }) };
    }
    case 'problem': {
      const title = STATUS_CODES[failure.status] ?? 'Error';
      const body = { type: 'about:blank', title, status: failure.status, detail: failure.message };
      return { type: PROBLEM_TYPE, body: JSON.stringify(body) };
    }
    case 'text':
      return { type: TEXT_TYPE, body: `${failure.message}\n` };
    case 'json':
      if (variants.invalid === '422' && failure.param !== undefined) {
        const error = { code: 'invalid_parameter', detail: failure.message, param: failure.param };
        return { type: JSON_TYPE, body: JSON.stringify({ error }) };
      }
      return { type: JSON_TYPE, body: JSON.stringify({ success: false, message: failure.message }) };
  }
}
