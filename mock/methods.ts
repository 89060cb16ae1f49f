/**
 * The methods besides GET (reading "Methods"), per the variants `head`, `options` and `method`. HEAD is served as
 * GET, its body dropped by Node's server (RFC 9110 §9.3.2), or refused 405 by the router before authentication.
 * OPTIONS is refused after authentication like any other method (auth-first), answered by CORS middleware before
 * authentication on every path (cors), or answered with Allow after it (allow). Any other method on a known path
 * gets 405 with Allow, or 404, after authentication.
 */
import { type Failure, MESSAGES, reject } from './errors.ts';
import type { RouteKind } from './hooks.ts';
import type { Variants } from './variants.ts';

type MethodVariants = Pick<Variants, 'head' | 'options' | 'method'>;

/** An OPTIONS answered with a 2xx: its status, its headers and a body (an Allow list as text, or none). */
export interface MethodsAnswer {
  kind: 'methods';
  status: 200 | 204;
  headers: Record<string, string>;
  body: string;
}

/** The methods the spec's paths serve, as `Allow` lists them (RFC 9110 §10.2.1). */
function allowedMethods(v: MethodVariants): string {
  return ['GET', ...(v.head === 'served' ? ['HEAD'] : []), ...(v.options === 'auth-first' ? [] : ['OPTIONS'])].join(
    ', ',
  );
}

/** What CORS middleware sends with every answer (cors), and with a pre-flight's. */
export const CORS_ORIGIN = { 'Access-Control-Allow-Origin': '*' } as const;

/** Before authentication: CORS middleware's pre-flight answer, or a router without a HEAD route. */
export function methodBeforeAuth(
  v: MethodVariants,
  method: string,
  route: RouteKind,
): MethodsAnswer | Failure | undefined {
  if (method === 'OPTIONS' && v.options === 'cors') {
    const allow = allowedMethods(v);
    return {
      kind: 'methods',
      status: 204,
      headers: {
        ...CORS_ORIGIN,
        'Access-Control-Allow-Methods': allow,
        'Access-Control-Allow-Headers': 'Authorization, Content-Type',
        'Access-Control-Max-Age': '600',
        Allow: allow,
      },
      body: '',
    };
  }
  if (method === 'HEAD' && v.head === 'refused' && route !== 'unknown') {
    return { ...reject(405, MESSAGES.methodNotAllowed), allow: allowedMethods(v) };
  }
  return undefined;
}

/** After authentication, on a path an endpoint serves: OPTIONS with Allow, or any other method but GET/HEAD refused. */
export function methodAfterAuth(v: MethodVariants, method: string): MethodsAnswer | Failure | undefined {
  if (method === 'GET' || method === 'HEAD') return undefined;
  if (method === 'OPTIONS' && v.options === 'allow') {
    // As Express answers OPTIONS on a route without a handler of its own: 200, Allow, the list as text.
    const allow = allowedMethods(v);
    return { kind: 'methods', status: 200, headers: { Allow: allow }, body: allow };
  }
  return v.method === '405'
    ? { ...reject(405, MESSAGES.methodNotAllowed), allow: allowedMethods(v) }
    : reject(404, MESSAGES.notFound);
}
