/**
 * The switchboard: every stage's hook interface composed into `FaultHooks` (what a fault may hook), and the
 * active faults' hooks compiled once at start into one section per stage module, so that each stage receives
 * only its own lists. Above the stages: they never import this module.
 */
import type { ArrivalHooks } from './arrival.ts';
import type { AuthHooks } from './auth.ts';
import type { AuthorizeHooks } from './authorize.ts';
import type { Board } from './hooks.ts';
import type { ParamsHooks } from './params.ts';
import type { QueryHooks } from './query.ts';
import type { RenderHooks } from './render.ts';
import type { RouteHooks } from './routes.ts';

/** Each stage module's hook interface, by the module's name. */
interface ModuleHooks {
  arrival: ArrivalHooks;
  routes: RouteHooks;
  auth: AuthHooks;
  authorize: AuthorizeHooks;
  params: ParamsHooks;
  query: QueryHooks;
  render: RenderHooks;
}
type HookModule = keyof ModuleHooks;

/** Every point where a fault may deviate. */
export interface FaultHooks
  extends ArrivalHooks,
    RouteHooks,
    AuthHooks,
    AuthorizeHooks,
    ParamsHooks,
    QueryHooks,
    RenderHooks {}

type HookPoint = keyof FaultHooks;

/** The active faults' hooks, one section per stage module: `board.auth` goes to auth.ts, and so on. */
export type Switchboard = { readonly [M in HookModule]: Board<ModuleHooks[M]> };

/** The stages of one request pass (server.ts), in order; `start` runs once when the mock starts. */
export const STAGES = ['start', 'arrival', 'route', 'auth', 'authorize', 'params', 'query', 'render'] as const;
type Stage = (typeof STAGES)[number];

/** The module whose hook interface declares a hook point. */
type ModuleOf<P extends HookPoint> = { [M in HookModule]: P extends keyof ModuleHooks[M] ? M : never }[HookModule];

/**
 * Every hook point in the order a request meets it: its stage, and the module that declares and runs it. Typed
 * against the hook interfaces, so a hook point missing here, named here but declared nowhere, or filed under
 * another module fails the typecheck.
 */
export const HOOK_STAGES = {
  keys: { stage: 'start', module: 'auth' },
  settings: { stage: 'start', module: 'params' },
  held: { stage: 'arrival', module: 'arrival' },
  route: { stage: 'route', module: 'routes' },
  method: { stage: 'route', module: 'routes' },
  beforeAuth: { stage: 'auth', module: 'auth' },
  unguarded: { stage: 'auth', module: 'auth' },
  missingKey: { stage: 'auth', module: 'auth' },
  alternateKey: { stage: 'auth', module: 'auth' },
  credentials: { stage: 'auth', module: 'auth' },
  matchKey: { stage: 'auth', module: 'auth' },
  auth: { stage: 'auth', module: 'auth' },
  access: { stage: 'authorize', module: 'authorize' },
  permission: { stage: 'authorize', module: 'authorize' },
  refused: { stage: 'authorize', module: 'authorize' },
  queryValue: { stage: 'params', module: 'params' },
  repeated: { stage: 'params', module: 'params' },
  oddParam: { stage: 'params', module: 'params' },
  oddStatus: { stage: 'params', module: 'params' },
  query: { stage: 'params', module: 'params' },
  plan: { stage: 'query', module: 'query' },
  rows: { stage: 'query', module: 'query' },
  slice: { stage: 'query', module: 'query' },
  page: { stage: 'query', module: 'query' },
  echo: { stage: 'query', module: 'query' },
  body: { stage: 'render', module: 'render' },
  error: { stage: 'render', module: 'render' },
  text: { stage: 'render', module: 'render' },
  headers: { stage: 'render', module: 'render' },
} as const satisfies { [P in HookPoint]: { stage: Stage; module: ModuleOf<P> } };

/** The hook points in request order (the key order of HOOK_STAGES). */
export const HOOK_POINTS = Object.keys(HOOK_STAGES) as readonly HookPoint[];

/** Collects the hooks of the active faults per point, in catalogue order, into their module's section. */
export function compileHooks(active: readonly FaultHooks[]): Switchboard {
  const board: Record<string, Record<string, unknown[]>> = {};
  for (const point of HOOK_POINTS) {
    const { module } = HOOK_STAGES[point];
    board[module] = {
      ...board[module],
      [point]: active.flatMap((hooks) => {
        const hook = hooks[point];
        return hook === undefined ? [] : [hook];
      }),
    };
  }
  return board as unknown as Switchboard;
}
