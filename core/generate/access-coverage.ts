/**
 * The access matrix's query-shape phase (issue: coverage by construction, not by chance): on a listing, every access
 * rule meets the query features that change a server's code path (query-shapes.ts: a filter, a sort and its
 * direction, an offset past the first pages, the limit at its bounds) with every key class and merchant of the rule
 * and every method, in a covering array: deterministic, sent before any random draw (which adds to it). At strength 2
 * every pair of two factors' values is in some request — a check that only a sorted-descending deep GET skips is met
 * on every seed —; at strength 1 (quick) one array over every factor of the rule at once (coverAtOnce), the
 * credential as written, the endpoint and the method among them, every value once.
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
 * The covering array of a rule on a listing at strength 2: GET requests covering every pair of values of two factors
 * among key class, merchant and the query features (a GET path that only a sorted-descending deep query takes is met
 * on every seed), then each other method with every value of every factor once.
 */
export function accessShapes<C extends CredentialLike>(
  credentials: readonly C[],
  merchants: readonly MerchantRole[],
  features: readonly Feature[],
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
  return FORMS.flatMap((form, i) => coveringArray(sizes, i === 0 ? 2 : 1).map((row) => rowOf(row, form)));
}

/** The phase in words, for the check's notes. */
export function shapeSummary(rows: readonly ShapeRow<CredentialLike>[]): string {
  return `query-shape phase: ${rows.length} requests over key class × merchant × filter × sort × offset × limit (to one past its maximum) × method, every pair of values of two factors on GET, every value on HEAD and on OPTIONS`;
}

/** One request of the quick cover: a credential as written (an item), an endpoint, a merchant, a query, a method. */
export interface CoverRow<I> {
  item: I;
  endpoint: 'status' | 'list';
  merchant: MerchantRole;
  query: PageRequest;
  form: MethodForm;
}

/**
 * Quick (strength 1) over every factor of a rule at once, so that its cost is about its largest factor, not the sum
 * of its phases: every credential as written (`items`: a credential class in a spelling of the header) once with
 * GET, the endpoints in turn; on the list every merchant and every value of every query feature in turn (the first
 * list request takes the furthest value of each at once: a filter, the descending sort, the deep offset, the maximum
 * limit). What widens the answers a row allows cannot stand for another factor's value (a value met only there would
 * go unjudged), so three exceptions are sent alone, each once: a limit above the maximum (a 400 is legal), HEAD (a
 * refusal is legal) and OPTIONS (any answer without records is legal), and the CORS pre-flight where the rule has no
 * credential; the methods on the list, where an answer can show records, with the credential classes in turn, and
 * with the plain query on the first merchant (what OPTIONS may not show is records: a filter or a deep offset could
 * leave none to show).
 */
export function coverAtOnce<I extends { credential: CredentialLike }>(
  items: readonly I[],
  endpoints: ReadonlyArray<'status' | 'list'>,
  merchants: readonly MerchantRole[],
  features: readonly Feature[],
  overMax?: Partial<PageRequest>,
): CoverRow<I>[] {
  if (items.length === 0 || endpoints.length === 0 || merchants.length === 0) return [];
  const onList = endpoints.includes('list');
  let k = 0;
  const at = (endpoint: 'status' | 'list'): Pick<CoverRow<I>, 'endpoint' | 'merchant' | 'query'> => {
    if (endpoint === 'status') return { endpoint, merchant: merchants[0] as MerchantRole, query: {} };
    const i = k++;
    const query = Object.assign({}, ...features.map((f) => f[f.length - 1 - (i % f.length)])) as PageRequest;
    return { endpoint, merchant: merchants[i % merchants.length] as MerchantRole, query };
  };
  const need = onList ? Math.max(merchants.length, ...features.map((f) => f.length)) : 0;
  const rows: CoverRow<I>[] = [];
  for (let r = 0; r < items.length || k < need; r++) {
    const endpoint = r < items.length ? (endpoints[r % endpoints.length] as 'status' | 'list') : 'list';
    rows.push({ item: items[r % items.length] as I, ...at(endpoint), form: GET_FORM });
  }
  const first = items[0] as I;
  const last = onList ? 'list' : (endpoints[0] as 'status' | 'list');
  if (onList && overMax) rows.push({ item: first, ...at('list'), query: overMax, form: GET_FORM });
  const classes = firstOfEachClass(items.map((i) => i.credential));
  const byClass = classes.map((c) => items.find((i) => i.credential === c) as I);
  for (const [j, form] of METHOD_FORMS.entries()) {
    const item = form.preflight ? items.find((i) => i.credential.kind === 'none') : byClass[j % byClass.length];
    if (!item) continue;
    rows.push({ item, endpoint: last, merchant: merchants[0] as MerchantRole, query: {}, form });
  }
  return rows;
}
