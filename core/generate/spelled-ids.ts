/**
 * A grammar of spellings of a merchant id in the payments path (its classes: spelling-classes.ts): other strings that a lookup, a router or a
 * normaliser may take for the same merchant (reading: "a spelling of a merchant id that the target resolves to a
 * merchant obeys the key, mode and merchant rules of the merchant it resolves to"). Each class is generated from the
 * id itself (unicode-forms.ts for the Unicode data); the coverage phase takes one member of every class for every
 * merchant, the property phase draws from the whole grammar (random subsets, positions, lengths, characters).
 *
 * Only what goes on the wire is claimed. The client builds URLs with the WHATWG URL parser, which resolves raw `.` and
 * `..` segments (and their `%2e` forms) before sending, drops raw tabs and newlines, and percent-encodes raw spaces
 * and non-ASCII characters: so every segment here is written as it is sent (percent-encoded where it must be), raw
 * dot-segments are written behind encoded slashes (`x%2F..%2Fid`), and a spelling whose path the parser would change
 * is left out (`isSentAsWritten`).
 */
import fc from 'fast-check';
import { paymentsPath } from '../model/listing.ts';
import { SPELLING_CLASSES, type SpellingClass } from './spelling-classes.ts';
import type { Member } from './spelling-text.ts';
import { skeleton } from './unicode-forms.ts';

/** One spelling of one merchant's id. */
export interface MerchantSpelling {
  /** The merchant id, as configured. */
  merchant: string;
  /** The name of its class of the grammar (spelling-classes.ts). */
  klass: string;
  /** What was changed, for reports: "the id in upper case". */
  name: string;
  /** What stands between `/payments/n1/merchant/` and `/payments` on the wire (percent-encoded, slashes and all). */
  segment: string;
}

/** The payments path with `segment`, as sent, where the merchant id goes. */
export const spelledPaymentsPath = (segment: string) => paymentsPath('\u0000').replace('%00', segment);

/** Whether the WHATWG URL parser (the client's) sends the path exactly as written. */
export function isSentAsWritten(path: string): boolean {
  try {
    return new URL(`http://h${path}`).pathname === path;
  } catch {
    return false;
  }
}

/** A segment decoded as far as it goes (twice for double encoding), keeping what does not decode. */
function decodedLoosely(segment: string): string {
  let s = segment;
  for (let i = 0; i < 2; i++) {
    try {
      s = decodeURIComponent(s);
    } catch {
      return s;
    }
  }
  return s;
}

/** What every folding lookup would compare: NFKD without marks, lower case, UTS #39 skeleton, letters and digits. */
const loose = (s: string) =>
  skeleton(s.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase())
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]/gu, '');

/**
 * Whether a spelling of `id` could as well name one of `others`: a folding of it that folds like another id, or (when
 * it does not fold to `id` itself) a prefix or suffix of another id or the reverse. Such a spelling is left out, so
 * that a target resolving it to another configured merchant is never taken for a fault.
 */
function couldName(segment: string, id: string, others: readonly string[]): boolean {
  const s = loose(decodedLoosely(segment));
  const own = s === loose(id);
  return others.some((o) => {
    const b = loose(o);
    return s === b || (!own && (s.startsWith(b) || b.startsWith(s) || s.endsWith(b) || b.endsWith(s)));
  });
}

/** A member kept as a spelling: not the id as written, sent as written, and naming none of the other merchants. */
function keep(id: string, others: readonly string[], klass: string, m: Member): MerchantSpelling | undefined {
  if (m.segment === encodeURIComponent(id) || m.segment === '') return undefined;
  if (!isSentAsWritten(spelledPaymentsPath(m.segment)) || couldName(m.segment, id, others)) return undefined;
  return { merchant: id, klass, name: m.name, segment: m.segment };
}

/** Every deterministic member of every class for `id`, in class order; duplicates (same segment) once. */
export function spellingsOf(id: string, others: readonly string[] = []): MerchantSpelling[] {
  const seen = new Set<string>();
  const out: MerchantSpelling[] = [];
  for (const klass of SPELLING_CLASSES) {
    for (const m of klass.members(id)) {
      const s = keep(id, others, klass.name, m);
      if (!s || seen.has(s.segment)) continue;
      seen.add(s.segment);
      out.push(s);
    }
  }
  return out;
}

/**
 * The coverage phase: for every merchant (in the order given) one member of every class, the k-th merchant taking
 * the class's k-th member (rotating), so that three merchants meet three members of each class. Deterministic.
 * `inTurn` (strength 1): each class once, the merchants in turn; `only`: that merchant's spellings alone.
 */
export function coverageSpellings(
  merchants: readonly string[],
  pick: { inTurn?: boolean; only?: string } = {},
): MerchantSpelling[] {
  return merchants.flatMap((id, k) => {
    if (pick.only !== undefined && id !== pick.only) return [];
    const all = spellingsOf(
      id,
      merchants.filter((m) => m !== id),
    );
    return SPELLING_CLASSES.flatMap((klass, j) => {
      if (pick.inTurn && j % merchants.length !== k) return [];
      const members = all.filter((s) => s.klass === klass.name);
      const picked = members[k % Math.max(1, members.length)];
      return picked ? [picked] : [];
    });
  });
}

/** "merchant-id spellings: 14 classes, 42 spellings, 5 served" for a check's notes. */
export function spellingSummary(spellings: readonly MerchantSpelling[], served: number): string {
  const classes = new Set(spellings.map((s) => s.klass));
  const merchants = new Set(spellings.map((s) => s.merchant));
  return `merchant-id spellings: ${classes.size} classes, ${spellings.length} spellings on ${merchants.size} merchants, ${served} served`;
}

/** What a drawn spelling is made of; `choice` and `bits` pick the member, its positions, characters and lengths. */
interface SpellingDraw {
  merchant: number;
  /** The class's index in SPELLING_CLASSES. */
  klass: number;
  choice: number;
  bits: boolean[];
}

/**
 * The property phase's arbitrary over the whole grammar: any class, on any of `merchants`, with random subsets for
 * percent-encoding and case, random positions, characters and lengths elsewhere. Shrinks toward the first merchant,
 * the first member, no bits.
 */
export function spellingDrawArb(merchants: readonly string[]): fc.Arbitrary<SpellingDraw> {
  return fc.record({
    merchant: fc.nat({ max: merchants.length - 1 }),
    klass: fc.nat({ max: SPELLING_CLASSES.length - 1 }),
    choice: fc.nat({ max: 1000 }),
    bits: fc.array(fc.boolean(), { maxLength: 40 }),
  });
}

/**
 * The spelling a draw makes of one of `merchants` (`all`: every configured merchant, whose ids it must not name); a
 * draw whose random form is left out falls back to a member of its class.
 */
export function spellingOf(
  merchants: readonly string[],
  d: SpellingDraw,
  all: readonly string[] = merchants,
): MerchantSpelling | undefined {
  const id = merchants[d.merchant] as string;
  const others = all.filter((m) => m !== id);
  const klass = SPELLING_CLASSES[d.klass] as SpellingClass;
  const drawn = klass.draw?.(id, d);
  const s = drawn && keep(id, others, klass.name, drawn);
  if (s) return s;
  const members = spellingsOf(id, others).filter((m) => m.klass === klass.name);
  return members[d.choice % Math.max(1, members.length)];
}
