/**
 * The deterministic members of each class of the merchant-id spelling grammar (spelling-classes.ts holds the classes,
 * one record each): a function of the id giving its members, most telling first. Segments are written as sent:
 * non-ASCII characters percent-encoded in UTF-8, which the URL parser would do anyway.
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
  homograph,
  ligaturesIn,
} from './unicode-forms.ts';

export function normalisation(id: string): Member[] {
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

export function fullwidthForms(id: string): Member[] {
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

export function compatibilityForms(id: string): Member[] {
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

export function confusableLetters(id: string): Member[] {
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

export function caseForms(id: string): Member[] {
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

export function truncations(id: string): Member[] {
  const cs = codePoints(id);
  const keep = (from: number, to: number) => enc(cs.slice(from, to).join(''));
  return [
    m('its last character dropped', keep(0, -1)),
    m('its first character dropped', keep(1, cs.length)),
    m('its last two characters dropped', keep(0, -2)),
    m('its first half only', keep(0, Math.ceil(cs.length / 2))),
  ];
}

/**
 * The id as a pattern, for a lookup that takes it for one (SQL LIKE's `%` and `_`, a glob's `*`, a regular
 * expression's `.*`): every id, its prefix and anything, its last character any one. A lookup that matches the
 * pattern lists every merchant it matches; an exact one knows no such merchant.
 */
export function patterns(id: string): Member[] {
  const cs = codePoints(id);
  const prefix = /^[A-Za-z]+_/.exec(id)?.[0] ?? cs.slice(0, Math.ceil(cs.length / 2)).join('');
  return [
    m('every id as a LIKE pattern (%)', enc('%')),
    m('its prefix and a LIKE wildcard (%)', enc(`${prefix}%`)),
    m('its prefix and a glob (*)', enc(`${prefix}*`)),
    m('its prefix and a regular expression (.*)', enc(`${prefix}.*`)),
    m("its last character as LIKE's any one (_)", enc(`${cs.slice(0, -1).join('')}_`)),
  ];
}

export function extensions(id: string): Member[] {
  const last = codePoints(id).at(-1) ?? 'x';
  return [
    m('its last character repeated', enc(id + last)),
    m('a file extension (.json)', `${enc(id)}.json`),
    m('a path parameter (;v=1)', `${enc(id)};v=1`),
    m('a NUL after it (%00)', `${enc(id)}%00`),
    m('the id twice', enc(id + id)),
  ];
}

export function percentEncodings(id: string): Member[] {
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

export const doubleEncodings = (id: string): Member[] => [
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

export function whitespace(id: string): Member[] {
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

export const dots = (id: string): Member[] => [
  m('a trailing dot', `${enc(id)}.`),
  m('two trailing dots', `${enc(id)}..`),
  m('a leading dot', `.${enc(id)}`),
  m('a trailing dot, percent-encoded', `${enc(id)}%2E`),
  m('a leading dot, percent-encoded (lower-case hex)', `%2e${enc(id)}`),
];

export const encodedSlashes = (id: string): Member[] => [
  m('an encoded slash after it (%2F)', `${enc(id)}%2F`),
  m('an encoded slash before it (%2F)', `%2F${enc(id)}`),
  m('an encoded backslash after it (%5C)', `${enc(id)}%5C`),
  m('an encoded slash after it, lower-case hex (%2f)', `${enc(id)}%2f`),
  m('an encoded slash inside it', `${enc(codePoints(id)[0] ?? '')}%2F${enc(codePoints(id).slice(1).join(''))}`),
];

export const doubledSlashes = (id: string): Member[] => [
  m('a slash after it (…/id//payments)', `${enc(id)}/`),
  m('a slash before it (…/merchant//id/…)', `/${enc(id)}`),
  m('a slash on both sides', `/${enc(id)}/`),
];

export const dotSegments = (id: string): Member[] => [
  m('another segment and back (x%2F..%2Fid)', `x%2F..%2F${enc(id)}`),
  m('a dot-segment before it (.%2Fid)', `.%2F${enc(id)}`),
  m('a dot-segment after it (id%2F.)', `${enc(id)}%2F.`),
  m('encoded dots climbing back (x%2F%2E%2E%2Fid)', `x%2F%2E%2E%2F${enc(id)}`),
  // Raw dot-segments never reach the wire (the URL parser resolves them): left out by isSentAsWritten.
  m('a raw dot-segment before it (./id)', `./${enc(id)}`),
];
