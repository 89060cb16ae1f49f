/**
 * Collections from an OpenAPI 3.0/3.1 document (`--collections openapi.yaml`): every GET operation whose 200 answer is
 * the collection envelope (an object with `data` an array, and `offset`, `limit`, `total`) becomes a collection. The
 * document says its path, its filters (`filter[<field>]` query parameters; their `enum` the values to try, else
 * learned from the data), its sorts (the `sort` parameter's `enum`, each field typed by the record schema: number,
 * string, or a string of format date-time), and its limits (the `limit` parameter's `default` and `maximum`). What it
 * cannot say comes from the configuration: `{merchantId}` (or the parameter `x-conformance.merchantParam` names) takes
 * each configured merchant, and an operation's `x-conformance` object gives the rest in the collections file's
 * terms (name, params, access, filters, sorts, limits). The document is validated and its `$ref`s resolved by
 * @readme/openapi-parser, offline (local files only).
 */
import type { Collection } from '../model/collection.ts';
import { PAYMENTS, placeholders, type SortType } from '../model/collection.ts';
import {
  type DeclaredCollection,
  duplicates,
  extensionProblems,
  type ParsedFile,
  resolveCollection,
  sameTemplate,
} from './collections-file.ts';
import { ConfigError } from './config.ts';

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const pointerSegment = (segment: string) => segment.replace(/~/g, '~0').replace(/\//g, '~1');

/** The properties of a schema, allOf's merged in. */
function propertiesOf(schema: unknown): Json {
  if (!isObject(schema)) return {};
  const own = isObject(schema.properties) ? schema.properties : {};
  const parts = Array.isArray(schema.allOf) ? schema.allOf.map(propertiesOf) : [];
  return Object.assign({}, ...parts, own);
}

/** The record schema of a 200 answer that is the collection envelope, or undefined when it is no envelope. */
function envelopeRecords(op: Json): Json | undefined {
  const ok = isObject(op.responses) ? op.responses['200'] : undefined;
  const content = isObject(ok) && isObject(ok.content) ? ok.content : {};
  const media = Object.entries(content).find(([type]) => /json/i.test(type))?.[1];
  const props = propertiesOf(isObject(media) ? media.schema : undefined);
  const data = props.data;
  const isArray =
    isObject(data) && (data.type === 'array' || (Array.isArray(data.type) && data.type.includes('array')));
  if (!isArray || !('offset' in props) || !('limit' in props) || !('total' in props)) return undefined;
  return isObject(data.items) ? data.items : {};
}

/** How a record property compares: number (number, integer), date-time (a string of that format), else string. */
function sortTypeOf(property: unknown): SortType {
  if (!isObject(property)) return 'string';
  const types = Array.isArray(property.type) ? property.type : [property.type];
  if (types.includes('number') || types.includes('integer')) return 'number';
  if (property.format === 'date-time') return 'date-time';
  return 'string';
}

/** A parameter's example value: `example`, the schema's example, default or first enum value, the first example. */
function exampleOf(p: Json): string | undefined {
  const schema = isObject(p.schema) ? p.schema : {};
  const examples = isObject(p.examples) ? Object.values(p.examples) : [];
  const first = examples.map((e) => (isObject(e) ? e.value : undefined)).find((v) => v !== undefined);
  const found = [
    p.example,
    schema.example,
    schema.default,
    Array.isArray(schema.enum) ? schema.enum[0] : undefined,
    first,
  ];
  const value = found.find((v) => typeof v === 'string' || typeof v === 'number');
  return value === undefined ? undefined : String(value);
}

/** A collection's name from its path: its last fixed segment, in lower case (`/v1/orgs/{id}/Users` → `users`). */
function nameOf(path: string, taken: Set<string>): string {
  const last =
    path
      .split('/')
      .filter((s) => s && !s.includes('{'))
      .at(-1) ?? 'collection';
  let base = last
    .toLowerCase()
    .replace(/[^a-z0-9-]+/g, '-')
    .replace(/^-+|-+$/g, '');
  if (!/^[a-z]/.test(base)) base = `c-${base}`;
  base = base.slice(0, 36);
  let name = base;
  for (let n = 2; taken.has(name); n++) name = `${base}-${n}`;
  taken.add(name);
  return name;
}

/** The collection one GET operation declares, as the collections file would write it. */
function declared(path: string, item: Json, op: Json, records: Json, taken: Set<string>): DeclaredCollection {
  const ext = (isObject(op['x-conformance']) ? op['x-conformance'] : {}) as Partial<DeclaredCollection> & {
    merchantParam?: string;
  };
  const params = new Map<string, Json>();
  for (const p of [
    ...(Array.isArray(item.parameters) ? item.parameters : []),
    ...(Array.isArray(op.parameters) ? op.parameters : []),
  ]) {
    if (isObject(p) && typeof p.name === 'string') params.set(`${p.in}:${p.name}`, p);
  }
  const query = (name: string) => params.get(`query:${name}`);
  const pathParams = placeholders(path);
  const merchant = ext.merchantParam ?? pathParams.find((n) => /^merchant[_-]?id$/i.test(n));
  const template = merchant ? path.replace(`{${merchant}}`, '{merchantId}') : path;
  const values: Record<string, string> = {};
  for (const name of pathParams.filter((n) => n !== merchant)) {
    const given = ext.params?.[name];
    const example = given === undefined ? exampleOf(params.get(`path:${name}`) ?? {}) : String(given);
    if (example !== undefined) values[name] = example;
  }
  const filters = [...params.values()]
    .filter((p) => p.in === 'query' && typeof p.name === 'string' && /^filter\[[^\]]+\]$/.test(p.name))
    .map((p) => {
      const schema = isObject(p.schema) ? p.schema : {};
      const listed = Array.isArray(schema.enum)
        ? schema.enum.filter((v) => typeof v === 'string' || typeof v === 'number')
        : [];
      return {
        field: (p.name as string).slice(7, -1),
        values: listed.length > 0 ? listed.map(String) : ('learn' as const),
      };
    });
  const sortSchema = isObject(query('sort')?.schema) ? (query('sort')?.schema as Json) : {};
  const sortEnum =
    [sortSchema.enum, isObject(sortSchema.items) ? sortSchema.items.enum : undefined].find(Array.isArray) ?? [];
  const given = new Set(sortEnum.filter((v): v is string => typeof v === 'string'));
  const recordProps = propertiesOf(records);
  // A field is sortable when both directions are offered (the checks read `f` and `-f`).
  const sorts = [...given]
    .filter((v) => !v.startsWith('-') && given.has(`-${v}`))
    .map((field) => ({ field, type: sortTypeOf(recordProps[field]) }));
  const limitSchema = isObject(query('limit')?.schema) ? (query('limit')?.schema as Json) : {};
  const limits = {
    ...(typeof limitSchema.default === 'number' ? { default: limitSchema.default } : {}),
    ...(typeof limitSchema.maximum === 'number' ? { max: limitSchema.maximum } : {}),
  };
  return {
    name: ext.name ?? nameOf(path, taken),
    path: template,
    params: { ...values, ...Object.fromEntries(Object.entries(ext.params ?? {}).filter(([k]) => k !== merchant)) },
    ...(ext.access ? { access: ext.access } : {}),
    filters: ext.filters ?? filters,
    sorts: ext.sorts ?? sorts,
    ...(ext.limits ? { limits: ext.limits } : Object.keys(limits).length ? { limits } : {}),
  };
}

/**
 * A validation error of the parser, named by its line and JSON pointer in the user's file: the parser shows it in a
 * frame of the document written as JSON (2 spaces), whose marked line names the node.
 */
function validationProblem(message: string, parsed: ParsedFile): string {
  const [what = message, ...rest] = message.split('\n');
  const marked = rest.map((l) => /^>\s*(\d+) \|/.exec(l)?.[1]).find((n) => n !== undefined);
  const pointer = marked === undefined ? undefined : pointerOfJsonLine(parsed.value, Number(marked));
  const where = pointer === undefined ? parsed.file : parsed.at(pointer);
  return `${where}: not a valid OpenAPI document: ${what.replace(/^[A-Z]+ /, '')}`;
}

/** The JSON pointer of the node that starts on line `n` of `value` written as JSON.stringify(value, null, 2). */
function pointerOfJsonLine(value: unknown, n: number): string | undefined {
  let line = 1;
  let found: string | undefined;
  const walk = (v: unknown, pointer: string): void => {
    if (line === n) found ??= pointer;
    if (typeof v !== 'object' || v === null) return;
    const entries = Array.isArray(v) ? v.map((x, i) => [String(i), x] as const) : Object.entries(v);
    if (entries.length === 0) return;
    for (const [k, x] of entries) {
      line += 1;
      walk(x, `${pointer}/${pointerSegment(k)}`);
    }
    line += 1; // the closing bracket
  };
  walk(value, '');
  return found;
}

/** The collections of an OpenAPI document, and notes on what it left out; throws ConfigError. */
export async function collectionsOfOpenApi(
  parsed: ParsedFile,
): Promise<{ collections: Collection[]; notes: string[] }> {
  const raw = parsed.value as Json;
  if (typeof raw.openapi !== 'string' || !/^3\.[01]\./.test(raw.openapi)) {
    throw new ConfigError([
      `${parsed.at('/openapi')}: an OpenAPI 3.0 or 3.1 document is read (openapi: ${JSON.stringify(raw.openapi)})`,
    ]);
  }
  const parser = await import('@readme/openapi-parser');
  // Local files only: the run is offline, and a document's reference to a URL is no file of the user's.
  const options = { resolve: { http: false as never, external: true } };
  const checked = await parser
    .validate(parsed.file, options)
    .catch((e: Error) => ({ valid: false as const, errors: [{ message: e.message }] }));
  if (!checked.valid) {
    throw new ConfigError(checked.errors.slice(0, 5).map((e) => validationProblem(e.message, parsed)));
  }
  const doc = (await parser.dereference(parsed.file, options)) as unknown as Json;
  const problems: string[] = [];
  const notes: string[] = [];
  const taken = new Set<string>();
  const out: Collection[] = [];
  for (const [path, item] of Object.entries(isObject(doc.paths) ? doc.paths : {})) {
    const op = isObject(item) ? item.get : undefined;
    if (!isObject(item) || !isObject(op)) continue;
    const records = envelopeRecords(op);
    if (!records) continue;
    const pointer = `/paths/${pointerSegment(path)}/get`;
    if (sameTemplate(path, PAYMENTS.path)) {
      notes.push(`${parsed.at(pointer)}: the payments list, checked from the spec (skipped here)`);
      continue;
    }
    const ext = op['x-conformance'];
    if (ext !== undefined) {
      const bad = extensionProblems(ext, parsed, `${pointer}/x-conformance`);
      if (bad.length > 0) {
        problems.push(...bad);
        continue;
      }
    }
    out.push(resolveCollection(declared(path, item, op, records, taken), parsed, pointer, problems));
  }
  problems.push(...duplicates(out, parsed, () => '/paths'));
  if (out.length === 0 && problems.length === 0) {
    problems.push(
      `${parsed.file}: no GET operation whose 200 answer is the collection envelope (an object with data, offset, limit and total) besides payments`,
    );
  }
  if (problems.length > 0) throw new ConfigError(problems);
  return { collections: out, notes };
}
