/**
 * Other Unicode spellings of one character, generated from Unicode data rather than listed by hand:
 *   compatibility forms  the code points whose NFKC is the character (fullwidth, mathematical, superscript, circled,
 *                        ligatures), found by asking the runtime's own NFKC over the planes once (about 25 ms);
 *   confusables          the characters UTS #39 (confusables.txt) gives the same prototype, from the `unhomoglyph`
 *                        package's table of it (pinned): `ѕ` for `s`, `О` for `0`, `rn` for `m`;
 *   accents              the character with a combining accent, precomposed (NFC) or not (NFD).
 * A target that folds spellings (NFKC, a case- and accent-insensitive collation, a skeleton match) may resolve
 * them to the merchant the id names.
 */
import { createRequire } from 'node:module';

/** confusables.txt as `unhomoglyph` ships it: each confusable character → its prototype (one or more characters). */
const PROTOTYPES = createRequire(import.meta.url)('unhomoglyph/data.json') as Readonly<Record<string, string>>;

/** Unicode blocks of the compatibility forms, for naming and picking one form of each kind. */
const COMPAT_BLOCKS = {
  fullwidth: [0xff01, 0xff5e],
  mathematical: [0x1d400, 0x1d7ff],
  superscript: [0x2070, 0x209f],
  enclosed: [0x2460, 0x24ff],
  ligature: [0xfb00, 0xfb06],
} as const satisfies Record<string, readonly [number, number]>;
export type CompatKind = keyof typeof COMPAT_BLOCKS;

let compat: Map<string, number[]> | undefined;

/** Every code point whose NFKC is a short printable ASCII string, by that string (built once, on first use). */
function compatTable(): Map<string, number[]> {
  if (compat) return compat;
  compat = new Map();
  for (let cp = 0xa0; cp < 0x20000; cp++) {
    if (cp >= 0xd800 && cp <= 0xdfff) continue;
    const ch = String.fromCodePoint(cp);
    const folded = ch.normalize('NFKC');
    if (folded === ch || !/^[\x21-\x7e]{1,3}$/.test(folded)) continue;
    const list = compat.get(folded) ?? [];
    list.push(cp);
    compat.set(folded, list);
  }
  return compat;
}

const inBlock = (cp: number, kind: CompatKind) => cp >= COMPAT_BLOCKS[kind][0] && cp <= COMPAT_BLOCKS[kind][1];

/**
 * The first compatibility form of `ascii` (one character, or the two or three a ligature stands for) in the block of
 * `kind`, or undefined. Superscripts also come from Latin-1 (`¹²³`) and the modifier letters (`ᵃ`).
 */
export function compatibilityForm(ascii: string, kind: CompatKind): string | undefined {
  const forms = compatTable().get(ascii) ?? [];
  const extra = kind === 'superscript' ? (cp: number) => cp <= 0xff || (cp >= 0x1d2c && cp <= 0x1d6a) : () => false;
  const cp = forms.find((c) => inBlock(c, kind)) ?? forms.find(extra);
  return cp === undefined ? undefined : String.fromCodePoint(cp);
}

/** The ligatures whose NFKC occurs in `s`, with what each stands for. */
export function ligaturesIn(s: string): Array<{ ligature: string; stands: string }> {
  const out: Array<{ ligature: string; stands: string }> = [];
  for (const [stands, cps] of compatTable()) {
    if (stands.length < 2 || !s.includes(stands)) continue;
    for (const cp of cps.filter((c) => inBlock(c, 'ligature')))
      out.push({ ligature: String.fromCodePoint(cp), stands });
  }
  return out;
}

let inverse: Map<string, string[]> | undefined;

/** prototype → the characters confusables.txt maps to it. */
function inverseTable(): Map<string, string[]> {
  if (inverse) return inverse;
  inverse = new Map();
  for (const [ch, proto] of Object.entries(PROTOTYPES)) {
    const list = inverse.get(proto) ?? [];
    list.push(ch);
    inverse.set(proto, list);
  }
  return inverse;
}

const script = (cp: number) => (cp >= 0x400 && cp <= 0x4ff ? 0 : cp >= 0x370 && cp <= 0x3ff ? 1 : 2);

/**
 * Characters confusable with `ch` (UTS #39: the same prototype), one code point each, that are not merely a
 * compatibility form of it (NFKC gives those back); Cyrillic first, then Greek, then by code point.
 */
export function confusablesOf(ch: string): string[] {
  const proto = PROTOTYPES[ch] ?? ch;
  const others = (inverseTable().get(proto) ?? []).filter(
    (c) => c !== ch && [...c].length === 1 && c.normalize('NFKC') !== ch && (c.codePointAt(0) as number) > 0x7f,
  );
  const cp = (c: string) => c.codePointAt(0) as number;
  return others.sort((a, b) => script(cp(a)) - script(cp(b)) || cp(a) - cp(b));
}

/** A Cyrillic or Greek look-alike of `ch` (the classic homograph), or undefined. */
export function homograph(ch: string): string | undefined {
  const first = confusablesOf(ch)[0];
  return first !== undefined && script(first.codePointAt(0) as number) < 2 ? first : undefined;
}

/**
 * An ASCII look-alike of `ch` that UTS #39 gives the same prototype (`0` → `O`, `1` → `l`, `m` → `rn`): letters and
 * digits only, or undefined.
 */
export function asciiLookalike(ch: string): string | undefined {
  const proto = PROTOTYPES[ch] ?? ch;
  const candidates = [proto, ...(inverseTable().get(proto) ?? [])];
  return candidates.find((c) => c !== ch && /^[A-Za-z0-9]+$/.test(c));
}

/** UTS #39's skeleton: NFD, each character to its prototype, NFD again. */
export function skeleton(s: string): string {
  return Array.from(s.normalize('NFD'), (c) => PROTOTYPES[c] ?? c)
    .join('')
    .normalize('NFD');
}

/** `ch` with a combining acute accent, precomposed (NFC) when Unicode has that character, else undefined. */
export function accented(ch: string): { nfc: string; nfd: string } | undefined {
  const nfd = `${ch}\u0301`;
  const nfc = nfd.normalize('NFC');
  return [...nfc].length === 1 ? { nfc, nfd } : undefined;
}

let spacesRead: readonly string[] | undefined;
/** The white-space characters other than ASCII that JavaScript's `\s` knows (Unicode White_Space), in order. */
export function unicodeSpaces(): string[] {
  if (!spacesRead) {
    const out: string[] = [];
    for (let cp = 0x80; cp <= 0x3000; cp++) {
      const ch = String.fromCodePoint(cp);
      if (/^\s$/u.test(ch)) out.push(ch);
    }
    spacesRead = out;
  }
  return [...spacesRead];
}
