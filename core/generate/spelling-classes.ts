/**
 * The classes of the merchant-id spelling grammar (spelled-ids.ts), each one record: its name, a function of the id
 * giving its deterministic members, most telling first (the coverage phase rotates through the first ones), and for a
 * class whose members are parametrised, a random member from a draw (the property phase). The members themselves:
 * spelling-members.ts.
 */

import {
  caseForms,
  compatibilityForms,
  confusableLetters,
  dotSegments,
  dots,
  doubledSlashes,
  doubleEncodings,
  encodedSlashes,
  extensions,
  fullwidthForms,
  normalisation,
  patterns,
  percentEncodings,
  truncations,
  whitespace,
} from './spelling-members.ts';
import { codePoints, enc, encodeAt, flipCase, fullwidth, type Member, m, mapAt, spaces } from './spelling-text.ts';
import { accented, type CompatKind, compatibilityForm, confusablesOf } from './unicode-forms.ts';

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
  { name: 'pattern characters', members: patterns },
  { name: 'dots at either end', members: dots },
  { name: 'encoded slashes', members: encodedSlashes },
  { name: 'doubled slashes', members: doubledSlashes },
  { name: 'dot-segments', members: dotSegments },
];
