/**
 * The coverage phase of the robustness checks: deterministic boundary classes of every query parameter, sent before
 * the random sample (whose windows a crash may slip through: a server that fails only on a filter of 33 to 255
 * characters, or only on a non-ASCII one). Classes:
 *   lengths     0 1 2 7 8 15 16 31 32 33 63 64 100 127 128 255 256 1000 1024 4096, and near the longest value sent
 *   characters  letters, digits, each punctuation group, literal percent signs, Latin-1, multi-byte UTF-8, outside the
 *               BMP, control characters, NUL, invalid UTF-8 (raw bytes)
 *   numbers     leading zeros, signs, exponent, decimal, hex, the int32 and 2^53 bounds
 *   structure   repeated parameter, bracketed sub-keys, empty value, no value
 * on a collection's parameters (payments: offset, limit, filter[status], sort) and one the spec does not name. The
 * covering set is pairwise over (parameter, length) and (parameter, class), not the full product: every parameter
 * meets every length and every class once, each length meets the character classes in turn.
 */
import type { Collection } from '../model/collection.ts';
import type { QueryPairs } from '../model/exchange.ts';

/**
 * The parameters a collection's coverage phase tries: on the spec's, `offset`, `limit`, each filter's, `sort` and one
 * the spec does not name (`cursor`), each in full; on another (a bounded share), its filters' in full, `sort` without
 * the number forms and `offset` and `limit` with the number forms only (the spec's collection covers their
 * structure).
 */
export function coveredParameters(c: Collection): { parameters: string[]; numeric: string[]; textual: string[] } {
  const filters = c.filters.map((f) => `filter[${f.field}]`);
  const sort = c.sorts.length ? ['sort'] : [];
  if (c.spec) return { parameters: ['offset', 'limit', ...filters, ...sort, 'cursor'], numeric: [], textual: [] };
  return { parameters: filters, numeric: ['offset', 'limit'], textual: sort };
}

/** Lengths (in characters) where buffers, columns and parsers change: powers of two and their neighbours. */
export const LENGTHS = [0, 1, 2, 7, 8, 15, 16, 31, 32, 33, 63, 64, 100, 127, 128, 255, 256, 1000, 1024, 4096] as const;

/**
 * Values stay under this many characters once percent-encoded: about the longest request line common servers read
 * (nginx's 8 KiB buffer) before they answer 414 or 431, the "near the longest URL" class.
 */
export const LONGEST_ENCODED = 7500;

/** A character class: a unit repeated to any length; `raw` units are sent percent-encoded as they are. */
interface CharClass {
  name: string;
  unit: string;
  raw?: boolean;
}

export const CHAR_CLASSES: readonly CharClass[] = [
  { name: 'letters', unit: 'Ab' },
  { name: 'digits', unit: '09' },
  { name: 'percent sign', unit: '%' },
  { name: 'underscore', unit: '_' },
  { name: 'brackets', unit: '[]' },
  { name: 'semicolon', unit: ';' },
  { name: 'comma', unit: ',' },
  { name: 'dot', unit: '.' },
  { name: 'minus', unit: '-' },
  { name: 'plus', unit: '+' },
  { name: 'quotes', unit: `'"` },
  { name: 'angle brackets', unit: '<>' },
  { name: 'ampersand and equals', unit: '&=' },
  { name: 'slash and backslash', unit: '/\\' },
  { name: 'hash and question mark', unit: '#?' },
  { name: 'asterisk', unit: '*' },
  { name: 'space', unit: ' ' },
  { name: 'literal percent escapes', unit: '%41' },
  { name: 'Latin-1', unit: 'éÿ' },
  { name: 'multi-byte UTF-8', unit: '中文' },
  { name: 'outside the BMP', unit: '😀' },
  { name: 'control characters', unit: '\u0001\t\n\u007f' },
  { name: 'NUL', unit: '%00', raw: true },
  { name: 'invalid UTF-8', unit: '%FF%C3', raw: true },
  { name: 'lone surrogate (CESU-8)', unit: '%ED%A0%80', raw: true },
];

const units = (names: readonly string[]) =>
  CHAR_CLASSES.filter((c) => names.includes(c.name))
    .map((c) => c.unit)
    .join('');

/**
 * Once (depth quick), each family once, its members in one value (every member present at once, as in a query a
 * client builds): letters and digits; the punctuation groups with literal escapes; each byte width apart (Latin-1,
 * multi-byte, outside the BMP: columns and decoders fail on one and not another); control bytes with NUL, and the
 * invalid sequences, sent raw.
 */
const ONCE_CLASSES: readonly CharClass[] = [
  { name: 'letters and digits', unit: units(['letters', 'digits']) },
  {
    name: 'ASCII punctuation, every group, and literal escapes',
    unit: CHAR_CLASSES.slice(2, 18)
      .map((c) => c.unit)
      .join(''),
  },
  ...CHAR_CLASSES.filter((c) => ['Latin-1', 'multi-byte UTF-8', 'outside the BMP'].includes(c.name)),
  { name: 'control characters and NUL', unit: '%01%09%0A%7F%00', raw: true },
  { name: 'invalid UTF-8 and lone surrogates', unit: '%FF%C3%ED%A0%80', raw: true },
];

/** Once, the middle window's lengths (past 32, within 255) and the long ones (past 255, 1 KiB, 4 KiB, near the longest). */
const ONCE_MIDDLE: readonly number[] = [33, 64, 100, 128, 255];
const ONCE_LONG: readonly number[] = [256, 1024, 4096, Number.MAX_SAFE_INTEGER, 1000];

/** Numbers written the way parsers disagree on. */
export const NUMBER_FORMS: ReadonlyArray<[value: string, form: string]> = [
  ['007', 'leading zeros'],
  ['+5', 'plus sign'],
  ['-5', 'minus sign'],
  ['-0', 'negative zero'],
  ['1e2', 'exponent'],
  ['1E+2', 'exponent, upper case'],
  ['1.5', 'decimal'],
  ['5.0', 'decimal zero'],
  ['0x10', 'hex'],
  ['2147483647', 'int32 maximum'],
  ['2147483648', 'int32 maximum + 1'],
  ['-2147483649', 'int32 minimum - 1'],
  ['9007199254740991', '2^53 - 1'],
  ['9007199254740993', '2^53 + 1'],
  ['99999999999999999999999999999', 'huge'],
];

/** Once, each number family once: zeros, a sign, negative zero, an exponent, a decimal, hex, past int32, huge. */
const ONCE_FORMS = new Set(['007', '+5', '-0', '1E+2', '1.5', '0x10', '2147483648']);

/** One request of the coverage phase: what it sends (after the listing's own query) and which classes it covers. */
interface CoverageCase {
  label: string;
  /** One of the collection's parameters (`filter[reason]`), or `cursor`. */
  parameter: string;
  /** The classes this request covers, e.g. `length 33`, `Latin-1`, `hex`, `repeated`. */
  classes: string[];
  pairs: QueryPairs;
}

const codePoints = (s: string) => Array.from(s);

/** `unit` repeated to `length` characters (code points; a raw unit counts its escapes as one character each). */
function repeat(c: CharClass, length: number): string {
  if (c.raw) {
    const bytes = c.unit.match(/%[0-9A-F]{2}/gi) ?? [];
    return Array.from({ length }, (_, i) => bytes[i % bytes.length]).join('');
  }
  const points = codePoints(c.unit);
  return Array.from({ length }, (_, i) => points[i % points.length]).join('');
}

/** The longest length (up to `wanted`) whose value stays under LONGEST_ENCODED once percent-encoded. */
function fitting(c: CharClass, wanted: number): number {
  const perChar = c.raw ? 3 : encodeURIComponent(c.unit).length / codePoints(c.unit).length;
  return Math.min(wanted, Math.floor(LONGEST_ENCODED / perChar));
}

const shown = (value: string) => {
  const points = codePoints(value);
  return JSON.stringify(points.length > 8 ? `${points.slice(0, 6).join('')}…` : value);
};

function valueCase(parameter: string, c: CharClass, wanted: number, lengthClass: string): CoverageCase {
  const length = fitting(c, wanted);
  const value = repeat(c, length);
  return {
    label: `${parameter}=${shown(value)} (${c.name}, ${length} characters)`,
    parameter,
    classes: [lengthClass, c.name],
    pairs: [c.raw ? [parameter, value, 'raw'] : [parameter, value]],
  };
}

/**
 * The covering set: for each parameter, every length (0 to 4,096 and near the longest), each with a character class
 * in turn so that every class also meets every parameter; every number form on each parameter; and the structural
 * forms. Deterministic: the same set on every run. Some parameters get the number forms only (`numeric`) or no number
 * form (`textual`): coveredParameters. With `once` (depth quick), `onceCases`.
 */
export function coverageCases(c: Collection, once = false): CoverageCase[] {
  const { parameters, numeric, textual } = coveredParameters(c);
  const all = [...parameters, ...textual, ...numeric];
  if (once) return onceCases(all, numeric, textual);
  const lengths: Array<[number, string]> = [
    ...LENGTHS.map((n): [number, string] => [n, `length ${n}`]),
    [Number.MAX_SAFE_INTEGER, 'near the longest'],
  ];
  const rowsOf = Math.max(lengths.length, CHAR_CLASSES.length);
  const lengthCase = (parameter: string, p: number, r: number) => {
    const [length, lengthClass] = lengths[r % lengths.length] as [number, string];
    return valueCase(parameter, CHAR_CLASSES[(r + p * 3) % CHAR_CLASSES.length] as CharClass, length, lengthClass);
  };
  return all.flatMap((parameter, p) => [
    // Rows enough for every length and every class: lengths cycle, classes shift per parameter (pairwise spread).
    ...(numeric.includes(parameter) ? [] : Array.from({ length: rowsOf }, (_, r) => lengthCase(parameter, p, r))),
    ...(textual.includes(parameter) ? [] : NUMBER_FORMS.map(([value, form]) => numberCase(parameter, value, form))),
    ...(numeric.includes(parameter) ? [] : STRUCTURES.map((make) => make(parameter))),
  ]);
}

/**
 * Once (depth quick), each family once rather than every member on every parameter: every parameter a value in the
 * middle window (past a 32-character index, within a 255-character column) and a long one (past it, up to near the
 * longest URL), the character families in turn over those rows; each number family and each structure once, on the
 * parameters in turn.
 */
function onceCases(all: readonly string[], numeric: readonly string[], textual: readonly string[]): CoverageCase[] {
  const texts = all.filter((x) => !numeric.includes(x));
  const numbers = all.filter((x) => !textual.includes(x));
  const rows = texts.flatMap((parameter, j) => [
    [parameter, ONCE_MIDDLE[j % ONCE_MIDDLE.length] as number] as const,
    [parameter, ONCE_LONG[j % ONCE_LONG.length] as number] as const,
  ]);
  const forms = NUMBER_FORMS.filter(([value]) => ONCE_FORMS.has(value) || value.length > 20);
  return [
    ...rows.map(([parameter, n], r) =>
      valueCase(
        parameter,
        ONCE_CLASSES[r % ONCE_CLASSES.length] as CharClass,
        n,
        n > 8000 ? 'near the longest' : `length ${n}`,
      ),
    ),
    ...forms.map(([value, form], i) => numberCase(numbers[i % numbers.length] as string, value, form)),
    ...STRUCTURES.map((make, i) => make(texts[i % texts.length] as string)),
  ];
}

const numberCase = (parameter: string, value: string, form: string): CoverageCase => ({
  label: `${parameter}=${value} (${form})`,
  parameter,
  classes: [form],
  pairs: [[parameter, value]],
});

/** The structural forms of a parameter: repeated, bracketed and named sub-keys, an empty value, no value. */
const STRUCTURES: ReadonlyArray<(parameter: string) => CoverageCase> = [
  (parameter) => ({
    label: `${parameter}=1&${parameter}=2 (repeated)`,
    parameter,
    classes: ['repeated'],
    pairs: [
      [parameter, '1'],
      [parameter, '2'],
    ],
  }),
  (parameter) => ({
    label: `${parameter}[]=X (bracketed sub-key)`,
    parameter,
    classes: ['bracketed'],
    pairs: [[`${parameter}[]`, 'X']],
  }),
  (parameter) => ({
    label: `${parameter}[a]=X (named sub-key)`,
    parameter,
    classes: ['named sub-key'],
    pairs: [[`${parameter}[a]`, 'X']],
  }),
  (parameter) => ({
    label: `${parameter}= (empty value)`,
    parameter,
    classes: ['empty value'],
    pairs: [[parameter, '']],
  }),
  (parameter) => ({
    label: `${parameter} (no value)`,
    parameter,
    classes: ['no value'],
    pairs: [[parameter, '', 'bare']],
  }),
];

/** How many classes a covering set covers, per parameter, in words for the record's notes. */
export function coverageSummary(cases: readonly CoverageCase[]): string {
  const classes = new Set(cases.flatMap((c) => c.classes));
  const parameters = new Set(cases.map((c) => c.parameter));
  return `coverage phase: ${cases.length} requests, ${classes.size} classes (lengths, characters, numbers, structure) on each of ${parameters.size} parameters`;
}
