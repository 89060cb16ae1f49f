/**
 * The Authorization header as a grammar, for the access matrix (reading "Keys, modes, merchants": the credential is
 * the exact issued key after the scheme and its whitespace, and nothing else):
 *
 *   [leading whitespace] scheme separator [what precedes the key] key [what follows it] [trailing whitespace]
 *
 *   scheme      Bearer, other cases (bearer, BEARER, bEARER), other schemes (Basic, Token, "Bearer:"), none (a bare key)
 *   separator   one space, several spaces, a tab, none (the key glued to the scheme)
 *   key         a configured key exactly (test, live, restricted, revoked, old) or a mutation of it (key-mutations.ts)
 *   around      nothing; another token, the key again, a comma, a comma and a second credential, a semicolon, a
 *               parameter, quotes, a junk credential before it
 *   edges       whitespace before the value or after the key, which HTTP strips (RFC 9110 §5.5)
 *
 * A spelling (scheme, separator, edges) may leave the credential the key: a target may accept it or answer 401
 * (ADV-SCHEME), never anything more permissive. The key glued to its scheme, or anything around it, makes it another
 * credential: 401. The classes here are deterministic (the coverage phase sends each one); the arbitraries sample
 * the same grammar for the property phase.
 */
import fc from 'fast-check';
import { type Around, type Auth, type HeaderSpelling, type KeySlot, VALID_SLOTS } from '../model/credentials.ts';

/** A class of one part of the header: its name (in the record's notes) and the text it puts there. */
interface Named {
  name: string;
  value: string;
}

export const SCHEMES: readonly Named[] = [
  { name: 'scheme Bearer', value: 'Bearer' },
  { name: 'scheme in lower case', value: 'bearer' },
  { name: 'scheme in upper case', value: 'BEARER' },
  { name: 'scheme in mixed case', value: 'bEARER' },
  { name: 'scheme Basic', value: 'Basic' },
  { name: 'scheme Token', value: 'Token' },
  { name: 'scheme "Bearer:"', value: 'Bearer:' },
  { name: 'no scheme (a bare key)', value: '' },
];

export const SEPARATORS: readonly Named[] = [
  { name: 'one space after the scheme', value: ' ' },
  { name: 'several spaces after the scheme', value: '  ' },
  { name: 'a tab after the scheme', value: '\t' },
  { name: 'no separator (the key glued to the scheme)', value: '' },
];

export const LEADS: readonly Named[] = [{ name: 'leading whitespace', value: ' ' }];
export const TRAILS: readonly Named[] = [
  { name: 'a trailing space', value: ' ' },
  { name: 'a trailing tab', value: '\t' },
];

/** Junk that is no key of anyone's: a second token, a credential that is not a key. */
const JUNK = 'not-a-key';
/** `foo:bar` as RFC 7617 Basic credentials: no key of the user's. */
const BASIC_JUNK = 'Basic Zm9vOmJhcg==';

/**
 * What a header may carry around the key of `slot` besides its scheme and whitespace; `other` is another configured
 * valid key (for a second credential that is a key), when there is one.
 */
export function arounds(slot: KeySlot, other?: KeySlot): Around[] {
  const list: Array<Around | undefined> = [
    { name: 'followed by another token', after: [' x'] },
    { name: 'followed by the key again', after: [' ', { slot }] },
    { name: 'followed by a comma', after: [','] },
    { name: 'followed by a comma and a junk Bearer credential', after: [`, Bearer ${JUNK}`] },
    other === undefined
      ? undefined
      : { name: 'followed by a comma and another key', after: [', Bearer ', { slot: other }] },
    { name: 'followed by a Basic credential', after: [`, ${BASIC_JUNK}`] },
    { name: 'followed by a semicolon', after: [';'] },
    { name: 'followed by a parameter', after: ['; realm=x'] },
    { name: 'in double quotes', before: ['"'], after: ['"'] },
    { name: 'after a junk Bearer credential', before: [`${JUNK}, Bearer `] },
  ];
  return list.filter((a) => a !== undefined);
}

/** Another valid key than `slot`'s, for a second credential that is a key (none when no other value is configured). */
export function otherValidKey(keys: Partial<Record<KeySlot, string>>, slot: KeySlot): KeySlot | undefined {
  return VALID_SLOTS.find((s) => s !== slot && keys[s] !== undefined && keys[s] !== keys[slot]);
}

/** Each of `slots` with each thing a header may carry around a key: what the property phase draws. */
export function aroundKeys(keys: Partial<Record<KeySlot, string>>, slots: readonly KeySlot[]) {
  return slots.flatMap((slot) =>
    arounds(slot, otherValidKey(keys, slot)).map((around) => ({ kind: 'key' as const, slot, around })),
  );
}

/** The names of every `arounds` class (the key of any slot, another key configured). */
export const AROUND_NAMES: readonly string[] = arounds('test', 'live').map((a) => a.name);

const CANONICAL_SPELLING: HeaderSpelling = { scheme: 'Bearer', gap: ' ' };
export const GLUED: HeaderSpelling = { scheme: 'Bearer', gap: '' };

/**
 * One spelling per class of scheme, separator and edge, the rest canonical: every way of writing the header that may
 * leave the credential the key (not the glued one). The coverage phase sends each.
 */
export function spellingClasses(): HeaderSpelling[] {
  return [
    ...SCHEMES.map((s) => ({ scheme: s.value, gap: ' ' })),
    ...SEPARATORS.filter((s) => s.value !== '').map((s) => ({ scheme: 'Bearer', gap: s.value })),
    ...LEADS.map((l) => ({ ...CANONICAL_SPELLING, lead: l.value })),
    ...TRAILS.map((t) => ({ ...CANONICAL_SPELLING, trail: t.value })),
  ].filter((s, i, all) => all.findIndex((o) => sameSpelling(o, s)) === i);
}

const sameSpelling = (a: HeaderSpelling, b: HeaderSpelling) =>
  a.scheme === b.scheme && a.gap === b.gap && (a.lead ?? '') === (b.lead ?? '') && (a.trail ?? '') === (b.trail ?? '');

/**
 * Any spelling of the grammar: every scheme, separator and edge, in any combination (`glued`: the separator may be
 * none), mostly canonical so that a failure shrinks toward `Bearer <key>`.
 */
export function spellingArb(glued: boolean): fc.Arbitrary<HeaderSpelling> {
  const gaps = SEPARATORS.filter((s) => glued || s.value !== '').map((s) => s.value);
  const edge = (classes: readonly Named[]) => fc.constantFrom('', ...classes.map((c) => c.value));
  const any = fc
    .record({
      scheme: fc.constantFrom(...SCHEMES.map((s) => s.value)),
      gap: fc.constantFrom(...gaps),
      lead: edge(LEADS),
      trail: edge(TRAILS),
    })
    .map(
      ({ lead, trail, ...rest }): HeaderSpelling => ({
        ...rest,
        ...(lead ? { lead } : {}),
        ...(trail ? { trail } : {}),
      }),
    );
  return fc.oneof({ arbitrary: fc.constant(CANONICAL_SPELLING), weight: 3 }, { arbitrary: any, weight: 2 });
}

/** One header of the coverage phase: a key's slot, its spelling and what the header carries around it. */
interface GrammarForm {
  slot: KeySlot;
  spelling: HeaderSpelling;
  around?: Around;
}

/** The spelling classes not among `known` (the spellings a key is already sent in), for a key kept in every spelling. */
export function otherSpellings(known: readonly HeaderSpelling[]): HeaderSpelling[] {
  return spellingClasses().filter((s) => !known.some((k) => sameSpelling(k, s)));
}

/**
 * Each thing a header may carry around a key, and the key glued to its scheme, once, the `slots` in turn: every way
 * of making a valid key another credential.
 */
export function aroundCoverage(keys: Partial<Record<KeySlot, string>>, slots: readonly KeySlot[]): GrammarForm[] {
  const forms = [...AROUND_NAMES, undefined];
  return forms.flatMap((name, i): GrammarForm[] => {
    const slot = slots[i % slots.length] as KeySlot;
    if (name === undefined) return [{ slot, spelling: GLUED }];
    const around = arounds(slot, otherValidKey(keys, slot)).find((a) => a.name === name);
    return around ? [{ slot, spelling: CANONICAL_SPELLING, around }] : [];
  });
}

/** The grammar classes a header belongs to (none for no header or a made-up one). */
export function grammarClasses(auth: Auth): string[] {
  if (auth.kind !== 'key') return [];
  const scheme = auth.scheme ?? 'Bearer';
  const classOf = (classes: readonly Named[], value: string) =>
    classes.find((c) => c.value === value)?.name ?? JSON.stringify(value);
  const out = [classOf(SCHEMES, scheme), auth.mutation ? 'a mutated key' : `the ${auth.slot} key exactly`];
  if (scheme !== '') out.push(classOf(SEPARATORS, auth.gap ?? ' '));
  out.push(auth.around?.name ?? 'nothing around the key');
  if (auth.lead) out.push(classOf(LEADS, auth.lead));
  if (auth.trail) out.push(classOf(TRAILS, auth.trail));
  return out;
}

/** Every class of the grammar, for the key slots given. */
export function allGrammarClasses(slots: readonly KeySlot[]): string[] {
  return [
    ...SCHEMES.map((s) => s.name),
    ...SEPARATORS.map((s) => s.name),
    ...slots.map((slot) => `the ${slot} key exactly`),
    'a mutated key',
    'nothing around the key',
    ...AROUND_NAMES,
    ...LEADS.map((l) => l.name),
    ...TRAILS.map((t) => t.name),
  ];
}

/**
 * The coverage phase's count, for the record's notes: `Authorization grammar: N classes, M headers` (the headers that
 * carry a key); undefined when every key is written `Bearer <key>`.
 */
export function grammarSummary(auths: readonly Auth[]): string | undefined {
  const keyed = auths.filter((a) => a.kind === 'key');
  const canonical = (a: (typeof keyed)[number]) =>
    !a.mutation &&
    !a.around &&
    sameSpelling({ ...a, scheme: a.scheme ?? 'Bearer', gap: a.gap ?? ' ' }, CANONICAL_SPELLING);
  if (keyed.every(canonical)) return undefined;
  const classes = new Set(keyed.flatMap(grammarClasses));
  return `Authorization grammar: ${classes.size} classes, ${keyed.length} headers`;
}
