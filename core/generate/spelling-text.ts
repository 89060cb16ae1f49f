/**
 * Writing a spelling of an id as it goes on the wire: characters replaced, percent-encoded (either hex case, or
 * twice), the white space tried at the ends. Shared by the grammar's classes and its draws.
 */
import { compatibilityForm, unicodeSpaces } from './unicode-forms.ts';

/** One spelling before it is checked: what was changed, and the segment as sent. */
export interface Member {
  name: string;
  segment: string;
}

export const enc = encodeURIComponent;
export const codePoints = (s: string) => Array.from(s);
const hex = (b: number, upper: boolean) => {
  const h = b.toString(16).padStart(2, '0');
  return upper ? h.toUpperCase() : h;
};
/** `%XX` for each UTF-8 byte of `ch`; `prefix` `%25` double-encodes. */
export const pct = (ch: string, upper = true, prefix = '%') =>
  [...new TextEncoder().encode(ch)].map((b) => `${prefix}${hex(b, upper)}`).join('');
export const u = (ch: string) => `U+${(ch.codePointAt(0) as number).toString(16).toUpperCase().padStart(4, '0')}`;
export const isLetter = (c: string) => /^\p{L}$/u.test(c);
export const isDigit = (c: string) => /^[0-9]$/.test(c);
export const flipCase = (c: string) => (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase());

/** The id with the characters at `at` replaced by `by(c)`, then percent-encoded where it must be. */
export function mapAt(
  id: string,
  at: (c: string, i: number) => boolean,
  by: (c: string) => string | undefined,
): string {
  return codePoints(id)
    .map((c, i) => (at(c, i) ? enc(by(c) ?? c) : enc(c)))
    .join('');
}
/** The id with the characters at `at` percent-encoded (hex upper or lower), the others as usual. */
export const encodeAt = (id: string, at: (c: string, i: number) => boolean, upper = true, prefix = '%') =>
  codePoints(id)
    .map((c, i) => (at(c, i) ? pct(c, upper, prefix) : enc(c)))
    .join('');

export const firstIndex = (id: string, p: (c: string) => boolean) => codePoints(id).findIndex(p);
export const m = (name: string, segment: string): Member => ({ name, segment });

export const fullwidth = (c: string) => compatibilityForm(c, 'fullwidth');

/** The white space tried at the ends: ASCII, a form decoder's `+`, and Unicode's (NBSP first). */
export function spaces(): Array<[string, string]> {
  const unicode = unicodeSpaces().map((c): [string, string] => [u(c), pct(c)]);
  return [
    ['a space', '%20'],
    ...unicode.slice(0, 1),
    ['a tab', '%09'],
    ['a line feed', '%0A'],
    ['+', '+'],
    ...unicode.slice(1),
  ];
}
