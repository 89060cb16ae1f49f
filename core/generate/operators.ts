/**
 * Mutations from operators, not tables (issue "doors the suite finds"): the credential and the merchant id are changed
 * by operators — insert (at the start: prepend; at the end: append), replace, repeat as a list, encode — applied at
 * every class of position, with characters of every class: control characters, format characters, separators,
 * quotes, Unicode spaces, look-alike letters (UTS #39) and compatibility forms (NFKC), letters for digits and digits
 * for letters. Where a character is the data's (Unicode's spaces, its confusables, its fullwidth forms), it comes from
 * the data (unicode-forms.ts). The grammar tables (key-mutations.ts, spelling-classes.ts) stay one source beside.
 *
 * Each operator is a descriptor; the deterministic core (`KEY_CORE`, `MERCHANT_CORE`) meets every operator, position
 * class and character class at least once and is the same on every run; a seeded draw adds more (`operatorArb`).
 * A key's mutation is written twice, as the client sends it and in POSIX shell for the curl line, which rebuilds it
 * from the variable and shows none of its characters (a character of the prefix `sk_test_` is public).
 */
import fc from 'fast-check';
import { type KeyMutation, prefixLength } from '../model/credentials.ts';
import { compatibilityForm, homograph, unicodeSpaces } from './unicode-forms.ts';

/** Characters by class, in order; Unicode's own where it has them. */
export const CHAR_CLASSES = {
  'control characters': () => ['\t', '\u0000', '\u0001', '\u001b', '\n', '\r', '\u007f'],
  'format characters': () => ['\u200b', '\u00ad', '\ufeff', '\u2060'],
  separators: () => [',', ';', ' ', '=', ':', '|'],
  quotes: () => ['"', "'", '`'],
  'Unicode spaces': () => unicodeSpaces(),
} as const;
type CharClass = keyof typeof CHAR_CLASSES;

/** Where an operator acts. */
type Position = 'start' | 'after the prefix' | 'middle' | 'end' | 'in the prefix' | 'the random part' | 'whole';

/** One operator applied: what it does, where, with which class and which member of it (`pick`, rotating). */
export type Operator =
  | {
      op: 'insert';
      at: Exclude<Position, 'in the prefix' | 'the random part' | 'whole'>;
      klass: CharClass;
      pick: number;
    }
  | { op: 'replace'; at: 'in the prefix'; with: 'look-alike letters' | 'compatibility forms'; pick: number }
  | { op: 'replace'; at: 'the random part'; with: 'letters for digits' | 'digits for letters' }
  | { op: 'repeat as a list'; separator: string }
  | { op: 'encode'; as: 'percent-encoded' | 'Base64' };

/** One member of a class, in words. */
const ONE: Readonly<Record<CharClass, string>> = {
  'control characters': 'a control character',
  'format characters': 'a format character',
  separators: 'a separator',
  quotes: 'a quote',
  'Unicode spaces': 'a Unicode space',
};

/** In words, for a check's notes and a failure's Expected line: `with a tab (U+0009) inserted after the prefix`. */
function describeOperator(o: Operator, ch?: string): string {
  const c = ch === undefined ? '' : ` (${codeOf(ch)})`;
  switch (o.op) {
    case 'insert': {
      const where =
        o.at === 'end'
          ? 'appended'
          : o.at === 'start'
            ? 'prepended'
            : o.at === 'middle'
              ? 'inserted in the middle'
              : `inserted ${o.at}`;
      return `with ${ONE[o.klass]}${c} ${where}`;
    }
    case 'replace':
      return o.at === 'in the prefix'
        ? `with a letter of its prefix replaced by ${o.with === 'look-alike letters' ? 'a look-alike' : 'its compatibility form'}${c}`
        : `with ${o.with} in ${o.at}`;
    case 'repeat as a list':
      return `repeated as a list (${JSON.stringify(o.separator)} between)`;
    case 'encode':
      return o.as === 'Base64' ? 'Base64-encoded' : 'percent-encoded';
  }
}

const codeOf = (ch: string) =>
  [...ch].map((c) => `U+${(c.codePointAt(0) as number).toString(16).toUpperCase().padStart(4, '0')}`).join(' ');
const member = <T>(list: readonly T[], pick: number): T | undefined => list[pick % Math.max(1, list.length)];

/**
 * The deterministic core for a credential: every operator, every position and every character class at least once
 * (the same on every run, whatever the seed). Characters a header cannot carry (a control character but the tab) are
 * written into merchant ids only.
 */
export const KEY_CORE: readonly Operator[] = [
  { op: 'insert', at: 'after the prefix', klass: 'control characters', pick: 0 },
  { op: 'insert', at: 'middle', klass: 'Unicode spaces', pick: 0 },
  { op: 'insert', at: 'end', klass: 'format characters', pick: 0 },
  { op: 'insert', at: 'start', klass: 'format characters', pick: 1 },
  { op: 'insert', at: 'middle', klass: 'separators', pick: 0 },
  { op: 'insert', at: 'end', klass: 'quotes', pick: 0 },
  { op: 'insert', at: 'end', klass: 'separators', pick: 1 },
  { op: 'replace', at: 'in the prefix', with: 'look-alike letters', pick: 0 },
  { op: 'replace', at: 'in the prefix', with: 'compatibility forms', pick: 0 },
  { op: 'replace', at: 'the random part', with: 'letters for digits' },
  { op: 'replace', at: 'the random part', with: 'digits for letters' },
  { op: 'repeat as a list', separator: ',' },
  { op: 'repeat as a list', separator: ';' },
  { op: 'encode', as: 'percent-encoded' },
  { op: 'encode', as: 'Base64' },
];

/** The deterministic core for a merchant id (a path segment, any character percent-encoded). */
export const MERCHANT_CORE: readonly Operator[] = [
  { op: 'insert', at: 'end', klass: 'control characters', pick: 1 },
  { op: 'insert', at: 'start', klass: 'control characters', pick: 3 },
  { op: 'insert', at: 'after the prefix', klass: 'control characters', pick: 0 },
  { op: 'insert', at: 'end', klass: 'control characters', pick: 4 },
  { op: 'insert', at: 'middle', klass: 'format characters', pick: 0 },
  { op: 'insert', at: 'end', klass: 'format characters', pick: 1 },
  { op: 'insert', at: 'end', klass: 'separators', pick: 1 },
  { op: 'insert', at: 'end', klass: 'quotes', pick: 0 },
  { op: 'insert', at: 'middle', klass: 'Unicode spaces', pick: 1 },
  { op: 'repeat as a list', separator: ',' },
];

/** Any operator of the space: the seeded draws beside the core. */
export const operatorArb: fc.Arbitrary<Operator> = fc.oneof(
  fc.record({
    op: fc.constant('insert' as const),
    at: fc.constantFrom('start' as const, 'after the prefix' as const, 'middle' as const, 'end' as const),
    klass: fc.constantFrom(...(Object.keys(CHAR_CLASSES) as CharClass[])),
    pick: fc.nat({ max: 30 }),
  }),
  fc.record({
    op: fc.constant('replace' as const),
    at: fc.constant('in the prefix' as const),
    with: fc.constantFrom('look-alike letters' as const, 'compatibility forms' as const),
    pick: fc.nat({ max: 10 }),
  }),
  fc.record({ op: fc.constant('repeat as a list' as const), separator: fc.constantFrom(',', ';', ' ', '|', '\t') }),
);

/** Where a position class falls in `s`, whose first `prefix` characters are its public prefix. */
function indexOf(at: Position, s: string, prefix: number): number {
  if (at === 'start') return 0;
  if (at === 'end') return s.length;
  if (at === 'after the prefix') return prefix;
  return prefix + Math.floor((s.length - prefix) / 2);
}

/** The prefix's letters a replacement may take (public characters only), with what replaces each. */
function prefixReplacement(o: Extract<Operator, { at: 'in the prefix' }>, s: string, prefix: number) {
  const spots = [...s.slice(0, prefix)].flatMap((c, i) => {
    const by = o.with === 'look-alike letters' ? homograph(c) : compatibilityForm(c, 'fullwidth');
    return by === undefined ? [] : [{ i, by }];
  });
  return member(spots, o.pick);
}

/** The character an insert writes (undefined when the class has none). */
const inserted = (o: Extract<Operator, { op: 'insert' }>) => member(CHAR_CLASSES[o.klass](), o.pick);

/** The string with the operator applied (`prefix`: the length of its public prefix); undefined where it cannot apply. */
function applyOperator(o: Operator, s: string, prefix: number): string | undefined {
  switch (o.op) {
    case 'insert': {
      const c = inserted(o);
      const i = indexOf(o.at, s, prefix);
      return c === undefined ? undefined : s.slice(0, i) + c + s.slice(i);
    }
    case 'replace': {
      if (o.at === 'in the prefix') {
        const r = prefixReplacement(o, s, prefix);
        return r && s.slice(0, r.i) + r.by + s.slice(r.i + 1);
      }
      const [from, to] =
        o.with === 'letters for digits'
          ? ['0123456789', 'abcdefghij']
          : ['abcdefghijABCDEFGHIJ', '01234567890123456789'];
      const rest = [...s.slice(prefix)].map((c) => (from.includes(c) ? (to[from.indexOf(c)] as string) : c)).join('');
      return s.slice(0, prefix) + rest;
    }
    case 'repeat as a list':
      return `${s}${o.separator}${s}`;
    case 'encode':
      return o.as === 'Base64'
        ? Buffer.from(s, 'utf8').toString('base64')
        : [...new TextEncoder().encode(s)].map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join('');
  }
}

/** The character an operator writes, for its name (an insert's or a replacement's). */
function written(o: Operator, s: string, prefix: number): string | undefined {
  if (o.op === 'insert') return inserted(o);
  if (o.op === 'replace' && o.at === 'in the prefix') return prefixReplacement(o, s, prefix)?.by;
  return undefined;
}

/** Text as a header carries it: each character up to U+00FF as its byte, others as their UTF-8 bytes. */
const asHeaderBytes = (s: string) =>
  [...s].map((c) => ((c.codePointAt(0) as number) <= 0xff ? c : Buffer.from(c, 'utf8').toString('latin1'))).join('');
/** Whether a header may carry it (RFC 9110 §5.5: no control character but the tab). */
const headerSafe = (s: string) => /^[\t\x20-\x7e\x80-\xff]*$/.test(s);
/** `printf` of these bytes in octal: the only escapes POSIX printf knows. */
const octal = (s: string) =>
  `$(printf '${[...s].map((c) => `\\${(c.charCodeAt(0) & 0xff).toString(8).padStart(3, '0')}`).join('')}')`;
const pipe = (ref: string, cmd: string) => `$(printf %s "${ref}" | ${cmd})`;
const part = (ref: string, from: number, to?: number) =>
  from > (to ?? Number.POSITIVE_INFINITY) ? '' : pipe(ref, `cut -c${from}-${to ?? ''}`);

/** The shell form of a key mutation: the key from its variable, never one of its characters (the prefix is public). */
function shellOf(o: Operator, shape: { length: number; prefix: number }, written?: string) {
  return (ref: string): string => {
    switch (o.op) {
      case 'insert': {
        const i = indexOf(o.at, 'x'.repeat(shape.length), shape.prefix);
        return `${i > 0 ? part(ref, 1, i) : ''}${octal(asHeaderBytes(written ?? ''))}${i < shape.length ? part(ref, i + 1) : ''}`;
      }
      case 'replace': {
        if (o.at === 'the random part') {
          const tr = o.with === 'letters for digits' ? 'tr 0-9 a-j' : 'tr a-jA-J 0-90-9';
          return `${part(ref, 1, shape.prefix)}${pipe(ref, `cut -c${shape.prefix + 1}- | ${tr}`)}`;
        }
        return 'unreachable';
      }
      case 'repeat as a list':
        return `${ref}${octal(o.separator)}${ref}`;
      case 'encode':
        return o.as === 'Base64'
          ? pipe(ref, "base64 | tr -d '\\n'")
          : pipe(ref, "od -An -tx1 -v | tr -d ' \\n' | sed 's/../%&/g' | tr a-f A-F");
    }
  };
}

/**
 * The operator as a mutation of a configured key (the header carries it as bytes), or undefined where it cannot apply
 * or gives the key itself. A replacement in the prefix rebuilds the prefix in shell from public characters.
 */
export function keyOperatorMutation(o: Operator, key: string): KeyMutation | undefined {
  const prefix = prefixLength(key);
  // White space before or after the key is a spelling of the header, not another key (HTTP strips its own; a lenient
  // parser may take any): the reading allows the canonical answer there, so it is never a mutation.
  if (o.op === 'insert' && (o.at === 'start' || o.at === 'end') && /^\s$/u.test(inserted(o) ?? '')) return undefined;
  const mutated = applyOperator(o, key, prefix);
  if (mutated === undefined || mutated === key) return undefined;
  const wire = asHeaderBytes(mutated);
  if (!headerSafe(wire)) return undefined;
  const ch = written(o, key, prefix);
  const name = describeOperator(o, ch);
  const shape = { length: key.length, prefix };
  const shell =
    o.op === 'replace' && o.at === 'in the prefix'
      ? (ref: string) => `${octal(wire.slice(0, wire.length - (key.length - prefix)))}${part(ref, prefix + 1)}`
      : shellOf(o, shape, ch);
  return { name, apply: (k) => asHeaderBytes(applyOperator(o, k, prefixLength(k)) ?? k), shell };
}

/** A merchant id changed by the operator, as a path segment (every character but letters, digits, `_-.~` encoded). */
export function merchantOperatorSegment(o: Operator, id: string): { name: string; segment: string } | undefined {
  if (o.op === 'encode') return undefined;
  const prefix = /^[A-Za-z]+_/.exec(id)?.[0].length ?? 0;
  const mutated = applyOperator(o, id, prefix);
  if (mutated === undefined || mutated === id) return undefined;
  const ch = written(o, id, prefix);
  return { name: `the id ${describeOperator(o, ch)}`, segment: encodeURIComponent(mutated) };
}
