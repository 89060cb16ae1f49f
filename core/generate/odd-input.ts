/**
 * Odd query input for the robustness checks (INP-ROBUST, payment-api.md §7; reading.md "Errors"): a fixed catalogue of
 * values parsers disagree on, and random ones of any length and character set, on a collection's own parameters
 * (`offset`, `limit`, its filters' and `sort`). Every arbitrary shrinks toward the simplest value.
 */
import fc from 'fast-check';
import type { QueryPairs } from '../model/exchange.ts';
import { edgeBiased, matching } from './arbitraries.ts';

/** An odd query: `label` says in a few words what is odd, for failure reports (e.g. 'limit=-1 (negative)'). */
export interface OddInput {
  label: string;
  pairs: QueryPairs;
}

/** The parameters odd input goes to: a filter's (its field and a value it has) and the sort field, when it has them. */
export interface OddParams {
  filter?: { field: string; value: string };
  sort?: string;
}

const THIRTY_DIGITS = '9'.repeat(30);
const LONG_VALUE = 'A'.repeat(2000);

/** The odd values tried on `offset` and on `limit` alike: [value, what is odd about it]. */
const ODD_NUMBERS: ReadonlyArray<[string, string]> = [
  ['-1', 'negative'],
  ['-0', 'negative zero'],
  ['1.5', 'non-integer'],
  ['5.0', 'integer with a decimal point'],
  ['', 'empty'],
  ['1e2', 'exponent'],
  ['0x10', 'hex'],
  ['010', 'leading zero'],
  ['+5', 'leading plus'],
  [' 5', 'leading space'],
  ['5 ', 'trailing space'],
  ['abc', 'letters'],
  ['5abc', 'digits then letters'],
  ['NaN', 'NaN'],
  ['Infinity', 'Infinity'],
  [THIRTY_DIGITS, 'huge, 30 digits'],
  ['9007199254740993', 'above 2^53'],
  ['2147483648', 'above 2^31'],
];

function odd(label: string, ...pairs: QueryPairs): OddInput {
  return { label, pairs };
}

function shown(value: string): string {
  return value.length > 40 ? `${value.slice(0, 12)}…(${value.length} chars)` : value;
}

/** The catalogue of odd inputs (INP-ROBUST) on a collection's parameters; `oddValueArb` draws from it and adds random ones. */
export function oddInputs(params: OddParams): OddInput[] {
  const f = params.filter;
  const param = f && `filter[${f.field}]`;
  const s = params.sort;
  return [
    ...(['offset', 'limit'] as const).flatMap((name) =>
      ODD_NUMBERS.map(([value, why]) => odd(`${name}=${shown(value)} (${why})`, [name, value])),
    ),
    odd('limit=0 (zero limit)', ['limit', '0']),
    odd('limit=5&limit=7 (repeated parameter)', ['limit', '5'], ['limit', '7']),
    odd('offset=0&offset=3 (repeated parameter)', ['offset', '0'], ['offset', '3']),
    odd('limit[]=5 (array syntax)', ['limit[]', '5']),
    odd('offset= limit= (both empty)', ['offset', ''], ['limit', '']),
    ...(f && param
      ? [
          odd(`${param}= (empty)`, [param, '']),
          odd(`${param}=${shown(LONG_VALUE)} (very long)`, [param, LONG_VALUE]),
          odd(`${param}=${f.value}&${param}=X (repeated parameter)`, [param, f.value], [param, 'X']),
          odd(`${param}=' OR '1'='1 (quotes)`, [param, "' OR '1'='1"]),
          odd(`${param}=%00 (percent sign)`, [param, '%00']),
          odd(`filter=${f.value} (no [${f.field}])`, ['filter', f.value]),
        ]
      : []),
    ...(s
      ? [
          odd('sort= (empty)', ['sort', '']),
          odd(`sort=${shown(LONG_VALUE)} (very long)`, ['sort', LONG_VALUE]),
          odd(`sort=${s.toUpperCase()} (case-changed)`, ['sort', s.toUpperCase()]),
          odd(`sort=--${s} (double minus)`, ['sort', `--${s}`]),
          odd(`sort=+${s} (plus prefix)`, ['sort', `+${s}`]),
          odd(`sort=${s},-${s} (list)`, ['sort', `${s},-${s}`]),
          odd('sort=no_such_field (unknown field)', ['sort', 'no_such_field']),
          odd(`sort=${s}&sort=-${s} (repeated parameter)`, ['sort', s], ['sort', `-${s}`]),
        ]
      : []),
  ];
}

/** An odd query for `offset`, `limit`, the filter or `sort`: from the catalogue, or a random odd number. */
export function oddValueArb(params: OddParams): fc.Arbitrary<OddInput> {
  const name = fc.constantFrom('offset', 'limit');
  const negative = fc
    .tuple(name, fc.integer({ min: -(2 ** 31), max: -1 }))
    .map(([n, v]) => odd(`${n}=${v} (negative)`, [n, String(v)]));
  const fraction = fc
    .tuple(name, fc.integer({ min: 0, max: 1000 }), fc.integer({ min: 1, max: 99 }))
    .map(([n, whole, part]) => odd(`${n}=${whole}.${part} (non-integer)`, [n, `${whole}.${part}`]));
  const huge = fc
    .tuple(name, matching(/^[1-9][0-9]{19,39}$/))
    .map(([n, v]) => odd(`${n}=${shown(v)} (huge, ${v.length} digits)`, [n, v]));
  const letters = fc.tuple(name, matching(/^[a-zA-Z]{1,8}$/)).map(([n, v]) => odd(`${n}=${v} (letters)`, [n, v]));
  return fc.oneof(
    { withCrossShrink: true },
    { arbitrary: fc.constantFrom(...oddInputs(params)), weight: 5 },
    { arbitrary: negative, weight: 1 },
    { arbitrary: fraction, weight: 1 },
    { arbitrary: huge, weight: 1 },
    { arbitrary: letters, weight: 1 },
    { arbitrary: oddStringArb(params), weight: 4 },
  );
}

/** Repeated units of each character set: plain, symbols, non-ASCII (accents, CJK, emoji), control characters. */
const CHARSETS: Readonly<Record<string, readonly string[]>> = {
  ASCII: ['A', 'abc123', 'COMPLETED'],
  symbols: ['%&+=;,\'"<>', '../', '#?[]{}'],
  'non-ASCII': ['é', 'Ü', '中文', '😀', 'Ωmega'],
  control: ['\u0000', '\u0001\u001f', '\t', '\n\r', '\u007f', '\u0008x'],
  mixed: ['Aé\u0001', 'x😀\t%'],
};

/**
 * A length from 1 to 6,000 characters, spread over the whole range: a few characters, up to 255, the middle (256 to
 * 1,024, where a column or buffer of fixed size breaks) and several thousand. Shrinks toward 1 by halving.
 */
export function oddLengthArb(): fc.Arbitrary<number> {
  return edgeBiased(
    1,
    6000,
    { arbitrary: fc.integer({ min: 1, max: 16 }), weight: 2 },
    { arbitrary: fc.integer({ min: 17, max: 255 }), weight: 2 },
    { arbitrary: fc.constantFrom(255, 256, 257, 1023, 1024, 1025, 4096, 4097), weight: 1 },
    { arbitrary: fc.integer({ min: 256, max: 1024 }), weight: 3 },
    { arbitrary: fc.integer({ min: 1025, max: 6000 }), weight: 2 },
  );
}

/** A value of `length` characters (code points, so no emoji is cut in half) repeating `unit`. */
export function repeatTo(unit: string, length: number): string {
  const points = Array.from(unit);
  return Array.from({ length }, (_, i) => points[i % points.length]).join('');
}

/**
 * Odd values stay under this many characters once percent-encoded: about the longest request line common servers
 * read (nginx's 8 KiB buffer) before they answer 414 or 431; beyond it some just drop the connection, which would
 * say nothing about the target's parameter handling. ASCII values still reach several thousand characters.
 */
export const MAX_ENCODED_VALUE = 7500;

/** The first few characters of a value, JSON-quoted so control characters stay visible. */
const shownValue = (v: string) => {
  const points = Array.from(v);
  return JSON.stringify(points.length > 8 ? `${points.slice(0, 6).join('')}…` : v);
};

const units = (set: string, i: number) => {
  const all = CHARSETS[set] as readonly string[];
  return all[i % all.length] as string;
};

/** An odd string value of any length and character set, on any of the collection's parameters. */
export function oddStringArb(params: OddParams): fc.Arbitrary<OddInput> {
  const names = [
    ...(params.filter ? [`filter[${params.filter.field}]`] : []),
    ...(params.sort ? ['sort'] : []),
    'limit',
    'offset',
  ];
  const charset = fc.constantFrom(...Object.keys(CHARSETS));
  return fc
    .record({
      name: fc.constantFrom(...names),
      charset,
      length: oddLengthArb(),
      unit: fc.nat({ max: 5 }),
    })
    .map(({ name, charset: set, length: wanted, unit }) => {
      const repeated = units(set, unit);
      const perChar = encodeURIComponent(repeated).length / Array.from(repeated).length;
      const length = Math.max(1, Math.min(wanted, Math.floor(MAX_ENCODED_VALUE / perChar)));
      const value = repeatTo(repeated, length);
      return odd(`${name}=${shownValue(value)} (${set}, ${length} characters)`, [name, value]);
    });
}
