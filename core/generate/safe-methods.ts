/**
 * The safe-methods door (reading "Methods"): the requests of the access matrix sent with a method other than GET.
 * HEAD is GET without a body (RFC 9110 §9.3.2); OPTIONS is sent plain, with the rule's credential, and as a CORS
 * pre-flight (Origin and Access-Control-Request-Method: GET, no Authorization), what a browser sends before a
 * cross-origin GET. Only safe methods (RFC 9110 §9.2.1): the suite never sends one that changes state.
 *
 * Two phases, like INP-ROBUST's: deterministic classes (every method form × endpoint × credential class of a rule,
 * each sent once, counted in the check's notes) and an arbitrary that samples the forms beside GET, mostly GET.
 */
import fc from 'fast-check';
import type { SafeMethod } from '../model/endpoints.ts';

/** A way of sending a request: its method, and for a pre-flight the CORS headers instead of a credential. */
export interface MethodForm {
  name: string;
  method: SafeMethod;
  /** A CORS pre-flight: Origin and Access-Control-Request-Method: GET; sent without Authorization in the classes. */
  preflight?: true;
}

export const GET_FORM: MethodForm = { name: 'GET', method: 'GET' };
/** The forms besides GET, each a class of the coverage phase. */
export const METHOD_FORMS: readonly MethodForm[] = [
  { name: 'HEAD', method: 'HEAD' },
  { name: 'OPTIONS', method: 'OPTIONS' },
  { name: 'CORS pre-flight', method: 'OPTIONS', preflight: true },
];

/** An origin no server knows (RFC 2606 reserves .invalid). */
const PREFLIGHT_ORIGIN = 'https://conformance.invalid';

/** The headers of a CORS pre-flight for a cross-origin GET that carries Authorization (Fetch standard, CORS). */
export const PREFLIGHT_HEADERS: Readonly<Record<string, string>> = {
  origin: PREFLIGHT_ORIGIN,
  'access-control-request-method': 'GET',
  'access-control-request-headers': 'authorization',
};

/** A form for the property phase: GET twice as often as the others together (shrinks toward GET). */
export const methodFormArb: fc.Arbitrary<MethodForm> = fc.oneof(
  { arbitrary: fc.constant(GET_FORM), weight: 2 },
  { arbitrary: fc.constantFrom(...METHOD_FORMS), weight: 1 },
);

/** What the classes need of a credential (structurally the access oracle's `Credential`). */
export interface CredentialLike {
  kind: 'none' | 'malformed' | 'key';
  header?: string;
  slot?: string;
  mutation?: unknown;
  /** What the header carries around the key (auth-header.ts): another credential. */
  around?: unknown;
}

/**
 * A credential's class: what a method-specific code path may treat differently — no header, an empty one, a
 * malformed one, a tampered key (any slot), or an issued key by its slot (revoked, restricted, test, live, …).
 */
export function credentialClass(c: CredentialLike): string {
  if (c.kind === 'none') return 'no header';
  if (c.kind === 'malformed') return (c.header ?? '').trim() === '' ? 'empty header' : 'malformed header';
  if (c.mutation !== undefined) return 'tampered key';
  if (c.around !== undefined) return 'more than the key';
  return `${c.slot} key`;
}

/** The first credential of each class (credentialClass), in their order. */
export function firstOfEachClass<C extends CredentialLike>(credentials: readonly C[]): C[] {
  const byClass = new Map<string, C>();
  for (const c of credentials) if (!byClass.has(credentialClass(c))) byClass.set(credentialClass(c), c);
  return [...byClass.values()];
}

/** One request of the coverage phase: a form, an endpoint and a credential, with the classes it covers. */
interface MethodCase<C, E> {
  form: MethodForm;
  endpoint: E;
  credential: C;
  /** `HEAD × list × no header` */
  label: string;
}

/**
 * The covering set of a rule: every form on every endpoint with the first credential of every class the rule has;
 * the pre-flight only without a credential (a browser's pre-flight carries none), when the rule has that class.
 * Deterministic: the same set on every run.
 */
export function methodCoverage<C extends CredentialLike, E extends string>(
  credentials: readonly C[],
  endpoints: readonly E[],
): MethodCase<C, E>[] {
  const cases: MethodCase<C, E>[] = [];
  for (const endpoint of endpoints) {
    for (const form of METHOD_FORMS) {
      for (const credential of firstOfEachClass(credentials)) {
        if (form.preflight && credential.kind !== 'none') continue;
        const label = `${form.name} × ${endpoint} × ${credentialClass(credential)}`;
        cases.push({ form, endpoint, credential, label });
      }
    }
  }
  return cases;
}

/** The coverage in words, for the check's notes. */
export function methodCoverageSummary(cases: readonly MethodCase<CredentialLike, string>[]): string {
  const forms = [...new Set(cases.map((c) => c.form.name))];
  const endpoints = [...new Set(cases.map((c) => c.endpoint))];
  const classes = [...new Set(cases.map((c) => credentialClass(c.credential)))];
  return `methods phase: ${cases.length} requests, every method form (${forms.join(', ')}) × endpoint (${endpoints.join(', ')}) × credential class (${classes.join(', ')}) once`;
}
