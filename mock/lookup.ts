/**
 * How the merchant id of a payments path finds its merchant (variant `merchant-lookup`): the id as decoded, or
 * through a folding a real lookup does — a case-insensitive column, NFKC with case folding, a database collation
 * that ignores case, accents, compatibility forms and trailing spaces. Every value resolves to the canonical merchant,
 * whose mode and permissions authorize.ts then checks (a spelling obeys the rules of the merchant it resolves to).
 * Also the foldings the faults of spellings use (faults/spellings.ts).
 */
import unhomoglyph from 'unhomoglyph';
import { MERCHANTS, type Merchant } from './data.ts';
import type { Variants } from './variants.ts';

type Lookup = Variants['merchant-lookup'];

/** Case folding for ids (Unicode lower case of the upper case, so `ß` and `SS` meet). */
export const casefold = (s: string) => s.toUpperCase().toLowerCase();
/** NFKC with case folding, as NFKC_Casefold does for identifiers. */
export const nfkcCasefold = (s: string) => casefold(s.normalize('NFKC')).normalize('NFKC');
/**
 * A case- and accent-insensitive collation with PAD SPACE (what `utf8mb4_unicode_ci` compares): compatibility forms
 * and accents fold away, trailing spaces do not count.
 */
const collated = (s: string) =>
  casefold(s.normalize('NFKD').replace(/\p{M}/gu, '')).normalize('NFKC').replace(/ +$/, '');
/** UTS #39's skeleton (confusables.txt through `unhomoglyph`): what a look-alike-tolerant match compares. */
export const skeleton = (s: string) => unhomoglyph(s.normalize('NFD')).normalize('NFD');

const FOLDS: Readonly<Record<Lookup, (s: string) => string>> = {
  exact: (s) => s,
  casefold,
  nfkc: nfkcCasefold,
  collation: collated,
};

/** The merchant whose id equals `id` under `fold` (the first, in the data set's order). */
export function findMerchant(
  id: string,
  fold: (s: string) => string,
  merchants: readonly Merchant[] = MERCHANTS,
): Merchant | undefined {
  const want = fold(id);
  return merchants.find((m) => fold(m.id) === want);
}

/** The canonical id a path's merchant id resolves to under the lookup in force (the id itself when none matches). */
export function resolveMerchantId(lookup: Lookup, id: string): string {
  if (lookup === 'exact') return id;
  return findMerchant(id, FOLDS[lookup])?.id ?? id;
}
