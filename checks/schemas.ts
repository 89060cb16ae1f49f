/**
 * JSON Schema validation of what the spec shows (payment-api.md §2): the collection envelope, the payment
 * record (the key format: core/model/credentials.ts). The schemas are compiled ahead of time (checks/schemas.compiled.ts, by
 * `npm run docs`); the validators return short, readable problems that go straight into failure reports.
 */
import type { ErrorObject } from 'ajv/dist/2020.js';
import { envelope, payment } from './schemas.compiled.ts';

/** One schema violation: where (a JSON pointer, '' for the value itself) and what, e.g. `/total must be integer`. */
export interface SchemaProblem {
  path: string;
  message: string;
}

/**
 * How the schemas are compiled (ahead of time, by `npm run docs`, into checks/schemas.compiled.ts): strict, every
 * error, and each error with its schema (the anyOf branch titles of the messages below).
 */
export const AJV_OPTIONS = { strict: true, allErrors: true, verbose: true } as const;

/** A compiled validator: true when the value conforms, else false with the errors in `errors`. */
type Validate = ((value: unknown) => boolean) & { errors?: ErrorObject[] | null };
const envelopeValidator = envelope as unknown as Validate;
const paymentValidator = payment as unknown as Validate;

/** Problems of a 200 listing's envelope (ENV-SCHEMA); [] when it conforms. Records in `data` are not checked here. */
export function validateEnvelope(value: unknown): SchemaProblem[] {
  return run(envelopeValidator, value, '');
}

/**
 * Problems of one payment record; [] when it conforms. `at` prefixes the paths, so that a record of a listing
 * reports `/data/3/amount` when called with `at = '/data/3'`.
 */
export function validatePayment(value: unknown, at = ''): SchemaProblem[] {
  return run(paymentValidator, value, at);
}

function run(validate: Validate, value: unknown, at: string): SchemaProblem[] {
  if (validate(value)) return [];
  return toProblems(validate.errors ?? [], at);
}

/**
 * Turns ajv errors into one problem per root cause: the branch errors under a failed `anyOf` fold into the
 * `anyOf` message ("must be number or decimal string"), and a type error hides the other errors at its path
 * (a string `success` is reported as "must be boolean", not also "must be true").
 */
function toProblems(errors: readonly ErrorObject[], at: string): SchemaProblem[] {
  const anyOfPaths = errors.filter((e) => e.keyword === 'anyOf').map((e) => `${e.schemaPath}/`);
  const kept = errors.filter((e) => !anyOfPaths.some((p) => e.schemaPath.startsWith(p)));
  const typeFailed = new Set(kept.filter((e) => e.keyword === 'type').map((e) => e.instancePath));
  const problems: SchemaProblem[] = [];
  const seen = new Set<string>();
  for (const e of kept) {
    if (e.keyword !== 'type' && typeFailed.has(e.instancePath)) continue;
    const problem = describe(e, at);
    const key = `${problem.path}\u0000${problem.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    problems.push(problem);
  }
  return problems;
}

function describe(e: ErrorObject, at: string): SchemaProblem {
  if (e.keyword === 'required') {
    const path = `${at}${e.instancePath}/${escapePointer(String(e.params.missingProperty))}`;
    return { path, message: `${path} is required` };
  }
  const path = `${at}${e.instancePath}`;
  return { path, message: `${path === '' ? '(value)' : path} ${explain(e)}` };
}

function explain(e: ErrorObject): string {
  switch (e.keyword) {
    case 'const':
      return `must be ${JSON.stringify(e.params.allowedValue)}`;
    case 'anyOf':
      return `must be ${(e.schema as Array<{ title?: string }>).map((branch) => branch.title ?? 'another form').join(' or ')}`;
    case 'pattern':
      return `must match ${e.params.pattern}`;
    default:
      return e.message ?? `fails ${e.keyword}`;
  }
}

function escapePointer(segment: string): string {
  return segment.replaceAll('~', '~0').replaceAll('/', '~1');
}
