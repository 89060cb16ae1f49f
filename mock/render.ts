/**
 * Turns the pipeline's decision into status, headers and body: the envelope (§2), the status payload,
 * and every error through the one error constructor's body shape. Faults hook in here last.
 */
import type { Mode } from './data.ts';
import { errorBody, type Failure, failureKind, JSON_TYPE, MESSAGES, TEXT_TYPE } from './errors.ts';
import type { Board, RequestFacts } from './hooks.ts';
import { CORS_ORIGIN, type MethodsAnswer } from './methods.ts';
import { negotiate } from './negotiation.ts';
import type { Page } from './query.ts';
import { listSegment } from './routes.ts';
import {
  errorShape,
  errorValues,
  fill,
  headersOf,
  pageValues,
  type RequestEcho,
  render as renderShape,
  requestValues,
  type Shapes,
} from './shapes.ts';
import type { Row } from './store.ts';
import type { Variants } from './variants.ts';

/** One request's decision, made by server.ts's pass: what render turns into a reply. */
export type Decision =
  | { kind: 'list'; page: Page }
  | { kind: 'status'; mode: Mode }
  | { kind: 'failure'; failure: Failure }
  /** An OPTIONS answered 2xx (methods.ts): Allow, CORS headers, an Allow list as text or no body. */
  | MethodsAnswer
  /** Only ever produced by a fault that crashes the handler: a stack trace as text. */
  | { kind: 'crash'; text: string };

export interface Reply {
  status: number;
  headers: Record<string, string | number>;
  body: string;
}

/** Where faults hook into rendering, last. */
export interface RenderHooks {
  /** Rewrite a 200 body (listing or status). */
  body?(body: Record<string, unknown>, facts: RequestFacts): void;
  /** Rewrite a failure before its body is built. */
  error?(failure: Failure, facts: RequestFacts): void;
  /** Rewrite the body as serialized (what a hand-written serializer puts on the wire); undefined keeps it. */
  text?(body: string, status: number, facts: RequestFacts): string | undefined;
  /** Add or change response headers (`status`: the answer's, after every rewrite). */
  headers?(headers: Record<string, string | number>, facts: RequestFacts, status: number): void;
}

/**
 * Stands in for `data` while the envelope is stringified; the rows' precomputed JSON replaces it after.
 * NUL cannot reach a body from a request (HTTP rejects it in headers), so the mark is unambiguous.
 */
const DATA_MARK = '\u0000data\u0000';
const DATA_MARK_JSON = JSON.stringify(DATA_MARK);

/** The merchant id segment of a list path, decoded where it decodes (for an error that echoes it). */
const merchantOfPath = (path: string): string | undefined => listSegment(path)?.decoded;

/** A faulty refusal's rows (Failure.carries), put into its body: a JSON body gets a field, a text body a line. */
function withCarried(body: string, failure: Failure): string {
  const c = failure.carries;
  if (!c || c.header !== undefined) return body;
  const rows = JSON.stringify(c.rows);
  return body.endsWith('}')
    ? `${body.slice(0, -1)},${JSON.stringify(c.field)}:${rows}}`
    : `${body}${c.field}: ${rows}\n`;
}

/** What a request shows of itself to a template or a rich error: never more than the key's last four characters. */
function echoOf(facts: RequestFacts, requestNo: number): RequestEcho {
  const merchantId = facts.route === 'list' ? merchantOfPath(facts.path) : undefined;
  const keyLast4 = facts.presented !== undefined && facts.presented.length > 8 ? facts.presented.slice(-4) : undefined;
  const keyPrefix = /^sk_(?:test|live)_/.exec(facts.presented ?? '')?.[0];
  return { requestNo, method: facts.method, path: facts.path, search: facts.search, merchantId, keyLast4, keyPrefix };
}

/** A refusal in a learned shape (shapes.ts), when one matches its status and kind. */
function shapedFailure(shapes: Shapes | undefined, failure: Failure, echo: RequestEcho) {
  const kind = failureKind(failure.message);
  const shape = shapes && errorShape(shapes, failure.status, kind);
  if (!shape) return undefined;
  const values = { ...requestValues(echo), ...errorValues(failure.status, failure.message, kind, failure.param) };
  return { ...renderShape(shape, values), headers: headersOf(shape.headers, values) };
}

/** The envelope's extra fields a calibration learned (shapes.ts), filled with the page's own values. */
function learnedFields(
  body: Record<string, unknown>,
  fields: NonNullable<Shapes['envelope']>,
  e: RequestEcho,
  n: number,
) {
  const { offset, limit, total } = body as { offset: number; limit: number; total: number };
  const values = { ...requestValues(e), ...pageValues({ offset, limit, total }, n) };
  for (const [field, t] of Object.entries(fields)) if (!(field in body)) body[field] = fill(t, values);
}

/** The status endpoint's body in a learned shape: its mode spelt as the calibration learned it. */
function shapedStatus(shapes: Shapes, mode: Mode, e: RequestEcho) {
  const status = shapes.status as NonNullable<Shapes['status']>;
  const spelt = status.modes?.[mode] ?? { mode: mode === 'live' ? 'live' : 'sandbox' };
  return renderShape(status, { ...requestValues(e), ...spelt });
}

/** A reply's status, body and media type, and the headers a learned shape adds. */
type Built = { status: number; body: string; type?: string; headers?: Record<string, string> };

/** Headers besides the body's: Allow, a fault's, the variants' (CORS, a request id), a calibration's learned ones. */
function extraHeaders(v: Variants, shapes: Shapes | undefined, decision: Decision, built: Built, echo: RequestEcho) {
  const headers: Record<string, string | number> = {};
  if (decision.kind === 'failure' && decision.failure.allow !== undefined) headers.Allow = decision.failure.allow;
  const carried = decision.kind === 'failure' ? decision.failure.carries : undefined;
  if (carried?.header) headers[carried.header] = JSON.stringify(carried.rows[0] ?? null);
  if (decision.kind === 'methods') Object.assign(headers, decision.headers);
  // CORS middleware (options=cors) marks every answer, not only the pre-flight's.
  if (v.options === 'cors') Object.assign(headers, CORS_ORIGIN);
  if (v.extras === 'on') headers['X-Request-Id'] = `req_${echo.requestNo.toString(36).padStart(8, '0')}`;
  // Learned headers (shapes.ts): those of every answer, then a refusal's own.
  if (shapes?.headers) Object.assign(headers, headersOf(shapes.headers, requestValues(echo)));
  return Object.assign(headers, built.headers);
}

export function createRenderer(
  variants: Variants,
  board: Board<RenderHooks>,
  rowJson: (row: Row) => string,
  shapes?: Shapes,
) {
  const extras = variants.extras === 'on';

  const bodyOf = (decision: Decision, facts: RequestFacts, requestNo: number): Built => {
    switch (decision.kind) {
      case 'list': {
        const { data, echo } = decision.page;
        const body: Record<string, unknown> = {
          success: true,
          message: MESSAGES.ok,
          data: DATA_MARK,
          offset: echo.offset,
          limit: echo.limit,
          total: echo.total,
        };
        if (extras) {
          body.page = echo.limit > 0 ? Math.floor(echo.offset / echo.limit) + 1 : 1;
          body.hasMore = echo.offset + data.length < echo.total;
        }
        if (shapes?.envelope) learnedFields(body, shapes.envelope, echoOf(facts, requestNo), data.length);
        for (const rewrite of board.body) rewrite(body, facts);
        const text = JSON.stringify(body).replace(DATA_MARK_JSON, () => `[${data.map(rowJson).join(',')}]`);
        return { status: 200, body: text, type: JSON_TYPE };
      }
      case 'status': {
        const mode = decision.mode === 'live' ? 'live' : 'sandbox';
        // The variant status-endpoint: no body (204), or one line of text; neither is a body a fault rewrites.
        if (variants['status-endpoint'] === '204') return { status: 204, body: '', type: undefined };
        if (shapes?.status) return { status: 200, ...shapedStatus(shapes, decision.mode, echoOf(facts, requestNo)) };
        if (variants['status-endpoint'] === 'text') {
          return { status: 200, body: `${MESSAGES.keyAccepted} (${mode} mode)\n`, type: TEXT_TYPE };
        }
        const body: Record<string, unknown> = { success: true, message: MESSAGES.keyAccepted, mode };
        for (const rewrite of board.body) rewrite(body, facts);
        return { status: 200, body: JSON.stringify(body), type: JSON_TYPE };
      }
      case 'failure': {
        const failure = { ...decision.failure };
        for (const rewrite of board.error) rewrite(failure, facts);
        const echo = echoOf(facts, requestNo);
        const shaped = shapedFailure(shapes, failure, echo);
        const { type, body } = shaped ?? errorBody(failure, variants, echo);
        return { status: failure.status, body: withCarried(body, failure), type, headers: shaped?.headers };
      }
      case 'methods':
        return { status: decision.status, body: decision.body, type: decision.body === '' ? undefined : TEXT_TYPE };
      case 'crash':
        return { status: 500, body: decision.text, type: TEXT_TYPE };
    }
  };

  return (decision: Decision, facts: RequestFacts, requestNo: number): Reply => {
    const built = bodyOf(decision, facts, requestNo);
    let { status, type } = built;
    let body = built.body;
    for (const rewrite of board.text) body = rewrite(body, status, facts) ?? body;
    // The variant representations=negotiated: another media type, an entity tag, a conditional answer (negotiation.ts).
    const negotiated =
      variants.representations === 'negotiated' ? negotiate(decision, facts, { body, type }) : undefined;
    if (negotiated) ({ status, type, body } = negotiated);
    // A 204 carries neither a body nor Content-Length (RFC 9110 §8.6).
    const headers: Record<string, string | number> =
      type === undefined
        ? { 'Cache-Control': 'no-store' }
        : { 'Content-Type': type, 'Content-Length': Buffer.byteLength(body), 'Cache-Control': 'no-store' };
    Object.assign(headers, extraHeaders(variants, shapes, decision, built, echoOf(facts, requestNo)));
    if (negotiated) Object.assign(headers, negotiated.headers);
    for (const rewrite of board.headers) rewrite(headers, facts, status);
    return { status, headers, body };
  };
}
