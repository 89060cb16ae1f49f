/**
 * Shapes learned from the reference's answers where it differs from the calibrated mock in the look of an answer, not
 * its logic (mock/shapes.ts): each refusal's body, media type and headers, by the status and the kind of failure the
 * mock answers the same case with; the status endpoint's body (its mode spelt the reference's way); the envelope's
 * extra fields; headers on every answer. The answers' skeletons (skeleton.ts) are merged: what every answer shows
 * alike stays as written, what only the request or the page decides becomes a placeholder, what varies otherwise
 * becomes the mock's own value (its message, a request number).
 */
import type { ErrorShape, Shapes, Template, Values } from '../mock/index.ts';
import type { Case } from './cases.ts';
import type { Features } from './features.ts';
import type { MockRun } from './mock-runs.ts';
import type { AnswerShape, Skeleton } from './skeleton.ts';
import type { Answer } from './targets.ts';

type Leaf = Extract<Skeleton, { t: 'leaf' }>;
type Fallback = (leaves: Leaf[]) => Template;

/** A refusal's leaf that varies: the mock's message for a string, its request number for a number. */
const errorFallback: Fallback = ([first]) =>
  typeof first?.v === 'string' ? '{{message}}' : typeof first?.v === 'number' ? '{{requestNo}}' : (first?.v ?? null);
/** An envelope field that varies: the first answer's value (scrubbed), a secret one none. */
const firstValue: Fallback = ([first]) => (first?.secret ? null : (first?.v ?? null));
/** A header that varies: a number as the first answer's, anything else the mock's request id. */
const headerFallback: Fallback = (leaves) =>
  leaves.every((l) => /^\d+$/.test(String(l.v))) ? String(leaves[0]?.v) : '{{requestId}}';

const majority = <T>(items: readonly T[]): T | undefined => {
  const counts = new Map<string, [T, number]>();
  for (const x of items) {
    const k = JSON.stringify(x);
    counts.set(k, [x, (counts.get(k)?.[1] ?? 0) + 1]);
  }
  return [...counts.values()].sort((a, b) => b[1] - a[1])[0]?.[0];
};

const erase = (text: string, names: readonly string[]) => names.reduce((t, n) => t.split(`{{${n}}}`).join(''), text);

/**
 * A text of placeholders that reads as the answers' own (`{{path}}{{query}}` is `{{path}}` where there was no query):
 * of the answers' texts, the one most answers show once their empty placeholders are taken out (more than half of
 * them; a target that echoes a value on some paths only is still read by its rule), then the one with most
 * placeholders.
 */
function placeholdersFit(leaves: readonly Leaf[]): string | undefined {
  const texts = leaves.map((l) => l.v);
  if (!texts.every((v): v is string => typeof v === 'string') || new Set(texts).size < 2) return undefined;
  const fits = (t: string) =>
    leaves.filter((l) => erase(t, l.empty ?? []) === erase(l.v as string, l.empty ?? [])).length;
  const count = (t: string) => t.split('{{').length;
  const ranked = [...new Set(texts.filter((t) => t.includes('{{')))]
    .map((t) => ({ t, n: fits(t) }))
    .sort((a, b) => b.n - a.n || count(b.t) - count(a.t));
  return ranked[0] && ranked[0].n * 2 > leaves.length ? ranked[0].t : undefined;
}

/** The skeletons of several answers merged into one template. */
export function merge(skeletons: readonly Skeleton[], fallback: Fallback): Template {
  const kind = majority(skeletons.map((s) => s.t));
  const same = skeletons.filter((s) => s.t === kind);
  if (kind === 'obj') {
    const objs = same as Array<Extract<Skeleton, { t: 'obj' }>>;
    const names = [...new Set(objs.flatMap((o) => Object.keys(o.fields)))];
    const kept = names.filter((n) => objs.filter((o) => n in o.fields).length * 2 > objs.length);
    return Object.fromEntries(
      kept.map((n) => [
        n,
        merge(
          objs.flatMap((o) => (o.fields[n] ? [o.fields[n]] : [])),
          fallback,
        ),
      ]),
    );
  }
  if (kind === 'list') {
    const items = (same as Array<Extract<Skeleton, { t: 'list' }>>).flatMap((l) => l.items);
    return items.length ? [merge(items, fallback)] : [];
  }
  const leaves = same as Leaf[];
  const written = placeholdersFit(leaves);
  if (written !== undefined) return written;
  const could = leaves.reduce<string[] | undefined>(
    (acc, l) => (acc === undefined ? [...(l.could ?? [])] : acc.filter((x) => l.could?.includes(x))),
    undefined,
  );
  if (could?.length) return could[0] as string;
  if (leaves.some((l) => l.secret) || new Set(leaves.map((l) => JSON.stringify(l.v))).size > 1) return fallback(leaves);
  return leaves[0]?.v ?? null;
}

/** Header templates for the names every shape carries (minus `except`). */
function mergeHeaders(shapes: readonly AnswerShape[], except: ReadonlySet<string>): Record<string, string> {
  const names = Object.keys(shapes[0]?.headers ?? {}).filter(
    (n) => !except.has(n) && shapes.every((s) => n in s.headers),
  );
  return Object.fromEntries(
    names.map((n) => [
      n,
      String(
        merge(
          shapes.map((s) => s.headers[n] as Skeleton),
          headerFallback,
        ),
      ),
    ]),
  );
}

/** A body shape from answers: the media type most of them have, and their bodies of that type merged. */
function bodyOf(shapes: readonly AnswerShape[], fallback: Fallback): { type?: string; body?: Template } {
  const type = majority(shapes.map((s) => s.type ?? ''));
  const bodies = shapes.filter((s) => (s.type ?? '') === type && s.body).map((s) => s.body as Skeleton);
  return type && bodies.length ? { type, body: merge(bodies, fallback) } : {};
}

interface Pair {
  c: Case;
  a: Answer & { shape: AnswerShape };
  /** The calibrated mock's answer (its features), and its failure kind where it refused alike. */
  m?: Answer;
  kind?: string;
}

/** Whether two answers' features of these kinds agree (`except`: features the mock gets elsewhere, as a header learned
 * for every answer). */
const looksAlike = (a: Features, m: Features | undefined, prefixes: readonly string[], except = new Set<string>()) =>
  !!m &&
  [...new Set([...Object.keys(a), ...Object.keys(m)])]
    .filter((k) => prefixes.some((p) => k === p || k.startsWith(`${p} `)) && !except.has(k))
    .every((k) => a[k] === m[k]);

/** Error shapes by status and kind where the mock's refusals do not look like the reference's. */
function errorShapes(pairs: readonly Pair[], every: ReadonlySet<string>): ErrorShape[] {
  const errors = pairs.filter((p) => p.a.shape.kind === 'error' && !p.a.request.startsWith('HEAD'));
  const learned = new Set([...every].map((h) => `header ${h}`));
  const unlike = (p: Pair) => !looksAlike(p.a.features, p.m?.features, ['code', 'media', 'body', 'header'], learned);
  if (!errors.some(unlike)) return [];
  const entry = (ps: readonly Pair[]): ErrorShape => ({
    ...bodyOf(
      ps.map((p) => p.a.shape),
      errorFallback,
    ),
    headers: mergeHeaders(
      ps.map((p) => p.a.shape),
      every,
    ),
  });
  const out: ErrorShape[] = [];
  for (const status of [...new Set(errors.map((p) => p.a.shape.status))].sort()) {
    const mine = errors.filter((p) => p.a.shape.status === status);
    const kinds = [...new Set(mine.flatMap((p) => (p.kind ? [p.kind] : [])))];
    const byKind = kinds
      .map((k) => ({ k, ps: mine.filter((p) => p.kind === k) }))
      .filter(({ ps }) => ps.some(unlike))
      .map(({ k, ps }) => ({ status, kinds: [k], ...entry(ps) }));
    const whole = { status, ...entry(mine) };
    const oneLook = byKind.every((e) => JSON.stringify({ ...e, kinds: undefined }) === JSON.stringify(whole));
    if (mine.every(unlike)) out.push(...(oneLook ? [] : byKind), whole);
    else out.push(...byKind);
  }
  if (errors.every(unlike)) out.push(entry(errors));
  return out;
}

type Modes = { test: Values; live: Values };

/**
 * Where a test-mode and a live-mode template differ, a placeholder (`{{mode}}`, `{{mode2}}`, …) whose value each mode
 * gives: a whole value (`livemode: false`), or the part of a text that differs (`API key accepted (sandbox mode)`).
 */
function modeOf(test: Template, live: Template, modes: Modes): Template {
  const name = () => `mode${Object.keys(modes.test).length ? Object.keys(modes.test).length + 1 : ''}`;
  if (typeof test === 'string' && typeof live === 'string' && test !== live) {
    let [i, j] = [0, 0];
    while (i < Math.min(test.length, live.length) && test[i] === live[i]) i++;
    while (j < Math.min(test.length, live.length) - i && test.at(-1 - j) === live.at(-1 - j)) j++;
    const n = name();
    modes.test[n] = test.slice(i, test.length - j);
    modes.live[n] = live.slice(i, live.length - j);
    return `${test.slice(0, i)}{{${n}}}${test.slice(test.length - j)}`;
  }
  if (test && live && typeof test === 'object' && typeof live === 'object' && !Array.isArray(test)) {
    const l = live as Record<string, Template>;
    return Object.fromEntries(
      Object.entries(test).map(([k, v]) => [k, k in l ? modeOf(v, l[k] as Template, modes) : v]),
    );
  }
  if (test !== live && typeof test !== 'object' && typeof test === typeof live) {
    const n = name();
    modes.test[n] = test;
    modes.live[n] = live as typeof test;
    return `{{${n}}}`;
  }
  return test;
}

/** The status endpoint's body where the mock's does not look like the reference's. */
function statusShape(pairs: readonly Pair[]): Shapes['status'] {
  const mine = pairs.filter((p) => p.a.shape.kind === 'status' && !p.a.request.startsWith('HEAD'));
  if (mine.every((p) => looksAlike(p.a.features, p.m?.features, ['media', 'body']))) return undefined;
  const [test, live] = (['test', 'live'] as const).map((mode) =>
    bodyOf(
      mine.filter((p) => p.a.shape.mode === mode).map((p) => p.a.shape),
      errorFallback,
    ),
  );
  if (!test?.type) return undefined;
  const modes: Modes = { test: {}, live: {} };
  const body = live?.body !== undefined ? modeOf(test.body ?? null, live.body, modes) : test.body;
  return { type: test.type, body, ...(Object.keys(modes.test).length ? { modes } : {}) };
}

/** The envelope's extra fields the reference sends and the mock does not. */
function envelopeShape(pairs: readonly Pair[]): Shapes['envelope'] {
  const lists = pairs.filter((p) => p.a.shape.kind === 'list' && p.a.shape.body?.t === 'obj');
  const extra = (f: Features | undefined) =>
    Object.keys(f ?? {})
      .filter((k) => k.startsWith('envelope '))
      .map((k) => k.slice(9));
  const names = [...new Set(lists.flatMap((p) => extra(p.a.features)))].filter(
    (n) =>
      lists.filter((p) => extra(p.a.features).includes(n)).length * 2 > lists.length &&
      !lists.some((p) => extra(p.m?.features).includes(n)),
  );
  if (names.length === 0) return undefined;
  const field = (n: string) =>
    lists.flatMap((p) => {
      const b = p.a.shape.body as Extract<Skeleton, { t: 'obj' }>;
      return b.fields[n] ? [b.fields[n]] : [];
    });
  return Object.fromEntries(names.map((n) => [n, merge(field(n), firstValue)]));
}

/** Headers the reference sends on every answer and the mock does not. */
function everyHeaders(pairs: readonly Pair[]): Record<string, string> {
  const shapes = pairs.map((p) => p.a.shape);
  const names = Object.keys(shapes[0]?.headers ?? {}).filter((n) => shapes.every((s) => n in s.headers));
  const missing = new Set(names.filter((n) => !pairs.every((p) => p.m?.features[`header ${n}`] === 'sent')));
  const sent = new Set(names.filter((n) => !missing.has(n)));
  return mergeHeaders(shapes, sent);
}

/**
 * The reference's names for the mock's payment statuses it does not know: its own statuses the mock lacks, most
 * frequent first, given to the mock's it lacks, in the mock's order (most frequent first).
 */
export function statusNames(
  reference: Readonly<Record<string, number>>,
  mine: readonly string[],
): Record<string, string> {
  const theirs = Object.entries(reference)
    .filter(([s]) => !mine.includes(s))
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .map(([s]) => s);
  const unknown = mine.filter((s) => !(s in reference));
  return Object.fromEntries(unknown.slice(0, theirs.length).map((s, i) => [s, theirs[i] as string]));
}

/**
 * The shapes of the reference the calibrated mock lacks: `best` its answers, `kinds` its failure kinds; `statuses`
 * the payment statuses the reference showed (with their counts), against the mock's own.
 */
export function learnShapes(
  cases: readonly Case[],
  ref: ReadonlyMap<string, Answer | string>,
  runs: { best: MockRun; kinds: MockRun },
  statuses: { reference: Readonly<Record<string, number>>; mock: readonly string[] },
): Shapes {
  const { best, kinds } = runs;
  const pairs: Pair[] = cases.flatMap((c) => {
    const a = ref.get(c.id);
    if (!a || typeof a === 'string' || !a.shape) return [];
    const m = best.answers.get(c.id);
    const k = kinds.answers.get(c.id);
    const kind = k && typeof k !== 'string' && k.features.code === a.features.code ? k.kind : undefined;
    return [{ c, a: a as Pair['a'], ...(m && typeof m !== 'string' ? { m } : {}), ...(kind ? { kind } : {}) }];
  });
  const headers = everyHeaders(pairs);
  const errors = errorShapes(pairs, new Set(Object.keys(headers)));
  const status = statusShape(pairs);
  const envelope = envelopeShape(pairs);
  const names = statusNames(statuses.reference, statuses.mock);
  return {
    ...(Object.keys(names).length ? { statuses: names } : {}),
    ...(errors.length ? { errors } : {}),
    ...(status ? { status } : {}),
    ...(envelope ? { envelope } : {}),
    ...(Object.keys(headers).length ? { headers } : {}),
  };
}
