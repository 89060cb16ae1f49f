/**
 * Misbehaving targets for the secrets canary. Each one answers the reachability probe, then misbehaves:
 * - echo: reflects the Authorization header into bodies (200, 401, 500) and into response headers, as is and in
 *   encodings of the suite's table (core/model/key-forms.ts: hex, Base32, HTML character references, percent-encoded
 *   twice), so that the scan of what the suite wrote proves the redaction of each;
 * - garbage: non-JSON bodies, odd statuses, the header reflected inside the garbage;
 * - hang: never answers a payments request.
 * (A correct target whose data grows under the suite is the bundled mock with MockOptions.grow: tests/e2e/changing-data.ts.)
 * `seenKeys` counts requests that carried an Authorization header, so a canary run can prove keys were sent.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { base32 } from '@scure/base';

export type HostileKind = 'echo' | 'garbage' | 'hang';

export interface HostileTarget {
  url: string;
  stop(): Promise<void>;
  stats: { requests: number; withAuthorization: number; echoed: number };
}

export async function startHostileTarget(kind: HostileKind): Promise<HostileTarget> {
  const stats = { requests: 0, withAuthorization: 0, echoed: 0 };
  const server: Server = createServer((req, res) => {
    stats.requests += 1;
    const auth = req.headers.authorization ?? '';
    if (auth) stats.withAuthorization += 1;
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname === '/merchant/status' && !auth) {
      res.writeHead(401, { 'content-type': 'application/json' }).end('{"success":false,"message":"no key"}');
      return;
    }
    if (kind === 'hang' && url.pathname !== '/merchant/status') return; // never answers
    if (auth) stats.echoed += 1;
    const n = Number(url.searchParams.get('offset') ?? 0);
    if (kind === 'echo') {
      const bytes = [...Buffer.from(auth)];
      res.setHeader('x-echo-authorization', auth);
      res.setHeader('x-echo-hex', Buffer.from(auth).toString('hex'));
      res.setHeader('link', `</help?auth=${bytes.map((b) => `%25${b.toString(16).padStart(2, '0')}`).join('')}>`);
      if (n % 3 === 1) {
        const html = bytes.map((b) => `&#${b};`).join('');
        res
          .writeHead(401, { 'content-type': 'application/json' })
          .end(JSON.stringify({ message: `invalid key ${auth}`, html: `<code>${html}</code>` }));
      } else if (n % 3 === 2) {
        res.writeHead(500, { 'content-type': 'text/plain' }).end(`Error: boom\n    at handler (authorization=${auth})`);
      } else {
        const data = [{ id: 'p1', status: 'COMPLETED', amount: 5, owner: auth }];
        res.writeHead(200, { 'content-type': 'application/json' }).end(
          JSON.stringify({
            success: true,
            message: `hello ${auth}`,
            data,
            offset: 0,
            limit: 3,
            total: 99,
            key: auth,
            trace: base32.encode(Buffer.from(auth)),
          }),
        );
      }
      return;
    }
    // garbage
    const statuses = [200, 200, 418, 502, 401];
    res.writeHead(statuses[stats.requests % statuses.length] as number, { 'content-type': 'application/json' });
    res.end(`<<not json>> ${auth} ${'\u0000'.repeat(3)} {"data": [`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    stats,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A loopback port with nothing listening (bound, then released). */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
