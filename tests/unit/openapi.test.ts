import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { parseDocument } from 'yaml';
import { validateEnvelope, validatePayment } from '../../checks/schemas.ts';
import mockTarget from '../../mock/identity.json' with { type: 'json' };
import envelopeSchema from '../../schemas/envelope.schema.json' with { type: 'json' };
import paymentSchema from '../../schemas/payment.schema.json' with { type: 'json' };

type Json = Record<string, unknown>;

const LIST_PATH = '/payments/n1/merchant/{merchantId}/payments';
const STATUS_PATH = '/merchant/status';
const OPENAPI_ID = 'https://payment-api-conformance.local/schemas/openapi.yaml';
const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

const source = readFileSync(new URL('../../schemas/openapi.yaml', import.meta.url), 'utf8');
const parsed = parseDocument(source);
const doc = parsed.toJS() as Json;

/** Follows a local `$ref` ('#/components/...') inside the document. */
function resolve(node: unknown): Json {
  const ref = (node as Json).$ref;
  if (typeof ref !== 'string') return node as Json;
  assert.ok(ref.startsWith('#/'), `non-local $ref ${ref}`);
  const target = ref
    .slice(2)
    .split('/')
    .reduce<unknown>((at, key) => (at as Json | undefined)?.[key], doc);
  assert.ok(target !== undefined, `unresolved $ref ${ref}`);
  return resolve(target);
}

function at(node: unknown, ...keys: string[]): Json {
  return keys.reduce<Json>((n, key) => {
    const next = resolve(n)[key];
    assert.ok(next !== undefined, `missing ${keys.join('.')}`);
    return resolve(next);
  }, resolve(node));
}

function operation(path: string): Json {
  return at(doc, 'paths', path, 'get');
}

function parameter(name: string): Json {
  const params = (operation(LIST_PATH).parameters as unknown[]).map(resolve);
  const found = params.find((p) => p.name === name);
  assert.ok(found, `parameter ${name} missing`);
  return found;
}

/** Examples of a response's application/json content, by name. */
function examples(path: string, status: string): Array<[string, unknown]> {
  const content = at(operation(path), 'responses', status, 'content', 'application/json');
  return Object.entries(content.examples as Json).map(([name, ex]) => [name, resolve(ex).value]);
}

/** A schema without the annotations that differ between the file and its OpenAPI copy. */
function strip(schema: object): Json {
  const { $id, $schema, title, description, ...rest } = schema as Json;
  return rest;
}

describe('OpenAPI document: structure', () => {
  test('parses as YAML without errors or warnings, and is OpenAPI 3.1', () => {
    assert.deepEqual(parsed.errors, []);
    assert.deepEqual(parsed.warnings, []);
    assert.match(String(doc.openapi), /^3\.1\.\d+$/);
  });

  test('holds exactly the two endpoints of §4, GET only', () => {
    assert.deepEqual(Object.keys(doc.paths as Json).sort(), [STATUS_PATH, LIST_PATH].sort());
    for (const path of [STATUS_PATH, LIST_PATH]) {
      const methods = Object.keys(at(doc, 'paths', path)).filter((k) => HTTP_METHODS.includes(k));
      assert.deepEqual(methods, ['get'], path);
    }
  });

  test('servers: the bundled mock', () => {
    assert.deepEqual(
      (doc.servers as Json[]).map((s) => s.url),
      [`http://${mockTarget.host}:${mockTarget.mockPort}`],
    );
  });

  test('bearer authentication on every operation', () => {
    const scheme = at(doc, 'components', 'securitySchemes', 'bearerAuth');
    assert.equal(scheme.type, 'http');
    assert.equal(scheme.scheme, 'bearer');
    assert.deepEqual(doc.security, [{ bearerAuth: [] }]);
    for (const path of [STATUS_PATH, LIST_PATH]) assert.equal(operation(path).security, undefined, path);
  });

  test('query parameters of §4.2: offset, limit 1..100 default 10, filter[status], sort ±amount', () => {
    assert.deepEqual(parameter('merchantId').in, 'path');
    assert.equal(parameter('merchantId').required, true);
    assert.deepEqual(parameter('offset').schema, { type: 'integer', minimum: 0, default: 0 });
    assert.deepEqual(parameter('limit').schema, { type: 'integer', minimum: 1, maximum: 100, default: 10 });
    const filter = parameter('filter[status]');
    assert.equal(filter.in, 'query');
    assert.equal(filter.style, 'form');
    assert.deepEqual(filter.schema, { type: 'string' });
    assert.deepEqual(parameter('sort').schema, { type: 'string', enum: ['amount', '-amount'] });
    for (const name of ['offset', 'limit', 'filter[status]', 'sort']) assert.equal(parameter(name).in, 'query');
    for (const name of ['offset', 'limit', 'filter[status]', 'sort']) assert.notEqual(parameter(name).required, true);
  });

  test('responses: 200 and 401 on both, 403 and 404 on the listing', () => {
    assert.deepEqual(Object.keys(operation(STATUS_PATH).responses as Json).sort(), ['200', '401']);
    assert.deepEqual(Object.keys(operation(LIST_PATH).responses as Json).sort(), ['200', '401', '403', '404']);
  });

  test('info.description lists what the spec does not show', () => {
    const description = String(at(doc, 'info').description);
    assert.match(description, /not shown/);
    for (const gap of ['payment record', 'error response body', 'invalid pagination', 'rate limits', 'permissions']) {
      assert.ok(description.toLowerCase().includes(gap), `description does not mention ${gap}`);
    }
  });
});

describe('OpenAPI document: schemas are the files', () => {
  const schemas = at(doc, 'components', 'schemas');

  test('Envelope equals schemas/envelope.schema.json', () => {
    assert.deepEqual(strip(at(schemas, 'Envelope')), strip(envelopeSchema));
  });

  test('Payment equals schemas/payment.schema.json', () => {
    assert.deepEqual(strip(at(schemas, 'Payment')), strip(paymentSchema));
  });

  test('the 200 listing is the envelope with payment records in data', () => {
    const content = at(operation(LIST_PATH), 'responses', '200', 'content', 'application/json');
    assert.deepEqual(content.schema, { $ref: '#/components/schemas/PaymentsPage' });
    assert.deepEqual(at(schemas, 'PaymentsPage').allOf, [
      { $ref: '#/components/schemas/Envelope' },
      { type: 'object', properties: { data: { type: 'array', items: { $ref: '#/components/schemas/Payment' } } } },
    ]);
  });
});

describe('OpenAPI document: examples', () => {
  const listing = examples(LIST_PATH, '200');

  test('there are listing examples, first the default query', () => {
    assert.ok(listing.length >= 3);
    const first = listing[0]?.[1] as Json;
    assert.equal(first.offset, 0);
    assert.equal(first.limit, 10);
  });

  for (const [name, value] of listing) {
    test(`listing example "${name}" passes the envelope and payment schemas and the page-size rule`, () => {
      assert.deepEqual(validateEnvelope(value), []);
      const page = value as { data: unknown[]; offset: number; limit: number; total: number };
      assert.deepEqual(
        page.data.flatMap((record, i) => validatePayment(record, `/data/${i}`)),
        [],
      );
      assert.ok(page.limit >= 1 && page.limit <= 100, `limit ${page.limit}`);
      assert.equal(page.data.length, Math.max(0, Math.min(page.limit, page.total - page.offset)));
    });
  }

  test("every example validates against the document's own schemas (as a mock would serve it)", () => {
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    ajv.addSchema({ ...doc, $id: OPENAPI_ID });
    const page = ajv.getSchema(`${OPENAPI_ID}#/components/schemas/PaymentsPage`);
    const error = ajv.getSchema(`${OPENAPI_ID}#/components/schemas/Error`);
    assert.ok(page && error);
    for (const [name, value] of listing) assert.equal(page(value), true, `${name}: ${ajv.errorsText(page.errors)}`);
    // A record that breaks the Payment schema must fail the composed listing schema too.
    const broken = { ...(listing[0]?.[1] as Json), data: [{ status: 'COMPLETED', amount: 'abc' }] };
    assert.equal(page(broken), false);
    for (const [path, status] of [
      [STATUS_PATH, '401'],
      [LIST_PATH, '401'],
      [LIST_PATH, '403'],
      [LIST_PATH, '404'],
    ] as const) {
      const errorExamples = examples(path, status);
      assert.ok(errorExamples.length > 0, `${path} ${status} has no example`);
      for (const [name, value] of errorExamples) assert.equal(error(value), true, `${path} ${status} ${name}`);
    }
  });

  test('the status endpoint has an example object', () => {
    const [first] = examples(STATUS_PATH, '200');
    assert.equal(typeof first?.[1], 'object');
  });
});
