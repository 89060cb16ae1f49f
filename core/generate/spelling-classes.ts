/**
 * The classes of the merchant-id spelling grammar (spelled-ids.ts), each one record: its name, a function of the id
 * giving its deterministic members, most telling first (the coverage phase rotates through the first ones), and for a
 * class whose members are parametrised, a random member from a draw (the property phase). Segments are written as sent: non-ASCII characters percent-encoded in
 * UTF-8, which the URL parser would do anyway.
 */
import {
  codePoints,
  enc,
  encodeAt,
  firstIndex,
  flipCase,
  fullwidth,
  isDigit,
  isLetter,
  type Member,
  m,
  mapAt,
  pct,
  spaces,
  u,
} from './spelling-text.ts';
import {
  accented,
  asciiLookalike,
  type CompatKind,
  compatibilityForm,
  confusablesOf,
  homograph,
  ligaturesIn,
} from './unicode-forms.ts';

export type { Member } from './spelling-text.ts';

/** A random draw of a class's member: a number to choose with, and bits to pick positions (any subset) with. */
interface Draw {
  choice: number;
  bits: readonly boolean[];
}

/**
 * A class of the grammar, one record: its name, its deterministic members of an id (most telling first), and for a
 * class whose members are parametrised (positions, subsets, lengths, characters) a random member from a draw.
 */
export interface SpellingClass {
  name: string;
  members: (id: string) => Member[];
  draw?: (id: string, d: Draw) => Member;
}

function normalisation(id: string): Member[] {
  const forms = (['NFC', 'NFD', 'NFKC', 'NFKD'] as const).map((f) => m(`the id in ${f}`, enc(id.normalize(f))));
  const i = firstIndex(id, (c) => accented(c) !== undefined);
  if (i < 0) return forms;
  const c = codePoints(id)[i] as string;
  const a = accented(c) as { nfc: string; nfd: string };
  return [
    ...forms,
    m(
      `"${c}" with an acute accent, precomposed (NFC ${u(a.nfc)})`,
      mapAt(
        id,
        (_, k) => k === i,
        () => a.nfc,
      ),
    ),
    m(
      `"${c}" with a combining acute accent (NFD)`,
      mapAt(
        id,
        (_, k) => k === i,
        () => a.nfd,
      ),
    ),
    m(
      'every letter with a combining acute accent (NFD)',
      mapAt(id, isLetter, (x) => accented(x)?.nfd),
    ),
  ];
}

function fullwidthForms(id: string): Member[] {
  const first = firstIndex(id, isLetter);
  return [
    m(
      'every character in fullwidth form',
      mapAt(id, () => true, fullwidth),
    ),
    m(
      'the first letter in fullwidth form',
      mapAt(id, (_, k) => k === first, fullwidth),
    ),
    m('the digits in fullwidth form', mapAt(id, isDigit, fullwidth)),
  ];
}

function compatibilityForms(id: string): Member[] {
  const form = (kind: CompatKind) => (c: string) => compatibilityForm(c, kind);
  const first = firstIndex(id, isLetter);
  return [
    m(
      'letters and digits in mathematical bold',
      mapAt(id, () => true, form('mathematical')),
    ),
    m('the digits as superscripts', mapAt(id, isDigit, form('superscript'))),
    m(
      'the first letter enclosed (circled)',
      mapAt(id, (_, k) => k === first, form('enclosed')),
    ),
    ...ligaturesIn(id).map((l) =>
      m(`"${l.stands}" as the ligature ${u(l.ligature)}`, enc(id.replace(l.stands, l.ligature))),
    ),
  ];
}

function confusableLetters(id: string): Member[] {
  const i = firstIndex(id, (c) => homograph(c) !== undefined);
  const c = codePoints(id)[i];
  const one = c === undefined ? [] : [homograph(c) as string];
  return [
    ...one.map((x) =>
      m(
        `"${c}" as its look-alike ${u(x)} (UTS #39)`,
        mapAt(
          id,
          (_, k) => k === i,
          () => x,
        ),
      ),
    ),
    m(
      'ASCII look-alikes (UTS #39: 0 as O, 1 as l, m as rn)',
      mapAt(id, () => true, asciiLookalike),
    ),
    m(
      'every letter that has one as its Cyrillic or Greek look-alike',
      mapAt(id, () => true, homograph),
    ),
  ];
}

function caseForms(id: string): Member[] {
  const cs = codePoints(id);
  const flip = cs.findIndex((c) => flipCase(c) !== c);
  return [
    m('the id in upper case', enc(id.toUpperCase())),
    m('the id in lower case', enc(id.toLowerCase())),
    m('every letter in the other case', enc(cs.map(flipCase).join(''))),
    m('the id in title case', enc((cs[0] ?? '').toUpperCase() + cs.slice(1).join('').toLowerCase())),
    m(
      'one letter in the other case',
      mapAt(id, (_, k) => k === flip, flipCase),
    ),
  ];
}

function truncations(id: string): Member[] {
  const cs = codePoints(id);
  const keep = (from: number, to: number) => enc(cs.slice(from, to).join(''));
  return [
    m('its last character dropped', keep(0, -1)),
    m('its first character dropped', keep(1, cs.length)),
    m('its last two characters dropped', keep(0, -2)),
    m('its first half only', keep(0, Math.ceil(cs.length / 2))),
  ];
}

function extensions(id: string): Member[] {
  const last = codePoints(id).at(-1) ?? 'x';
  return [
    m('its last character repeated', enc(id + last)),
    m('a file extension (.json)', `${enc(id)}.json`),
    m('a path parameter (;v=1)', `${enc(id)};v=1`),
    m('a NUL after it (%00)', `${enc(id)}%00`),
    m('the id twice', enc(id + id)),
  ];
}

function percentEncodings(id: string): Member[] {
  const cs = codePoints(id);
  const letter = cs.findIndex((c, k) => isLetter(c) && k >= cs.length / 2);
  return [
    m(
      'every character percent-encoded',
      encodeAt(id, () => true),
    ),
    m(
      'every character percent-encoded, lower-case hex',
      encodeAt(id, () => true, false),
    ),
    m(
      'its first character percent-encoded',
      encodeAt(id, (_, k) => k === 0, false),
    ),
    m(
      'its last character percent-encoded',
      encodeAt(id, (_, k) => k === cs.length - 1),
    ),
    m(
      'a letter percent-encoded',
      encodeAt(id, (_, k) => k === letter),
    ),
    m(
      'a digit percent-encoded',
      encodeAt(id, (_, k) => k === firstIndex(id, isDigit)),
    ),
    m(
      'a symbol percent-encoded',
      encodeAt(id, (_, k) => k === firstIndex(id, (c) => !/^[\p{L}\p{N}]$/u.test(c))),
    ),
    m('every character percent-encoded, hex case mixed', cs.map((c, k) => pct(c, k % 2 === 0)).join('')),
  ];
}

const doubleEncodings = (id: string): Member[] => [
  m(
    'its first character double-encoded (%25XX)',
    encodeAt(id, (_, k) => k === 0, true, '%25'),
  ),
  m(
    'every character double-encoded',
    encodeAt(id, () => true, true, '%25'),
  ),
  m(
    'its last character double-encoded',
    encodeAt(id, (_, k) => k === codePoints(id).length - 1, true, '%25'),
  ),
];

function whitespace(id: string): Member[] {
  const [space, nbsp, tab] = spaces() as Array<[string, string]>;
  const ideographic = spaces().at(-1) as [string, string];
  const at = (where: 'after' | 'before' | 'both', [name, s]: [string, string]) =>
    m(
      `${name} ${where === 'both' ? 'on both sides' : `${where} it`}`,
      `${where === 'after' ? '' : s}${enc(id)}${where === 'before' ? '' : s}`,
    );
  return [
    at('after', space as [string, string]),
    at('after', nbsp as [string, string]),
    at('after', tab as [string, string]),
    at('before', space as [string, string]),
    at('after', ideographic),
    at('both', space as [string, string]),
    at('after', ['+ (a space to a form decoder)', '+']),
    at('after', ['a line feed', '%0A']),
  ];
}

const dots = (id: string): Member[] => [
  m('a trailing dot', `${enc(id)}.`),
  m('two trailing dots', `${enc(id)}..`),
  m('a leading dot', `.${enc(id)}`),
  m('a trailing dot, percent-encoded', `${enc(id)}%2E`),
  m('a leading dot, percent-encoded (lower-case hex)', `%2e${enc(id)}`),
];

const encodedSlashes = (id: string): Member[] => [
  m('an encoded slash after it (%2F)', `${enc(id)}%2F`),
  m('an encoded slash before it (%2F)', `%2F${enc(id)}`),
  m('an encoded backslash after it (%5C)', `${enc(id)}%5C`),
  m('an encoded slash after it, lower-case hex (%2f)', `${enc(id)}%2f`),
  m('an encoded slash inside it', `${enc(codePoints(id)[0] ?? '')}%2F${enc(codePoints(id).slice(1).join(''))}`),
];

const doubledSlashes = (id: string): Member[] => [
  m('a slash after it (…/id//payments)', `${enc(id)}/`),
  m('a slash before it (…/merchant//id/…)', `/${enc(id)}`),
  m('a slash on both sides', `/${enc(id)}/`),
];

const dotSegments = (id: string): Member[] => [
  m('another segment and back (x%2F..%2Fid)', `x%2F..%2F${enc(id)}`),
  m('a dot-segment before it (.%2Fid)', `.%2F${enc(id)}`),
  m('a dot-segment after it (id%2F.)', `${enc(id)}%2F.`),
  m('encoded dots climbing back (x%2F%2E%2E%2Fid)', `x%2F%2E%2E%2F${enc(id)}`),
  // Raw dot-segments never reach the wire (the URL parser resolves them): left out by isSentAsWritten.
  m('a raw dot-segment before it (./id)', `./${enc(id)}`),
];

/** The positions a draw picks: those whose bit is set, else the one `choice` names. */
function picked(n: number, choice: number, bits: readonly boolean[]) {
  const set = new Set(bits.flatMap((b, i) => (b && i < n ? [i] : [])));
  if (set.size === 0 && n > 0) set.add(choice % n);
  return { at: (_: string, i: number) => set.has(i), count: set.size };
}
const APPENDED = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~';
const KINDS: readonly CompatKind[] = ['fullwidth', 'mathematical', 'superscript', 'enclosed'];

/** The positions a draw picks, and how many: `at` for mapAt and encodeAt. */
const positions = (id: string, d: Draw) => picked(codePoints(id).length, d.choice, d.bits);

/** Every class of the grammar, in the order the coverage phase rotates through them. */
export const SPELLING_CLASSES: readonly SpellingClass[] = [
  {
    name: 'normalisation forms',
    members: normalisation,
    draw: (id, d) => {
      const { at, count } = positions(id, d);
      return m(
        `${count} letter(s) with an acute accent, ${d.bits[0] ? 'NFD' : 'NFC'} (drawn)`,
        mapAt(id, at, (c) => {
          const a = accented(c);
          return d.bits[0] ? a?.nfd : a?.nfc;
        }),
      );
    },
  },
  {
    name: 'fullwidth forms',
    members: fullwidthForms,
    draw: (id, d) => {
      const { at, count } = positions(id, d);
      return m(`${count} character(s) in fullwidth form (drawn)`, mapAt(id, at, fullwidth));
    },
  },
  {
    name: 'other compatibility forms',
    members: compatibilityForms,
    draw: (id, d) => {
      const { at, count } = positions(id, d);
      const kind = KINDS[d.choice % KINDS.length] as CompatKind;
      return m(
        `${count} character(s) in ${kind} form (drawn)`,
        mapAt(id, at, (c) => compatibilityForm(c, kind)),
      );
    },
  },
  {
    name: 'confusable letters',
    members: confusableLetters,
    draw: (id, d) => {
      const { at, count } = positions(id, d);
      const lookalike = (c: string) => {
        const all = confusablesOf(c);
        return all[d.choice % Math.max(1, all.length)];
      };
      return m(`${count} character(s) as a look-alike (drawn)`, mapAt(id, at, lookalike));
    },
  },
  {
    name: 'case',
    members: caseForms,
    draw: (id, d) => {
      const { at, count } = positions(id, d);
      return m(`${count} letter(s) in the other case (drawn)`, mapAt(id, at, flipCase));
    },
  },
  {
    name: 'truncation',
    members: truncations,
    draw: (id, d) => {
      const cs = codePoints(id);
      const k = 1 + (d.choice % Math.max(1, cs.length - 1));
      return d.bits[0]
        ? m(`its first ${k} character(s) dropped (drawn)`, enc(cs.slice(k).join('')))
        : m(`its last ${k} character(s) dropped (drawn)`, enc(cs.slice(0, cs.length - k).join('')));
    },
  },
  {
    name: 'extension',
    members: extensions,
    draw: (id, d) => {
      const c = APPENDED[d.choice % APPENDED.length] as string;
      const times = 1 + (d.bits.filter((b) => b).length % 3);
      return m(`"${c}" appended ${times} time(s) (drawn)`, enc(id + c.repeat(times)));
    },
  },
  {
    name: 'percent-encoding',
    members: percentEncodings,
    draw: (id, d) => {
      const { at, count } = positions(id, d);
      return m(`${count} character(s) percent-encoded (drawn)`, encodeAt(id, at, d.choice % 2 === 0));
    },
  },
  {
    name: 'double encoding',
    members: doubleEncodings,
    draw: (id, d) => {
      const { at, count } = positions(id, d);
      return m(`${count} character(s) double-encoded (drawn)`, encodeAt(id, at, d.choice % 2 === 0, '%25'));
    },
  },
  {
    name: 'whitespace at either end',
    members: whitespace,
    draw: (id, d) => {
      const [name, s] = spaces()[d.choice % spaces().length] as [string, string];
      const lead = d.bits[0] ? s : '';
      const trail = d.bits[0] && !d.bits[1] ? '' : s;
      const where = lead && trail ? 'on both sides' : lead ? 'before it' : 'after it';
      return m(`${name} ${where} (drawn)`, lead + enc(id) + trail);
    },
  },
  { name: 'dots at either end', members: dots },
  { name: 'encoded slashes', members: encodedSlashes },
  { name: 'doubled slashes', members: doubledSlashes },
  { name: 'dot-segments', members: dotSegments },
];
