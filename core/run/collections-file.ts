/**
 * The format of a collections file (core/run/collections.schema.json, JSON or YAML): parsing with lines kept, the
 * schema's problems said plainly (where, and what is wrong), and a declared collection with its defaults filled in.
 * The OpenAPI reader (collections-openapi.ts) uses the same pieces for what a document's `x-conformance` says.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { Ajv2020, type ErrorObject } from 'ajv/dist/2020.js';
import { type Document, isMap, isScalar, LineCounter, parseDocument } from 'yaml';
import {
  type Collection,
  type CollectionAccess,
  type CollectionFilter,
  type CollectionSort,
  PAYMENTS,
  PAYMENTS_NAME,
  placeholders,
  type SortType,
} from '../model/collection.ts';
import { closest } from '../model/near-miss.ts';
import schema from './collections.schema.json' with { type: 'json' };
import { ConfigError } from './config.ts';

/** A collection as the file writes it (collections.schema.json), before its defaults are filled in. */
export interface DeclaredCollection {
  name: string;
  path: string;
  params?: Record<string, string | number>;
  access?: Partial<{ scope: 'merchant' | 'account'; keys: Array<'test' | 'live'>; restrictedKey: string }>;
  filters?: Array<string | { field: string; values?: 'learn' | Array<string | number> }>;
  sorts?: Array<{ field: string; type: SortType; collation?: string }>;
  limits?: { default?: number; max?: number };
}

/** A parsed file: its value, and where each JSON pointer is in it (`line 12`). */
export interface ParsedFile {
  file: string;
  value: unknown;
  /** `FILE line N (/pointer)`, as far as the pointer can be followed in the file. */
  at(pointer: string): string;
}

/** Reads and parses FILE (JSON or YAML: a JSON file is YAML too); a file that does not parse is a ConfigError. */
export function parseFile(file: string, what = '--collections (API_COLLECTIONS)'): ParsedFile {
  if (!existsSync(file) || !statSync(file).isFile()) {
    throw new ConfigError([`${what} names ${file}, which ${existsSync(file) ? 'is not a file' : 'does not exist'}`]);
  }
  const lines = new LineCounter();
  const doc = parseDocument(readFileSync(file, 'utf8'), { lineCounter: lines, prettyErrors: true });
  if (doc.errors.length > 0) {
    throw new ConfigError(
      doc.errors.map((e) => {
        const pos = e.linePos?.[0];
        const what = (e.message.split('\n')[0] ?? '').replace(/ at line \d+, column \d+:?$/, '');
        return `${file}${pos ? ` line ${pos.line}` : ''}: not JSON or YAML: ${what}`;
      }),
    );
  }
  return { file, value: doc.toJS(), at: (pointer) => `${file}${lineOf(doc, lines, pointer)} (${pointer || '/'})` };
}

/** ` line N` of the node a JSON pointer names (or of its nearest parent the file holds), or ''. */
function lineOf(doc: Document, lines: LineCounter, pointer: string): string {
  const path = pointer
    .split('/')
    .slice(1)
    .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
  for (let n = path.length; n >= 0; n--) {
    const keys = path.slice(0, n).map((p) => (/^\d+$/.test(p) ? Number(p) : p));
    const node = n === 0 ? doc.contents : doc.getIn(keys, true);
    // An unknown field is named by its key: the key's line.
    const parent = n > 0 ? doc.getIn(keys.slice(0, -1), true) : undefined;
    const pair = isMap(parent) ? parent.items.find((i) => isScalar(i.key) && i.key.value === keys.at(-1)) : undefined;
    const at = (isScalar(pair?.key) ? pair.key.range : undefined) ?? (node as { range?: number[] } | null)?.range;
    if (at?.[0] !== undefined) return ` line ${lines.linePos(at[0]).line}`;
  }
  return '';
}

type Validator = ((value: unknown) => boolean) & { errors?: ErrorObject[] | null };
let validators: { file: Validator; extension: Validator } | undefined;
/** The schema's validators, compiled on first use (only the main process of a run with a collections file needs them). */
function compiled() {
  if (!validators) {
    const ajv = new Ajv2020({ allErrors: true, strict: true, allowUnionTypes: true, verbose: true });
    const file = ajv.compile(schema) as Validator;
    validators = { file, extension: ajv.compile({ $ref: `${schema.$id}#/$defs/extension` }) as Validator };
  }
  return validators;
}

/** What the schema found, one problem each, named by where and said plainly; a near miss of a field is named. */
function schemaProblems(errors: readonly ErrorObject[], parsed: ParsedFile, base = ''): string[] {
  // anyOf's branches each complain about the same value: of an anyOf, the errors of the branch that got furthest
  // into the value (or the anyOf itself, when none went deeper than it).
  const depth = (e: ErrorObject) => e.instancePath.split('/').length;
  const anyOfs = errors.filter((e) => e.keyword === 'anyOf');
  const branchOf = (e: ErrorObject) => anyOfs.find((a) => e !== a && e.schemaPath.startsWith(`${a.schemaPath}/`));
  const deepest = errors.filter((e) => {
    const group = e.keyword === 'anyOf' ? e : branchOf(e);
    if (!group) return true;
    const branches = errors.filter((x) => branchOf(x) === group);
    const max = Math.max(depth(group), ...branches.map(depth));
    return e === group ? max === depth(group) : depth(e) === max && depth(e) > depth(group);
  });
  const seen = new Set<string>();
  const out: string[] = [];
  for (const e of deepest) {
    const pointer = `${base}${e.instancePath}`;
    const problem = describeError(e);
    const line = `${parsed.at(e.keyword === 'additionalProperties' ? `${pointer}/${String(e.params.additionalProperty)}` : pointer)}: ${problem}`;
    if (seen.has(line)) continue;
    seen.add(line);
    out.push(line);
  }
  return out;
}

function describeError(e: ErrorObject): string {
  const p = e.params as Record<string, unknown>;
  switch (e.keyword) {
    case 'additionalProperties': {
      const field = String(p.additionalProperty);
      const known = Object.keys((e.parentSchema as { properties?: object })?.properties ?? {});
      const meant = closest(field, known);
      return `unknown field "${field}"${meant ? `: did you mean "${meant}"?` : ` (the fields are ${known.join(', ')})`}`;
    }
    case 'required':
      return `"${String(p.missingProperty)}" is required`;
    case 'enum':
      return `must be one of ${(p.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`;
    case 'pattern':
      return e.instancePath.endsWith('/name')
        ? 'a name is a lower-case word (letters, digits, -; up to 40 characters), e.g. "refunds"'
        : e.instancePath.endsWith('/path')
          ? 'a path starts with / and holds no ? or # (relative to API_BASE_URL)'
          : 'a field name is letters, digits, _ . or - (it is written into filter[...] and sort=)';
    case 'anyOf':
      return e.instancePath.includes('/filters/')
        ? 'a filter is a field name, or {"field": …, "values": "learn" | […]}'
        : 'must be "learn" or a list of values';
    default:
      return e.message ?? e.keyword;
  }
}

/**
 * The collections a collections file declares (not an OpenAPI document), checked; throws ConfigError naming every
 * mistake of the file at once: each entry the schema accepts is checked further even when another is refused.
 */
export function collectionsOfFile(parsed: ParsedFile): Collection[] {
  const { file } = compiled();
  const problems = file(parsed.value) ? [] : schemaProblems(file.errors ?? [], parsed);
  const declared = (parsed.value as { collections?: unknown } | null)?.collections;
  if (!Array.isArray(declared)) throw new ConfigError(problems);
  const refused = new Set((file.errors ?? []).map((e) => /^\/collections\/(\d+)(?:\/|$)/.exec(e.instancePath)?.[1]));
  const out: Collection[] = [];
  declared.forEach((d: DeclaredCollection, i) => {
    if (!refused.has(String(i))) out.push(resolveCollection(d, parsed, `/collections/${i}`, problems));
  });
  // Names are compared across every entry that has one, refused or not (a name of its own for one without).
  const names = declared.map((d: { name?: unknown } | null, i) => ({
    name: typeof d?.name === 'string' ? d.name : `\0${i}`,
  }));
  problems.push(...duplicates(names, parsed, (i) => `/collections/${i}/name`));
  if (problems.length > 0) throw new ConfigError(problems);
  return out;
}

/** Problems as `FILE line N (/pointer): …`, in the order of their lines (those without a line first, as found). */
export function inLineOrder(problems: readonly string[]): string[] {
  const line = (p: string) => Number(/^.*? line (\d+) \(/.exec(p)?.[1] ?? 0);
  return [...problems].sort((a, b) => line(a) - line(b));
}

/** What is wrong with an OpenAPI operation's `x-conformance` (the file format's extension schema); [] when nothing. */
export function extensionProblems(value: unknown, parsed: ParsedFile, pointer: string): string[] {
  const { extension } = compiled();
  return extension(value) ? [] : schemaProblems(extension.errors ?? [], parsed, pointer);
}

/** A declared collection with its defaults, checked beyond the schema; problems are added to `problems`. */
export function resolveCollection(
  d: DeclaredCollection,
  parsed: ParsedFile,
  pointer: string,
  problems: string[],
): Collection {
  const at = (p: string) => parsed.at(`${pointer}${p}`);
  const names = placeholders(d.path);
  const params = Object.fromEntries(Object.entries(d.params ?? {}).map(([k, v]) => [k, String(v)]));
  if (d.name === PAYMENTS_NAME || sameTemplate(d.path, PAYMENTS.path)) {
    problems.push(`${at('/name')}: payments is the spec's own collection, always checked first: declare only others`);
  }
  for (const name of names.filter((n) => n !== 'merchantId' && params[n] === undefined)) {
    problems.push(`${at('/path')}: the path parameter {${name}} has no value: give it one in "params"`);
  }
  for (const name of Object.keys(params).filter((n) => !names.includes(n))) {
    problems.push(`${at(`/params/${name}`)}: "${name}" is no parameter of the path ${d.path}`);
  }
  if (params.merchantId !== undefined) {
    problems.push(`${at('/params/merchantId')}: {merchantId} takes each configured merchant: give it no value`);
  }
  const merchantScoped = names.includes('merchantId');
  const scope = d.access?.scope ?? (merchantScoped ? 'merchant' : 'account');
  if (scope === 'merchant' && !merchantScoped) {
    problems.push(`${at('/access/scope')}: a merchant-scoped collection's path names {merchantId}`);
  }
  if (scope === 'account' && merchantScoped) {
    problems.push(`${at('/access/scope')}: an account-wide collection's path names no {merchantId}`);
  }
  const access: CollectionAccess = {
    scope,
    modes: d.access?.keys ?? ['test', 'live'],
    restrictedKey: (d.access?.restrictedKey as CollectionAccess['restrictedKey'] | undefined) ?? 'unknown',
  };
  const filters: CollectionFilter[] = (d.filters ?? []).map((f) =>
    typeof f === 'string'
      ? { field: f, values: 'learn' }
      : { field: f.field, values: Array.isArray(f.values) ? f.values.map(String) : 'learn' },
  );
  const sorts: CollectionSort[] = (d.sorts ?? []).map((s, i) => {
    if (s.collation !== undefined) problems.push(...collationProblems(s, at(`/sorts/${i}/collation`)));
    return { field: s.field, type: s.type, ...(s.collation ? { collation: s.collation } : {}) };
  });
  problems.push(
    ...duplicates(
      filters.map((f) => ({ name: f.field })),
      parsed,
      (i) => `${pointer}/filters/${i}`,
    ),
  );
  problems.push(
    ...duplicates(
      sorts.map((s) => ({ name: s.field })),
      parsed,
      (i) => `${pointer}/sorts/${i}/field`,
    ),
  );
  const { default: defaultLimit, max: maxLimit } = d.limits ?? {};
  if (defaultLimit !== undefined && maxLimit !== undefined && defaultLimit > maxLimit) {
    problems.push(`${at('/limits/default')}: the default limit ${defaultLimit} is over the maximum ${maxLimit}`);
  }
  return {
    name: d.name,
    path: d.path,
    params,
    access,
    filters,
    sorts,
    ...(defaultLimit !== undefined ? { defaultLimit } : {}),
    ...(maxLimit !== undefined ? { maxLimit } : {}),
    source: at(''),
  };
}

/** A collation is `codepoint` or a locale this Node's Intl knows, and only for a string field. */
function collationProblems(s: { type: SortType; collation?: string }, where: string): string[] {
  if (s.type !== 'string') return [`${where}: only a string field has a collation (this one is ${s.type})`];
  if (s.collation === 'codepoint') return [];
  try {
    if (Intl.Collator.supportedLocalesOf([s.collation as string]).length > 0) return [];
  } catch {
    // not a well-formed BCP 47 tag
  }
  return [`${where}: "${s.collation}" is neither "codepoint" nor a locale this Node knows (e.g. "en", "de-DE")`];
}

/** The same path template up to the names of its parameters. */
export const sameTemplate = (a: string, b: string) =>
  a.replace(/\{[^{}/]+\}/g, '{}').replace(/\/+$/, '') === b.replace(/\{[^{}/]+\}/g, '{}').replace(/\/+$/, '');

/** A problem for each name used twice. */
export function duplicates(
  items: Array<{ name: string }>,
  parsed: ParsedFile,
  pointer: (i: number) => string,
): string[] {
  const first = new Map<string, number>();
  const out: string[] = [];
  for (const [i, { name }] of items.entries()) {
    const before = first.get(name);
    if (before === undefined) first.set(name, i);
    else out.push(`${parsed.at(pointer(i))}: "${name}" is declared twice (first at ${parsed.at(pointer(before))})`);
  }
  return out;
}
