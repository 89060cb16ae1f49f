/**
 * The bundled mock asked the cases in-process: started on a free port with some variant values (and shapes), its
 * first pages read, every case asked, stopped. A calibration learns the mock this way, never the reference.
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Collection } from '../core/model/collection.ts';
import { loadCollections } from '../core/run/collections.ts';
import { describeVariants, type Shapes, startMock, VARIANT_DEFAULTS } from '../mock/index.ts';
import type { Case } from './cases.ts';
import { askAll, firstPages } from './run.ts';
import { type Answer, type Side, sideOf } from './targets.ts';

export type Choice = Record<string, string>;

export interface MockRun {
  /** The variant values that differ from the defaults. */
  variants: Choice;
  /** The path of the mock's base URL (a variant may serve it under a prefix). */
  basePath: string;
  answers: Map<string, Answer | string>;
  total: number;
  sent: number;
}

/** A choice without the values that are the defaults anyway. */
export const ownValues = (choice: Choice): Choice =>
  Object.fromEntries(
    Object.entries(choice).filter(([k, v]) => VARIANT_DEFAULTS[k as keyof typeof VARIANT_DEFAULTS] !== v),
  );

/** `name=value,…` of a choice's own values, or `defaults`. */
export const describeChoice = (choice: Choice): string =>
  Object.entries(ownValues(choice))
    .map(([k, v]) => `${k}=${v}`)
    .join(',') || 'defaults';

/** The mock's own declaration of the collections it serves beside payments (its example collections file). */
export async function mockCollections(): Promise<Collection[]> {
  for (const up of ['../examples/collections.json', '../../examples/collections.json']) {
    const file = fileURLToPath(new URL(up, import.meta.url));
    if (existsSync(file)) return (await loadCollections(file)).collections;
  }
  return [];
}

/** The mock's collections under the names a reference's cases use: the one of the same name, else of the same path. */
export function servedAs(reference: readonly Collection[], served: readonly Collection[]): Map<string, Collection> {
  const out = new Map<string, Collection>();
  for (const c of reference) {
    const match = served.find((m) => m.name === c.name) ?? served.find((m) => m.path === c.path);
    if (match) out.set(c.name, match);
  }
  return out;
}

/** The mock started with `choice` (and shapes), as a fidelity target named B. */
export async function withMock<T>(
  choice: Choice,
  opts: { shapes?: Shapes; collections: Map<string, Collection>; learn?: Side['learn'] },
  body: (side: Side, basePath: string) => Promise<T>,
): Promise<T> {
  const variants = Object.entries(choice).map(([k, v]) => `${k}=${v}`);
  const mock = await startMock({ port: 0, variants, shapes: opts.shapes });
  try {
    const label = `the bundled mock (${describeVariants(mock.variants)})`;
    const side = sideOf('B', label, { ...mock.env });
    side.collections = new Map(opts.collections);
    if (opts.learn) side.learn = opts.learn;
    return await body(side, new URL(mock.url).pathname.replace(/\/$/, ''));
  } finally {
    await mock.stop();
  }
}

/**
 * Runs already made in this process, by what decides their answers (the cases, the choice, the collections, what is
 * learnt): a search tries a choice once, and calibrations of one process share the mock's sweep.
 */
const made = new Map<string, Promise<MockRun>>();
const caseKeys = new WeakMap<readonly Case[], string>();
function casesKey(cases: readonly Case[]): string {
  const key = caseKeys.get(cases) ?? createHash('sha256').update(JSON.stringify(cases)).digest('hex');
  caseKeys.set(cases, key);
  return key;
}
const MADE_AT_MOST = 400;

/** Every case asked of the mock under `choice`. */
export function runMock(
  cases: readonly Case[],
  choice: Choice,
  opts: { shapes?: Shapes; collections: Map<string, Collection>; learn?: Side['learn'] },
): Promise<MockRun> {
  const what = JSON.stringify([
    casesKey(cases),
    ownValues(choice),
    opts.shapes ?? {},
    [...opts.collections],
    opts.learn,
  ]);
  const key = createHash('sha256').update(what).digest('hex');
  let run = made.get(key);
  if (!run) {
    if (made.size >= MADE_AT_MOST) made.clear();
    run = freshRun(cases, choice, opts);
    made.set(key, run);
    run.catch(() => made.delete(key));
  }
  return run;
}

async function freshRun(
  cases: readonly Case[],
  choice: Choice,
  opts: { shapes?: Shapes; collections: Map<string, Collection>; learn?: Side['learn'] },
): Promise<MockRun> {
  return withMock(choice, opts, async (side, basePath) => {
    const seen = await firstPages([side], () => {});
    if (!seen) throw new Error('the bundled mock did not answer its first page');
    const answers = await askAll(side, cases);
    return { variants: ownValues(choice), basePath, answers, total: side.totals.get('') ?? 0, sent: side.api.sent };
  });
}
