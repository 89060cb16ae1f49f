/**
 * A partial quote of a key (reading: "not whole, not encoded, and not most of it"): at least half of the key's random
 * part shown at its own positions in a text, the rest masked or cut off (`sk_test_4eC39HqLyjWDarjtT1zdp7dc****`,
 * `sk_test_4eC39H…`, the random part alone, or behind another prefix). One finder for the key-leak scan (rule
 * KEY-SECRET), the redaction of everything the suite writes, and npm test's artifact scan: what one calls a leak, the
 * others remove and look for. A hint such as the last four characters is no quote, nor is the prefix alone.
 */
import { prefixLength } from './credentials.ts';

/** Anchors are slices of the random part this long, spaced so that a quote of half of it always holds one whole. */
const ANCHOR = 6;
/** At most this many occurrences of one anchor are aligned per text (a body full of repeats stays cheap). */
const MAX_HITS = 20;

/**
 * How many characters of a random part of `length` a quote shows: half of it, and never fewer than MIN_SHOWN. A short
 * secret (a presented key truncated to half its random part) shares a few characters with any text by chance — a
 * word of the key in a merchant id the error echoes — where most of it does not.
 */
const MIN_SHOWN = 10;
const neededOf = (length: number) => Math.min(length, Math.max(Math.ceil(length / 2), MIN_SHOWN));

/** A quote in a text: how many of the random part's characters it shows, from `start` to `end` (exclusive) of the text. */
interface Quote {
  shown: number;
  start: number;
  end: number;
}

/** A key's random part, lower-cased, and its anchors: worked out once per key. */
const quotable = new Map<string, { secret: string; anchors: Array<[number, string]> }>();
function quotableOf(key: string) {
  let q = quotable.get(key);
  if (!q) {
    const secret = key.slice(prefixLength(key)).toLowerCase();
    // Spaced so that every run of the characters a quote needs holds one whole (a quote of the last half too).
    const stride = Math.max(1, neededOf(secret.length) - ANCHOR + 1);
    const starts = new Set<number>();
    for (let a = 0; a + ANCHOR <= secret.length; a += stride) starts.add(a);
    if (secret.length >= ANCHOR) starts.add(secret.length - ANCHOR);
    const anchors = [...starts].map((a): [number, string] => [a, secret.slice(a, a + ANCHOR)]);
    q = { secret, anchors };
    if (quotable.size > 256) quotable.clear(); // presented keys vary (mutations); configured keys come back
    quotable.set(key, q);
  }
  return q;
}

/**
 * Every alignment at which `lower` (a lower-cased text) shows at least half of the key's random part, in any letter
 * case. Each occurrence of an anchor fixes an alignment; characters that differ there (a mask, a cut) do not count.
 */
export function partialQuotes(key: string, lower: string): Quote[] {
  const { secret, anchors } = quotableOf(key);
  if (secret.length < 2 * ANCHOR || lower.length < ANCHOR) return [];
  const needed = neededOf(secret.length);
  const quotes = new Map<number, Quote>();
  for (const [a, anchor] of anchors) {
    for (
      let at = lower.indexOf(anchor), hits = 0;
      at >= 0 && hits < MAX_HITS;
      at = lower.indexOf(anchor, at + 1), hits++
    ) {
      const origin = at - a;
      if (quotes.has(origin)) continue;
      const quote: Quote = { shown: 0, start: -1, end: -1 };
      for (let p = 0; p < secret.length; p++) {
        if (lower[origin + p] !== secret[p]) continue;
        quote.shown++;
        if (quote.start < 0) quote.start = origin + p;
        quote.end = origin + p + 1;
      }
      if (quote.shown >= needed) quotes.set(origin, quote);
    }
  }
  return [...quotes.values()];
}

/** How many of the random part's characters a secret must have before a quote of it counts (the prefix alone does not). */
export const MIN_QUOTABLE = ANCHOR;
