/**
 * The property phase's members of the grammar (spelling-classes.ts): a random member of a class built from a draw —
 * which positions (any subset), which character, how many — for the classes whose members are parametrised.
 */
import type { SpellingClass } from './spelling-classes.ts';
import { codePoints, enc, encodeAt, flipCase, fullwidth, type Member, m, mapAt, spaces } from './spelling-text.ts';
import { accented, type CompatKind, compatibilityForm, confusablesOf } from './unicode-forms.ts';

/** The positions a draw picks: those whose bit is set, else the one `choice` names. */
function picked(n: number, choice: number, bits: readonly boolean[]) {
  const set = new Set(bits.flatMap((b, i) => (b && i < n ? [i] : [])));
  if (set.size === 0 && n > 0) set.add(choice % n);
  return { at: (_: string, i: number) => set.has(i), count: set.size };
}
const APPENDED = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~';
const KINDS: readonly CompatKind[] = ['fullwidth', 'mathematical', 'superscript', 'enclosed'];

/**
 * A random member of `klass` from a draw, for the classes whose members are parametrised (positions, subsets,
 * lengths, characters); undefined for the others, whose deterministic members the draw then picks from.
 */
export function randomMember(
  klass: SpellingClass,
  id: string,
  choice: number,
  bits: readonly boolean[],
): Member | undefined {
  const cs = codePoints(id);
  const n = cs.length;
  const { at, count } = picked(n, choice, bits);
  const set = bits.filter((b) => b).length;
  switch (klass) {
    case 'percent-encoding':
      return m(`${count} character(s) percent-encoded (drawn)`, encodeAt(id, at, choice % 2 === 0));
    case 'double encoding':
      return m(`${count} character(s) double-encoded (drawn)`, encodeAt(id, at, choice % 2 === 0, '%25'));
    case 'case':
      return m(`${count} letter(s) in the other case (drawn)`, mapAt(id, at, flipCase));
    case 'fullwidth forms':
      return m(`${count} character(s) in fullwidth form (drawn)`, mapAt(id, at, fullwidth));
    case 'other compatibility forms': {
      const kind = KINDS[choice % KINDS.length] as CompatKind;
      return m(
        `${count} character(s) in ${kind} form (drawn)`,
        mapAt(id, at, (c) => compatibilityForm(c, kind)),
      );
    }
    case 'confusable letters':
      return m(
        `${count} character(s) as a look-alike (drawn)`,
        mapAt(id, at, (c) => {
          const all = confusablesOf(c);
          return all[choice % Math.max(1, all.length)];
        }),
      );
    case 'normalisation forms':
      return m(
        `${count} letter(s) with an acute accent, ${bits[0] ? 'NFD' : 'NFC'} (drawn)`,
        mapAt(id, at, (c) => {
          const a = accented(c);
          return bits[0] ? a?.nfd : a?.nfc;
        }),
      );
    case 'truncation': {
      const k = 1 + (choice % Math.max(1, n - 1));
      return bits[0]
        ? m(`its first ${k} character(s) dropped (drawn)`, enc(cs.slice(k).join('')))
        : m(`its last ${k} character(s) dropped (drawn)`, enc(cs.slice(0, n - k).join('')));
    }
    case 'extension': {
      const c = APPENDED[choice % APPENDED.length] as string;
      const times = 1 + (set % 3);
      return m(`"${c}" appended ${times} time(s) (drawn)`, enc(id + c.repeat(times)));
    }
    case 'whitespace at either end': {
      const [name, s] = spaces()[choice % spaces().length] as [string, string];
      const lead = bits[0] ? s : '';
      const trail = bits[0] && !bits[1] ? '' : s;
      return m(
        `${name} ${lead && trail ? 'on both sides' : lead ? 'before it' : 'after it'} (drawn)`,
        lead + enc(id) + trail,
      );
    }
    default:
      return undefined;
  }
}
