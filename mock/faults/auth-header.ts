/**
 * Faults of the Authorization header's parser (§5.1; reading: the credential is the exact issued key after the scheme
 * and its whitespace, and nothing else): a parser that finds the key inside a header that carries more than the key.
 * Each is a real way of reading the header wrong; the suite's header grammar (core/generate/auth-header.ts) must
 * catch each with AUTH-INVALID.
 */
import { splitCredentials } from '../auth.ts';
import { type Fault, fault } from './fault.ts';

const isBearer = (scheme: string) => scheme.toLowerCase() === 'bearer';
/** The token cut at the first `;` or `,`: what a parser of auth-params keeps of `<key>;realm=x` or `<key>, …`. */
const beforeParams = (token: string) => (token.split(/[;,]/)[0] as string).trim();

export const AUTH_HEADER_FAULTS: readonly Fault[] = [
  fault(
    'auth-first-word',
    'AUTH-INVALID',
    'the token is the first word after a Bearer scheme: "Bearer <key> junk" is the key',
    { credentials: (c) => (isBearer(c.scheme) ? c.token.split(/[ \t]/)[0] : undefined) },
  ),
  fault(
    'auth-last-credential',
    'AUTH-INVALID',
    'the header is read as a comma-separated list of credentials and the last one is used: "Bearer junk, Bearer <key>" is the key',
    {
      credentials: (c) => {
        const parts = `${c.scheme}${c.gap}${c.token}`.split(',');
        if (parts.length < 2) return undefined;
        const last = splitCredentials(parts.at(-1) as string);
        return isBearer(last.scheme) && !/\s/.test(last.token) ? last.token : undefined;
      },
    },
  ),
  fault(
    'auth-quotes-stripped',
    'AUTH-INVALID',
    "double quotes around the token are taken off, as from an auth-param's quoted string: 'Bearer \"<key>\"' is the key",
    {
      matchKey: (t, keys) => {
        const inner = /^"(.*)"$/.exec(t)?.[1];
        return inner === undefined ? undefined : keys.find((k) => k.secret === inner);
      },
    },
  ),
  fault(
    'auth-params-cut',
    'AUTH-INVALID',
    'the token ends at the first ";" or ",", the rest read as parameters: "Bearer <key>;realm=x" and "Bearer <key>, …" are the key',
    {
      // Both ways into the key: a token without whitespace matched no key (matchKey), one with whitespace is no
      // Bearer token at all (credentials).
      matchKey: (t, keys) => (/[;,]/.test(t) ? keys.find((k) => k.secret === beforeParams(t)) : undefined),
      credentials: (c) => (isBearer(c.scheme) && /[;,]/.test(c.token) ? beforeParams(c.token) : undefined),
    },
  ),
];
