/**
 * JSON Schema validation of what the spec shows (payment-api.md §2): the collection envelope, the payment
 * record and the API key format. Each schema is compiled once, at module load; the validators return short,
 * readable problems that go straight into failure reports.
 */
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import apiKeySchema from '../schemas/api-key.schema.json' with { type: 'json' };
import envelopeSchema from '../schemas/envelope.schema.json' with { type: 'json' };
import paymentSchema from '../schemas/payment.schema.json' with { type: 'json' };

/** One schema violation: where (a JSON pointer, '' for the value itself) and what, e.g. `/total must be integer`. */
export interface SchemaProblem {
  path: string;
  message: string;
}

// ajv-formats is CommonJS: the default import is its module.exports, which carries the plugin as `.default`.
const addFormats = addFormatsModule.default;

const ajv = new Ajv2020({ strict: true, allErrors: true, verbose: true });
addFormats(ajv);

const envelopeValidator = ajv.compile(envelopeSchema);
const paymentValidator = ajv.compile(paymentSchema);
ajv.addSchema(apiKeySchema);
const testKeyValidator = mustGet(`${apiKeySchema.$id}#/$defs/testKey`);
const liveKeyValidator = mustGet(`${apiKeySchema.$id}#/$defs/liveKey`);

function mustGet(ref: string): ValidateFunction {
  const validate = ajv.getSchema(ref);
  if (!validate) throw new Error(`schema ${ref} not found`);
  return validate;
}

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

/** True when `s` has the sandbox key format `sk_test_<secret>`. */
export function isTestKey(s: unknown): boolean {
  return testKeyValidator(s) === true;
}

/** True when `s` has the live key format `sk_live_<secret>`. */
export function isLiveKey(s: unknown): boolean {
  return liveKeyValidator(s) === true;
}

function run(validate: ValidateFunction, value: unknown, at: string): SchemaProblem[] {
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
