/**
 * Legal choices where the spec is silent (reading.md), fixed when the mock starts.
 * Each dimension lists its values with the most conventional one first: that one is the default.
 * The README table and the tests derive from `VARIANT_DIMENSIONS`.
 */

interface VariantDimension {
  name: string;
  values: readonly string[];
  /** What each choice does, in one line. */
  description: string;
  /** The spec gap (payment-api.md / reading.md) that makes every value legal. */
  gap: string;
}

export const VARIANT_DIMENSIONS = [
  {
    name: 'over-limit',
    values: ['clamp', 'reject'],
    description:
      'limit > max: clamp = 200 with limit echoed as the max and at most max records; reject = 400 (422 with invalid=422)',
    gap: '§8 names the maximum, not what happens above it',
  },
  {
    name: 'invalid',
    values: ['400', '422', 'coerce'],
    description:
      'invalid offset/limit/filter/sort value or repeated parameter: 400 {success,message}; 422 {error:{code,detail,param}}; coerce = 200 as if omitted/clamped, echoing the values in force',
    gap: '§7 "Behavior for invalid pagination parameters: not shown"; error body shape not shown',
  },
  {
    name: 'unknown-status',
    values: ['empty', 'reject'],
    description:
      'filter[status] naming no known status: empty = 200 with total 0 and data []; reject = 400 (422 with invalid=422)',
    gap: '§3 other states not shown',
  },
  {
    name: 'unknown-sort',
    values: ['reject', 'ignore'],
    description:
      'sort other than amount/-amount: reject = 400 (422 with invalid=422); ignore = 200 in the unsorted order',
    gap: '§4.2 r6 sortable fields beyond amount not shown',
  },
  {
    name: 'integers',
    values: ['safe', 'strict'],
    description:
      'offset and limit as integers: safe = any string of digits (up to 2^53-1; a longer limit is over the cap); strict = only the canonical form of a 32-bit integer (no leading zero, at most 2147483647), anything else invalid (variant invalid)',
    gap: '§4.2 types offset and limit as integers without a syntax or a range; reading: an invalid value gets a 4xx, or a 200 whose envelope holds',
  },
  {
    name: 'ties',
    values: ['id', 'reverse'],
    description: 'equal amounts under sort: ascending id, or descending id (same order on every request)',
    gap: 'tie order under sort not stated',
  },
  {
    name: 'unsorted',
    values: ['created', 'newest'],
    description: 'order without sort: createdAt ascending, or createdAt descending',
    gap: 'default order not stated',
  },
  {
    name: 'unknown-merchant',
    values: ['404', '403'],
    description: 'valid key on a merchant id that does not exist: 404, or 403',
    gap: '§7 lists 404 for other-mode objects only',
  },
  {
    name: 'amount',
    values: ['number', 'string', 'decimal'],
    description:
      'payment amount serialized as a JSON number, as a numeric string ("1234"), or as a decimal string with two digits (cents/100: "12.34"); sorts numerically in every case',
    gap: '§2 payment record fields not shown',
  },
  {
    name: 'extras',
    values: ['none', 'on'],
    description: 'on = extra envelope fields (page, hasMore), X-Request-Id header, extra record field description',
    gap: 'reading: extra fields and headers are allowed',
  },
  {
    name: 'method',
    values: ['405', '404'],
    description:
      'a method other than GET, HEAD and OPTIONS (and OPTIONS with options=auth-first) on a known path, after auth: 405 with Allow, or 404',
    gap: 'other operations not shown; reading: any 4xx',
  },
  {
    name: 'routing',
    values: ['auth-first', 'route-first'],
    description:
      'auth-first = any request without a valid key gets 401, any path; route-first = a path no endpoint serves gets 404 before authentication, while /merchant/status and /payments/n1/merchant/{id}/payments (known merchant or not) still authenticate first',
    gap: '§1 full list of operations not shown; reading: on a path the spec does not show, 401 expected, 404 accepted (advisory)',
  },
  {
    name: 'spacing',
    values: ['lenient', 'strict'],
    description:
      'whitespace between the scheme and the key: lenient = one or more spaces or tabs accepted; strict = exactly one space, anything else 401',
    gap: 'RFC 9110 allows one or more spaces; reading: two spaces may be the same credential or a 401',
  },
  {
    name: 'scheme',
    values: ['insensitive', 'exact'],
    description:
      'the scheme name of Authorization: insensitive = bearer, BEARER, … accepted like Bearer; exact = only "Bearer", any other case 401',
    gap: '§5.1 writes only "Bearer <key>"; reading: another case of the scheme may get the canonical answer or a 401 (advisory ADV-SCHEME)',
  },
  {
    name: 'errors',
    values: ['json', 'problem', 'text', 'rich'],
    description:
      'every error body: json = {success:false,message} (422 {error:{…}} with invalid=422); problem = application/problem+json {type,title,status,detail}; text = a text/plain one-line message; rich = {success:false,message,error:{id (an integer),httpStatus,code,message,path,merchantId,key: its mode prefix + "…" + its last four characters,keyLast4}} echoing the request',
    gap: "§7 error body shape and media type not shown; reading: only the status code is asserted, and a refusal may echo the path, the merchant id or the key's last four characters (it carries no record)",
  },
  {
    name: 'ids',
    values: ['string', 'integer'],
    description:
      'payment id as a string ("pay_test_…"), or as a JSON integer (unique across merchants and modes, stable)',
    gap: '§2 payment record fields not shown; reading: the id identifies a record, whatever its type',
  },
  {
    name: 'status-endpoint',
    values: ['200', '204', 'text'],
    description:
      '/merchant/status for an accepted key: 200 with a JSON body {success,message,mode}; 204 with no body; 200 with a text/plain line',
    gap: '§4.1 payload not shown; reading: any 2xx for a valid key',
  },
  {
    name: 'prefix',
    values: ['none', 'api'],
    description:
      'where the API is served: none = at the root; api = under /api/v2 (the base URL announced includes it), any path outside it 404 for any credential',
    gap: '§1/§4 show paths relative to a base URL that is not shown; reading: API_BASE_URL may carry a path prefix',
  },
  {
    name: 'documented-headers',
    values: ['lenient', 'enforced'],
    description:
      'the headers the spec documents per endpoint: lenient = a request without them is served; enforced = /merchant/status without Content-Type: application/json gets 415, before authentication (a strict gateway)',
    gap: '§4.1 lists Content-Type: application/json among the request headers of /merchant/status; reading: a target may refuse a request that lacks a documented header with a 4xx',
  },
  {
    name: 'head',
    values: ['served', 'refused'],
    description:
      'HEAD on the spec paths: served = GET without the body (the same status and headers, every rule of GET); refused = 405 with an Allow that lists no HEAD (Allow: GET), before authentication (a router without a HEAD route)',
    gap: 'RFC 9110 §9.3.2 HEAD is GET without content; reading "Methods": HEAD obeys every status rule of GET, or is refused (405, 404, 401)',
  },
  {
    name: 'options',
    values: ['auth-first', 'cors', 'allow'],
    description:
      'OPTIONS: auth-first = 401 without a valid key, then as the variant method (405 with Allow, or 404); cors = CORS middleware before authentication, on every path: 204 with Access-Control-Allow-Origin/-Methods/-Headers and Allow, no body, no key check (and Access-Control-Allow-Origin on every answer); allow = after authentication, 200 with Allow: GET, HEAD, OPTIONS and that list as text',
    gap: 'reading "Methods": OPTIONS may be answered without any key check (a CORS pre-flight) or refused (405, 404, 401); whatever it answers, it carries no record and no key',
  },
  {
    name: 'merchant-lookup',
    values: ['exact', 'casefold', 'nfkc', 'collation'],
    description:
      'how the merchant id of a payments path finds its merchant: exact = the id as decoded; casefold = case-insensitively; nfkc = NFKC with case folding (fullwidth and other compatibility forms too); collation = as a case- and accent-insensitive PAD SPACE collation compares (also trailing spaces and accents); the mode and permission checks always run on the merchant found',
    gap: 'the spec does not say how a merchant id is matched; reading: a spelling the target resolves to a merchant obeys the key, mode and merchant rules of that merchant',
  },
  {
    name: 'unknown-params',
    values: ['ignore', 'reject'],
    description:
      'a query parameter the request does not take (on a listing: not offset, limit, its filter or sort; on /merchant/status: any): ignore = served as if it were absent; reject = 400 (422 with invalid=422) naming it, after authentication (a strict gateway)',
    gap: 'reading "Inputs the spec does not document": a target may ignore an input it does not know, or refuse the request with any 4xx (400 for an unknown parameter)',
  },
  {
    name: 'representations',
    values: ['json', 'negotiated'],
    description:
      'negotiated = HTTP negotiation on the listings, after authentication: a client that prefers text/csv (Accept) gets the same page as CSV, every listing answer an ETag and Vary: Accept, and a GET or HEAD whose If-None-Match names the tag (or *) a 304 Not Modified',
    gap: 'reading "Inputs the spec does not document": a target may honour an undocumented input within what the request may see anyway (another representation or a conditional answer of the same page)',
  },
  {
    name: 'busy',
    values: ['never', 'retry-after'],
    description:
      'retry-after = now and then (every 37th request) 503 Service Unavailable with Retry-After: 0, before anything else (a server shedding load)',
    gap: 'RFC 9110 §15.6.4: a 503 with Retry-After says "come back later"; reading: wait as it says and ask again, as for a 429',
  },
  {
    name: 'data',
    values: ['default', 'new-account', 'large'],
    description:
      'the data set: default = 237/143/61/40 payments in all five statuses; new-account = 7 sandbox payments in two statuses, no live payment, 3 test payments on the live merchant, 2 on the other sandbox merchant; large = 2,500 sandbox payments (more than API_MAX_RECORDS)',
    gap: "how many payments a merchant holds, and in which statuses, is not the spec's to say",
  },
] as const satisfies readonly VariantDimension[];

type Dimension = (typeof VARIANT_DIMENSIONS)[number];
export type VariantName = Dimension['name'];
export type Variants = { [N in VariantName]: Extract<Dimension, { name: N }>['values'][number] };
export type VariantInput = Partial<Record<VariantName, string>> | readonly string[];

export class VariantError extends Error {
  override name = 'VariantError';
}

export const VARIANT_DEFAULTS: Readonly<Variants> = Object.fromEntries(
  VARIANT_DIMENSIONS.map((d) => [d.name, d.values[0]]),
) as Variants;

function dimension(name: string): Dimension {
  const found = VARIANT_DIMENSIONS.find((d) => d.name === name);
  if (!found) {
    const names = VARIANT_DIMENSIONS.map((d) => d.name).join(', ');
    throw new VariantError(`unknown variant "${name}"; variants are: ${names}`);
  }
  return found;
}

/** Parses one `--variant` argument: `name=value`, or a comma list of them. */
export function parseVariantArg(arg: string): [VariantName, string][] {
  return arg
    .split(',')
    .filter((part) => part.trim() !== '')
    .map((part) => {
      const eq = part.indexOf('=');
      if (eq < 0) throw new VariantError(`variant "${part}" must have the form name=value`);
      const name = part.slice(0, eq).trim();
      return [dimension(name).name, part.slice(eq + 1).trim()];
    });
}

/** The complete choice: defaults, overridden by the input. Throws VariantError naming a bad name or value. */
export function resolveVariants(input: VariantInput = {}): Variants {
  const pairs: [string, string][] = Array.isArray(input)
    ? (input as readonly string[]).flatMap(parseVariantArg)
    : Object.entries(input as Record<string, string>);
  const chosen: Record<string, string> = { ...VARIANT_DEFAULTS };
  for (const [name, value] of pairs) {
    const dim = dimension(name);
    if (!(dim.values as readonly string[]).includes(value)) {
      throw new VariantError(`variant ${name} has no value "${value}"; allowed: ${dim.values.join(', ')}`);
    }
    chosen[name] = value;
  }
  return chosen as Variants;
}

/** `name=value` pairs, for banners and logs. */
export function describeVariants(v: Variants): string {
  return VARIANT_DIMENSIONS.map((d) => `${d.name}=${v[d.name]}`).join(', ');
}
