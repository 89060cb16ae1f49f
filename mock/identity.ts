/**
 * The mock's identity (keys, merchants, seed, ports, limits), read from the one fixture that names it.
 * Every other module takes these values from here; none repeats them.
 */
import fixture from './identity.json' with { type: 'json' };

interface MockIdentity {
  seed: number;
  host: string;
  conformancePort: number;
  mockPort: number;
  keys: { test: string; live: string; restricted: string; revoked: string };
  merchants: { sandbox: string; live: string; otherSandbox: string };
  defaultLimit: number;
  maxLimit: number;
}

export const IDENTITY: Readonly<MockIdentity> = fixture;
