/**
 * Query parameters of the payments list (§4.2): offset, limit, filter[status], sort.
 * Parsing never throws on input; what is invalid follows the `invalid` variant (reading "Pagination").
 */
import { STATUSES, type Status } from './data.ts';
import { type Failure, MESSAGES, type Message, reject } from './errors.ts';
import { type Board, firstAnswer } from './hooks.ts';
import { IDENTITY } from './identity.ts';
import type { Filter } from './store.ts';
import type { Variants } from './variants.ts';

/** A sort's direction, as payments write it: `amount` ascending, `-amount` descending (sortField: another field's). */
type Sort = 'amount' | '-amount';

/** Query behaviour fixed at start: fixture limits and variants, possibly patched by faults. */
export interface QuerySettings {
  defaultLimit: number;
  maxLimit: number;
  overLimit: 'clamp' | 'reject';
  invalid: Variants['invalid'];
  integers: Variants['integers'];
  unknownStatus: Variants['unknown-status'];
  unknownSort: Variants['unknown-sort'];
  unknownParams: Variants['unknown-params'];
}

/** The limits of the spec's payments (the fixture's); another collection may have its own (collections.ts). */
const SPEC_LIMITS = { defaultLimit: IDENTITY.defaultLimit, maxLimit: IDENTITY.maxLimit };

export function querySettings(
  variants: Variants,
  board: Board<ParamsHooks>,
  limits: { defaultLimit: number; maxLimit: number } = SPEC_LIMITS,
): QuerySettings {
  const settings: QuerySettings = {
    defaultLimit: limits.defaultLimit,
    maxLimit: limits.maxLimit,
    overLimit: variants['over-limit'],
    invalid: variants.invalid,
    integers: variants.integers,
    unknownStatus: variants['unknown-status'],
    unknownSort: variants['unknown-sort'],
    unknownParams: variants['unknown-params'],
  };
  for (const patch of board.settings) patch(settings);
  return settings;
}

/** The query in force. */
export interface ParsedQuery {
  offset: number;
  /** The limit in force, which the envelope echoes. */
  limit: number;
  limitGiven: boolean;
  filter: Filter;
  sort: Sort | undefined;
  /** The field sorted by, on a collection other than payments (collections.ts): `sort` is then its direction. */
  sortField?: string;
}

const PARAMS = ['offset', 'limit', 'filter[status]', 'sort'] as const;
type Param = (typeof PARAMS)[number];

/**
 * What a listing's query takes besides offset and limit, and what its refusals say: its filter parameter and the
 * values it knows, and its sort values, each to a direction and field. Payments' (§4.2) by default; the example
 * collection (collections.ts) has its own. The filter's value fills the listing's one filter slot (`filter[status]`).
 */
export interface QueryShape {
  filterParam: string;
  filterValues: readonly string[];
  /** The name a filter value is served and asked by, where it is not its own (a calibration's statuses). */
  filterNames?: Readonly<Record<string, string>>;
  sorts: Readonly<Record<string, { sort: Sort; field?: string }>>;
  messages: Readonly<
    Record<'invalidFilter' | 'unknownFilter' | 'invalidSort' | 'invalidLimit' | 'limitTooLarge', Message>
  >;
}

export const PAYMENTS_SHAPE: QueryShape = {
  filterParam: 'filter[status]',
  filterValues: STATUSES,
  sorts: { amount: { sort: 'amount' }, '-amount': { sort: '-amount' } },
  messages: {
    invalidFilter: MESSAGES.invalidStatus,
    unknownFilter: MESSAGES.unknownStatus,
    invalidSort: MESSAGES.invalidSort,
    invalidLimit: MESSAGES.invalidLimit,
    limitTooLarge: MESSAGES.limitTooLarge,
  },
};

/** Where faults hook into the query settings and the parameters, in the order they are asked. */
export interface ParamsHooks {
  /** Start: patch query settings (default limit, cap, over-limit answer). */
  settings?(settings: QuerySettings): void;
  /** Inspect each query value before validation: a failure refuses the request; may throw. */
  queryValue?(name: string, value: string): Failure | undefined;
  /** Whether a repeated parameter is accepted (its first value is the one validated). */
  repeated?(param: Param): boolean;
  /** A value for an offset/limit that failed clean parsing (undefined = still invalid); may throw. */
  oddParam?(name: 'offset' | 'limit', raw: string): number | undefined;
  /** A status for a filter[status] value that names none exactly (undefined = unknown status). */
  oddStatus?(raw: string): Status | undefined;
  /** Rewrite the validated query (what the query layer reads from the raw query string). */
  query?(query: ParsedQuery, search: string): void;
}
type RawParams = Partial<Record<Param, string>>;

const DIGITS = /^\d+$/;
const INT32_MAX = 2 ** 31 - 1;

/**
 * The integer an offset or limit value names, NaN for none: any string of digits (integers=safe; beyond 2^53 it reads
 * as large as it is), or only the canonical form of a 32-bit integer (strict: no leading zero, at most 2^31-1).
 */
function integerOf(raw: string, s: QuerySettings): number {
  if (s.integers === 'strict')
    return /^(0|[1-9]\d{0,9})$/.test(raw) && Number(raw) <= INT32_MAX ? Number(raw) : Number.NaN;
  return DIGITS.test(raw) ? Number(raw) : Number.NaN;
}

interface Collected {
  raw: RawParams;
  /** Parameters given more than once, in the order their second value came. */
  repeated: Param[];
  /** A value refused before validation (only ever by a fault). */
  refused?: Failure;
  /** The first parameter the listing does not take, if any. */
  unknown?: string;
}

/** First value of each known parameter, and which were repeated. Unknown parameters are ignored. */
function collect(search: string, board: Board<ParamsHooks>, shape: QueryShape): Collected {
  const collected: Collected = { raw: {}, repeated: [] };
  if (search === '') return collected;
  const { raw, repeated } = collected;
  for (const [name, value] of new URLSearchParams(search)) {
    const refused = firstAnswer(board.queryValue, name, value);
    if (refused) return { ...collected, refused };
    // The listing's own filter parameter fills the filter slot; another listing's is no parameter of this one.
    const slot = name === shape.filterParam ? 'filter[status]' : name === 'filter[status]' ? '' : name;
    if (!(PARAMS as readonly string[]).includes(slot)) {
      collected.unknown ??= name;
      continue;
    }
    const param = slot as Param;
    if (raw[param] === undefined) raw[param] = value;
    else if (!repeated.includes(param)) repeated.push(param);
  }
  return collected;
}

/** A parameter error: 400, or 422 under the invalid=422 variant. */
function fail(s: QuerySettings, param: string, message: Message): ParseResult {
  return { failure: reject(s.invalid === '422' ? 422 : 400, message, param) };
}

type ParseResult = { query: ParsedQuery; failure?: undefined } | { query?: undefined; failure: Failure };

export function parseQuery(
  search: string,
  s: QuerySettings,
  board: Board<ParamsHooks>,
  shape: QueryShape = PAYMENTS_SHAPE,
): ParseResult {
  const coerce = s.invalid === 'coerce';
  const { raw, repeated, refused, unknown } = collect(search, board, shape);
  if (refused) return { failure: refused };
  // A strict gateway (unknown-params=reject) refuses what it does not take.
  if (unknown !== undefined && s.unknownParams === 'reject') return fail(s, unknown, MESSAGES.unknownParameter);
  // coerce keeps the first of repeated values; otherwise a repeated parameter is invalid.
  const refusedRepeat = repeated.find((param) => !board.repeated.some((accepts) => accepts(param)));
  if (refusedRepeat !== undefined && !coerce) return fail(s, refusedRepeat, MESSAGES.repeatedParameter);

  let offset = 0;
  if (raw.offset !== undefined) {
    const n = integerOf(raw.offset, s);
    if (Number.isSafeInteger(n)) offset = n;
    else {
      const faulty = firstAnswer(board.oddParam, 'offset', raw.offset);
      if (faulty !== undefined) offset = faulty;
      // Too large to echo exactly: past the end of any list, so serve the empty page at the largest safe offset.
      else if (coerce) offset = DIGITS.test(raw.offset) ? Number.MAX_SAFE_INTEGER : 0;
      else return fail(s, 'offset', MESSAGES.invalidOffset);
    }
  }

  let limit = s.defaultLimit;
  if (raw.limit !== undefined) {
    // Huge digit strings become Infinity: over the cap like any other large limit.
    const n = integerOf(raw.limit, s);
    if (n > s.maxLimit) {
      if (s.overLimit === 'reject') return fail(s, 'limit', shape.messages.limitTooLarge);
      limit = s.maxLimit;
    } else if (n >= 1) {
      limit = n;
    } else {
      const faulty = firstAnswer(board.oddParam, 'limit', raw.limit);
      if (faulty !== undefined) limit = faulty;
      else if (!coerce) return fail(s, 'limit', shape.messages.invalidLimit);
    }
  }

  let filter: Filter = 'all';
  const status = raw['filter[status]'];
  if (status === '') {
    if (!coerce) return fail(s, shape.filterParam, shape.messages.invalidFilter);
  } else if (status !== undefined) {
    // A fault's odd reading counts only where it names a value of this listing's filter.
    const odd = (raw: string) => {
      const value = firstAnswer(board.oddStatus, raw);
      return value !== undefined && shape.filterValues.includes(value) ? value : undefined;
    };
    const named = (name: string) => shape.filterNames?.[name] ?? name;
    const known = shape.filterValues.find((name) => named(name) === status) ?? odd(status);
    if (known) filter = known as Filter;
    else if (s.unknownStatus === 'reject') return fail(s, shape.filterParam, shape.messages.unknownFilter);
    else filter = 'none';
  }

  let sort: Sort | undefined;
  let sortField: string | undefined;
  const order = raw.sort;
  const sorted = order !== undefined && Object.hasOwn(shape.sorts, order) ? shape.sorts[order] : undefined;
  if (sorted) ({ sort, field: sortField } = sorted);
  else if (order === '') {
    if (!coerce) return fail(s, 'sort', shape.messages.invalidSort);
  } else if (order !== undefined && s.unknownSort === 'reject') return fail(s, 'sort', shape.messages.invalidSort);

  const query: ParsedQuery = { offset, limit, limitGiven: raw.limit !== undefined, filter, sort };
  if (sortField !== undefined) query.sortField = sortField;
  for (const rewrite of board.query) rewrite(query, search);
  return { query };
}
