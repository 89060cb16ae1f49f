/**
 * Whether two answers differ beyond what echoes the request (the door checks' batches, core/run/doors.ts): an answer
 * is its status, every field of its JSON body (or its text) and its headers, flattened to paths; what echoes the
 * request — ids and timestamps that differ between two answers to the same request, fields that quote the request's
 * own query — is learned by differential requests, as parameter-discovery tools learn it (Arjun): the plain request
 * twice, and once with a random parameter nobody knows. A path that moved there is ignored, any array index alike.
 */

/** An answer flattened: its status, and a value for each path of its body and headers. */
export interface AnswerShape {
  status: number;
  fields: ReadonlyMap<string, string>;
}

/** What two answers to one request may differ in: paths (array indices as `*`) that echo or change by themselves. */
export interface EchoModel {
  ignored: ReadonlySet<string>;
}

/** HTTP's own headers, which say nothing of what an answer shows. */
const FRAMING = /^(date|content-length|connection|keep-alive|transfer-encoding|age|expires|last-modified|etag)$/;

/** `data.3.id` → `data.*.id`: a path with its array indices generalised. */
const general = (path: string) => path.replace(/(^|\.)\d+(?=\.|$)/g, '$1*');

function flatten(value: unknown, path: string, into: Map<string, string>): void {
  if (into.size >= 5000) return;
  if (Array.isArray(value)) {
    into.set(`${path}#length`, String(value.length));
    for (const [i, v] of value.entries()) flatten(v, path ? `${path}.${i}` : String(i), into);
  } else if (typeof value === 'object' && value !== null) {
    for (const [k, v] of Object.entries(value)) flatten(v, path ? `${path}.${k}` : k, into);
  } else into.set(path || '$', JSON.stringify(value));
}

/** The shape of an answer. */
export function shapeOf(a: {
  status: number;
  headers: Readonly<Record<string, string>>;
  text: string;
  json: unknown;
}): AnswerShape {
  const fields = new Map<string, string>();
  if (a.json !== undefined) flatten(a.json, 'body', fields);
  else if (a.text !== '') fields.set('body#text', a.text);
  for (const [name, value] of Object.entries(a.headers)) if (!FRAMING.test(name)) fields.set(`header.${name}`, value);
  return { status: a.status, fields };
}

/** The paths (generalised) where two shapes differ: a value changed, or a path one of them lacks. */
function differences(a: AnswerShape, b: AnswerShape): Set<string> {
  const out = new Set<string>();
  for (const [k, v] of a.fields) if (b.fields.get(k) !== v) out.add(general(k));
  for (const k of b.fields.keys()) if (!a.fields.has(k)) out.add(general(k));
  return out;
}

/**
 * What the plain request's answer may differ in, learned from it twice (`plain`, `again`: what moves by itself) and
 * once with a random parameter (`inert`: what quotes the query). An `inert` answer of another status learns nothing
 * of the echo (a server that refuses what it does not know).
 */
export function learnEcho(plain: AnswerShape, again: AnswerShape, inert: AnswerShape): EchoModel {
  const ignored = differences(plain, again);
  if (inert.status === plain.status) for (const d of differences(plain, inert)) ignored.add(d);
  return { ignored };
}

/**
 * Whether `b` is `a` but for what echoes: the same status, and every path that differs one the echo model ignores, or
 * a string that holds one of `echoed` (the request's own names and values of 6 characters or more).
 */
export function sameAnswer(a: AnswerShape, b: AnswerShape, echo: EchoModel, echoed: readonly string[] = []): boolean {
  if (a.status !== b.status) return false;
  const quotes = echoed.filter((s) => s.length >= 6);
  const echoes = (path: string) => {
    const v = b.fields.get(path) ?? '';
    return quotes.some((q) => v.includes(q));
  };
  for (const [k, v] of a.fields) {
    if (b.fields.get(k) === v || echo.ignored.has(general(k))) continue;
    if (!echoes(k)) return false;
  }
  for (const k of b.fields.keys()) if (!a.fields.has(k) && !echo.ignored.has(general(k)) && !echoes(k)) return false;
  return true;
}
