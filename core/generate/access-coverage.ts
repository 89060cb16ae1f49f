/**
 * The access matrix's query-shape phase (issue: coverage by construction, not by chance): on a listing, every access
 * rule meets the query features that change a server's code path (query-shapes.ts: a filter, a sort and its
 * direction, an offset past the first pages, the limit at its bounds) with every key class and merchant of the rule
 * and every method, in a covering array: deterministic, sent before any random draw (which adds to it). At strength 2
 * every pair of two factors' values is in some request — a check that only a sorted-descending deep GET skips is met
 * on every seed —; at strength 1 (quick) every value once.
 */
import type { MerchantRole } from '../model/access.ts';
import type { PageRequest } from '../model/listing.ts';
import { coveringArray, type Feature } from './query-shapes.ts';
import { type CredentialLike, firstOfEachClass, GET_FORM, METHOD_FORMS, type MethodForm } from './safe-methods.ts';

/** The forms of the phase: GET, HEAD and OPTIONS with the rule's credential (a pre-flight carries none). */
const FORMS: readonly MethodForm[] = [GET_FORM, ...METHOD_FORMS.filter((f) => !f.preflight)];

/** One request of the phase: a credential (the first of its class), a merchant, a query and a method form. */
export interface ShapeRow<C> {
  credential: C;
  merchant: MerchantRole;
  query: PageRequest;
  form: MethodForm;
}

/**
 * The covering array of a rule on a listing. At strength 2: GET requests covering every pair of values of two factors
 * among key class, merchant and the query features (a GET path that only a sorted-descending deep query takes is met
 * on every seed), then each other method with every value of every factor once. At strength 1 (quick): every value
 * of every factor, the method one of them, once.
 */
export function accessShapes<C extends CredentialLike>(
  credentials: readonly C[],
  merchants: readonly MerchantRole[],
  features: readonly Feature[],
  strength: 1 | 2,
): ShapeRow<C>[] {
  const keys = firstOfEachClass(credentials);
  if (keys.length === 0 || merchants.length === 0) return [];
  const sizes = [keys.length, merchants.length, ...features.map((f) => f.length)];
  const rowOf = (row: readonly number[], form: MethodForm): ShapeRow<C> => ({
    credential: keys[row[0] as number] as C,
    merchant: merchants[row[1] as number] as MerchantRole,
    query: Object.assign({}, ...features.map((f, i) => f[row[i + 2] as number])) as PageRequest,
    form,
  });
  if (strength === 1)
    return coveringArray([...sizes, FORMS.length], 1).map((row) =>
      rowOf(row, FORMS[row.at(-1) as number] as MethodForm),
    );
  return FORMS.flatMap((form, i) => coveringArray(sizes, i === 0 ? 2 : 1).map((row) => rowOf(row, form)));
}

/** The phase in words, for the check's notes. */
export function shapeSummary(rows: readonly ShapeRow<CredentialLike>[], strength: 1 | 2): string {
  const what =
    strength === 2
      ? 'every pair of values of two factors on GET, every value on HEAD and on OPTIONS'
      : 'every value once (quick: strength 1)';
  return `query-shape phase: ${rows.length} requests over key class × merchant × filter × sort × offset × limit (to one past its maximum) × method, ${what}`;
}
