/**
 * The mock's HTTP server: one linear pass per request, in the order reading.md fixes and in the stages where
 * faults hook in (STAGES in switchboard.ts) — arrival (a fault may hold a request while others arrive), route (parse
 * the target, find the endpoint), authenticate, then an
 * unknown path or method, authorize (merchant and mode, then permission), parameters, query, render.
 * Nothing on that path throws on any input; a last-resort catch still keeps the server alive.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse, STATUS_CODES } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { Duplex } from 'node:stream';
import type { Arriving, HeldRequests } from './arrival.ts';
import { authenticate, describeCredentials, type KeyTable } from './auth.ts';
import { type Access, checkPermission, decideAccess } from './authorize.ts';
import type { CollectionStore } from './collections.ts';
import { type Failure, MESSAGES, type Message, reject } from './errors.ts';
import { FaultCrash } from './faults/index.ts';
import { firstAnswer, type RequestFacts } from './hooks.ts';
import { type MethodsAnswer, methodAfterAuth, methodBeforeAuth } from './methods.ts';
import { PAYMENTS_SHAPE, type ParsedQuery, parseQuery, type QuerySettings, type QueryShape } from './params.ts';
import { runQuery } from './query.ts';
import { createRenderer, type Decision, type Reply } from './render.ts';
import { API_PREFIX, type CollectionName, parseTarget, type Route, withinPrefix } from './routes.ts';
import type { Shapes } from './shapes.ts';
import type { ListingViews, Store } from './store.ts';
import type { Switchboard } from './switchboard.ts';
import { type ThrottleOptions, throttle } from './throttle.ts';
import type { Variants } from './variants.ts';

interface MockConfig extends ThrottleOptions {
  store: Store;
  keys: KeyTable;
  board: Switchboard;
  variants: Variants;
  settings: QuerySettings;
  /** Serve HTTPS with this certificate and key (PEM) instead of HTTP. */
  tls?: { cert: string; key: string };
  /** Where unexpected errors are reported (never with a key); stderr by default. */
  log?: (line: string) => void;
  /** Called with each request (parsed ones), before it is answered. */
  onRequest?: (request: RecordedRequest) => void;
  /** A growing data set: after every `every`-th request, one new payment in every listing. */
  grow?: { every: number };
  /** The collections served beside payments (collections.ts): each with its own faults, query settings and lists. */
  collections?: Partial<Record<CollectionName, ServedCollection>>;
  /** Shapes learned from another API (shapes.ts): its error bodies, headers, status body, envelope's extra fields. */
  shapes?: Shapes;
}

/** The payments' query under the status names a calibration gave the mock's statuses. */
const paymentsShape = (c: MockConfig): QueryShape =>
  c.shapes?.statuses ? { ...PAYMENTS_SHAPE, filterNames: c.shapes.statuses } : PAYMENTS_SHAPE;

/** A collection served beside payments: the faults switched on for it (`NAME@refunds`), its settings, query, lists. */
interface ServedCollection {
  board: Switchboard;
  settings: QuerySettings;
  shape: QueryShape;
  store: CollectionStore;
}

/** What a request's collection brings to the pass: its faults, query settings and shape, and its lists. */
interface Lane {
  board: Switchboard;
  settings: QuerySettings;
  shape: QueryShape;
  views(listings: readonly string[], query: Pick<ParsedQuery, 'sortField'>): ListingViews;
}

/** The lane of a route: payments' (and every path not a collection's), or the collection's it names. */
function laneOf(c: MockConfig, route: Route): Lane | undefined {
  const name = route.kind === 'list' ? route.collection : undefined;
  if (name === undefined) {
    return { board: c.board, settings: c.settings, shape: paymentsShape(c), views: (l) => c.store.listing(l) };
  }
  const served = c.collections?.[name];
  return served && { ...served, views: (l, q) => served.store.listing(l, q) };
}

/** A request as a recorder sees it: the method, the target as sent and how it authenticated (never the key). */
export interface RecordedRequest {
  method: string;
  target: string;
  auth: string;
}

const failed = (failure: Failure): Decision => ({ kind: 'failure', failure });
/** A method's answer (methods.ts) as a decision: a 2xx of its own, or a refusal. */
const byMethod = (answer: MethodsAnswer | Failure): Decision => ('kind' in answer ? answer : failed(answer));
/** `application/json`, parameters allowed (`; charset=utf-8`), any case. */
const isJson = (type: string | undefined) => type?.split(';')[0]?.trim().toLowerCase() === 'application/json';
const ignore = () => {};
/** Under busy=retry-after, every this-many-th request is answered 503 with Retry-After. */
const BUSY_EVERY = 37;
/** What the hooks know of a request before its pass: its method and headers. */
const factsOf = (req: IncomingMessage): RequestFacts => ({
  method: req.method ?? '',
  path: '',
  search: '',
  route: 'unknown',
  presented: undefined,
  contentType: req.headers['content-type'],
  headers: req.headers,
});
/** A server shedding load now and then (variant busy=retry-after): come back later, before anything else. */
const busyNow = (c: MockConfig, no: number): Decision | undefined =>
  c.variants.busy === 'retry-after' && no % BUSY_EVERY === 0 ? failed(reject(503, MESSAGES.busy)) : undefined;

/** The decision for one request. Reads only method, target and Authorization; bodies are ignored. */
function decide(
  c: MockConfig,
  sentMethod: string,
  url: string,
  authorization: string | undefined,
  facts: RequestFacts,
  requestNo: number,
): Decision {
  // 1. Route: the target's endpoint and raw query. Malformed input simply matches nothing. Under a path prefix
  // (variant prefix=api), a path outside it is no part of the API: 404, whatever the credentials.
  const inside = withinPrefix(url, API_PREFIX[c.variants.prefix]);
  if (inside === undefined) return failed(reject(404, MESSAGES.notFound));
  const target = parseTarget(inside);
  const { search } = target;
  facts.path = target.path;
  facts.search = search;
  // A collection's path is served by its lane (its own faults and lists); one the mock does not serve is no path.
  const lane = laneOf(c, target.route);
  if (!lane) target.route = { kind: 'unknown' };
  const board = lane?.board ?? c.board;
  if (target.route.kind === 'list' && target.route.collection) facts.collection = target.route.collection;
  const route = firstAnswer(board.routes.route, target.route, facts) ?? target.route;
  facts.route = route.kind;
  // The method as the router dispatches it; then what answers a method before authentication (CORS middleware, a
  // router without a HEAD route: variants options, head).
  const method = firstAnswer(board.routes.method, sentMethod, facts) ?? sentMethod;
  const early = methodBeforeAuth(c.variants, method, route.kind);
  if (early) return byMethod(early);
  // A strict gateway (documented-headers=enforced) refuses a request without the endpoint's documented headers first.
  if (c.variants['documented-headers'] === 'enforced' && route.kind === 'status' && !isJson(facts.contentType)) {
    return failed(reject(415, MESSAGES.unsupportedMediaType));
  }

  // 2. Authenticate first: a request without a valid key gets 401 on any path, existing or not
  // (routing=route-first: on a path no endpoint serves, 404 comes first).
  const revealed = firstAnswer(board.auth.beforeAuth, route, c.store, facts);
  if (revealed) return failed(revealed);
  if (route.kind === 'unknown' && c.variants.routing === 'route-first') return failed(reject(404, MESSAGES.notFound));
  const auth = authenticate(c.keys, board.auth, c.variants, authorization, route, facts);
  facts.presented = auth.presented;
  if (auth.key === undefined) return failed(auth.failure);

  // 3. A path no endpoint serves, then the method.
  if (route.kind === 'unknown') return failed(reject(404, MESSAGES.notFound));
  const other = methodAfterAuth(c.variants, method);
  if (other) return byMethod(other);
  if (route.kind === 'status') {
    const denied = checkPermission(board.authorize, auth.key, undefined, facts);
    if (denied) return failed(denied);
    // The status endpoint takes no query: a strict gateway refuses one (unknown-params=reject).
    if (search !== '' && c.variants['unknown-params'] === 'reject')
      return failed(reject(c.variants.invalid === '422' ? 422 : 400, MESSAGES.unknownParameter));
    return { kind: 'status', mode: auth.key.mode };
  }
  // A list route always has a lane (a route a fault made of another path: payments').
  const served = lane ?? (laneOf(c, { kind: 'status' }) as Lane);

  // 4. Authorize: merchant and mode, then permission.
  const access = decideAccess(c.store, board.authorize, c.variants, route.merchantId, auth.key.mode, facts);
  const parse = () => parseQuery(search, served.settings, board.params, served.shape);
  const refused = (failure: Failure) => refusal(failure, { c, board, access, facts, requestNo, parse, lane: served });
  if (access.failure) return refused(access.failure);
  const denied = checkPermission(board.authorize, auth.key, access.merchant, facts);
  if (denied) return refused(denied);

  // 5. Parameters, then 6. the query: filter, sort and paginate over precomputed lists (7. render follows).
  const parsed = parse();
  if (parsed.failure) return failed(parsed.failure);
  const { store } = c;
  const views = served.views(access.listing, parsed.query);
  const context = { request: facts, access, query: parsed.query, views, store, requestNo };
  return { kind: 'list', page: runQuery(context, board.query) };
}

/**
 * A refusal of the listing as sent: final, unless a fault's `refused` hook makes it send something along (the page
 * the listing would have served: `preview`).
 */
function refusal(
  failure: Failure,
  r: {
    c: MockConfig;
    board: Switchboard;
    access: Access;
    facts: RequestFacts;
    requestNo: number;
    parse: () => ReturnType<typeof parseQuery>;
    lane: Lane;
  },
): Decision {
  const { c, board, access, facts, requestNo } = r;
  if (board.authorize.refused.length === 0) return failed(failure);
  const preview = (listings: readonly string[]) => {
    const parsed = r.parse();
    if (parsed.failure) return [];
    const views = r.lane.views(listings, parsed.query);
    const context = { request: facts, access, query: parsed.query, views, store: c.store, requestNo };
    return runQuery(context, board.query).data.map((row) => JSON.parse(c.store.json(row)) as unknown);
  };
  const copy = { ...failure };
  for (const rewrite of board.authorize.refused) rewrite(copy, { access, request: facts, preview });
  return failed(copy);
}

/** Stack frames only: an error message might quote request input, so it is not logged. */
function framesOf(err: unknown): string {
  const stack = err instanceof Error && typeof err.stack === 'string' ? err.stack : '';
  return stack
    .split('\n')
    .filter((line) => line.trimStart().startsWith('at '))
    .slice(0, 6)
    .join('\n');
}

/** Last resort. A fault's deliberate crash becomes its 500 stack trace; anything else is a mock bug: logged, 500. */
export function lastResort(err: unknown, log: (line: string) => void): Decision {
  if (err instanceof FaultCrash) return { kind: 'crash', text: `${err.name}: ${err.message}\n${framesOf(err)}\n` };
  log(`mock: unexpected ${err instanceof Error ? err.name : typeof err} while handling a request\n${framesOf(err)}`);
  return failed(reject(500, MESSAGES.internal));
}

/** A reply as raw HTTP/1.1 bytes, for sockets that have left the request/response cycle. */
function rawReply(reply: Reply): string {
  const lines = [`HTTP/1.1 ${reply.status} ${STATUS_CODES[reply.status] ?? ''}`];
  for (const [name, value] of Object.entries(reply.headers)) lines.push(`${name}: ${value}`);
  lines.push('Connection: close', '', reply.body);
  return lines.join('\r\n');
}

/** Node's parser codes that get a status other than 400. */
const CLIENT_ERROR_STATUS: Readonly<Record<string, [number, Message]>> = {
  HPE_HEADER_OVERFLOW: [431, MESSAGES.headersTooLarge],
  ERR_HTTP_REQUEST_TIMEOUT: [408, MESSAGES.requestTimeout],
};

/** The renderer of each answer: its collection's (whose render faults apply to its own answers), else payments'. */
function renderersOf(config: MockConfig): ReturnType<typeof createRenderer> {
  const renderers = new Map(
    Object.entries(config.collections ?? {}).map(([name, served]) => [
      name,
      createRenderer(config.variants, served.board.render, config.store.json, config.shapes),
    ]),
  );
  const payments = createRenderer(config.variants, config.board.render, config.store.json, config.shapes);
  return (decision, facts, no) => (renderers.get(facts.collection ?? '') ?? payments)(decision, facts, no);
}

/**
 * The handler behind the faults that hold requests (arrival.ts): each request waits its hold, collecting the requests
 * that arrive meanwhile, and is then answered as the first fault that changes it says. Without such a fault, the
 * handler itself.
 */
function heldBy(
  held: readonly HeldRequests[],
  handle: (req: IncomingMessage, res: ServerResponse) => void,
): (req: IncomingMessage, res: ServerResponse) => void {
  if (held.length === 0) return handle;
  const holdMs = Math.max(...held.map((h) => h.holdMs));
  const waiting = new Set<Arriving[]>();
  return (req, res) => {
    const self: Arriving = { method: req.method ?? '', url: req.url ?? '', authorization: req.headers.authorization };
    for (const later of waiting) later.push(self);
    const later: Arriving[] = [];
    waiting.add(later);
    setTimeout(() => {
      waiting.delete(later);
      const as = firstAnswer(
        held.map((h) => h.answerAs),
        self,
        later,
      );
      if (as?.url !== undefined) req.url = as.url;
      if (as && 'authorization' in as) {
        if (as.authorization === undefined) delete req.headers.authorization;
        else req.headers.authorization = as.authorization;
      }
      handle(req, res);
    }, holdMs);
  };
}

export function createMockServer(config: MockConfig): Server {
  const render = renderersOf(config);
  const log = config.log ?? ((line: string) => void process.stderr.write(`${line}\n`));
  let requestNo = 0;
  /** After the every-th request (MockOptions.grow), the data set gains a payment in every listing. */
  const grown = (no: number) => {
    if (config.grow && no % config.grow.every === 0) config.store.grow();
  };

  /** Everything from a parsed request to the reply; never throws. */
  const answer = (req: IncomingMessage): Reply => {
    const no = ++requestNo;
    config.onRequest?.({
      method: req.method ?? '',
      target: req.url ?? '',
      auth: describeCredentials(config.keys, req.headers.authorization),
    });
    const facts = factsOf(req);
    const busy = busyNow(config, no);
    let decision: Decision;
    try {
      // HTTP/1.1 requires Host (RFC 9112 §3.2); checked here so the 400 is JSON like every other error.
      decision =
        busy ??
        (req.httpVersion === '1.1' && req.headers.host === undefined
          ? failed(reject(400, MESSAGES.missingHost))
          : decide(config, req.method ?? '', req.url ?? '', req.headers.authorization, facts, no));
    } catch (err) {
      decision = lastResort(err, log);
    }
    const reply = render(decision, facts, no);
    grown(no);
    return busy ? { ...reply, headers: { ...reply.headers, 'Retry-After': '0' } } : reply;
  };

  const handle = (req: IncomingMessage, res: ServerResponse) => {
    req.on('error', ignore);
    res.on('error', ignore);
    req.resume(); // bodies are ignored; draining keeps the connection reusable
    const reply = answer(req);
    try {
      res.writeHead(reply.status, reply.headers);
      res.end(reply.body);
    } catch (err) {
      log(`mock: could not send a response\n${framesOf(err)}`);
      res.destroy();
    }
  };
  // A rate limit and a distance (throttle.ts) wrap the handler; without them it is the handler itself.
  const serve = throttle(heldBy(config.board.arrival.held, handle), config);
  const server = config.tls
    ? createHttpsServer({ ...config.tls, requireHostHeader: false }, serve)
    : createServer({ requireHostHeader: false }, serve);

  // CONNECT leaves the request/response cycle: answer it through the same pass, then close.
  server.on('connect', (req: IncomingMessage, socket: Duplex) => {
    socket.on('error', ignore);
    socket.end(rawReply(answer(req)), () => socket.destroy());
  });

  // Requests Node could not parse: a JSON 4xx, then the connection closes.
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Duplex) => {
    if (err.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    const [status, message] = CLIENT_ERROR_STATUS[err.code ?? ''] ?? [400, MESSAGES.malformedRequest];
    const facts: RequestFacts = { method: '', path: '', search: '', route: 'unknown', presented: undefined };
    const no = ++requestNo;
    const reply = render(failed(reject(status, message)), facts, no);
    grown(no);
    socket.end(rawReply(reply), () => socket.destroy());
  });
  return server;
}
