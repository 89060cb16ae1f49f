/**
 * The two wires of fixtures/transport.ts (direct: node:http(s); proxy: undici's EnvHttpProxyAgent through a real
 * proxy) keep one contract: the request line as built, status, headers (repeated ones joined), body, the 5 MB cap,
 * the deadline, a refused connection and an untrusted certificate, each described the same way.
 */
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { createProxy } from 'proxy';
import { asWritten, createWire, describeTransport, isPermanent, type Wire } from '../../core/client/transport.ts';
import { startMock } from '../../mock/index.ts';
import { closedPort } from '../support/hostile-targets.ts';

const listen = async (server: Server) => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
};

let origin = '';
let proxyURL = '';
const seen: string[] = [];
const server = createServer((req: IncomingMessage, res) => {
  seen.push(req.url ?? '');
  if (req.url === '/hang') return; // never answers
  if (req.url === '/big') {
    res.writeHead(200, { 'content-type': 'text/plain' });
    const chunk = 'x'.repeat(1024 * 1024);
    for (let i = 0; i < 6; i++) res.write(chunk);
    res.end();
    return;
  }
  res.setHeader('x-twice', ['a', 'b']);
  res.setHeader('location', ['/one', '/two']); // node:http's parser keeps only the first of these
  res.writeHead(418, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ url: req.url, auth: req.headers.authorization ?? null }));
});
const proxy = createProxy(createServer());

before(async () => {
  origin = await listen(server);
  proxyURL = await listen(proxy);
});
after(() => {
  server.close();
  proxy.close();
});

const wires: Array<[string, () => Wire]> = [
  ['direct', () => createWire(500, {})],
  ['proxy', () => createWire(500, { HTTP_PROXY: proxyURL })],
];

for (const [name, make] of wires) {
  describe(`the ${name} wire`, () => {
    test('is the one asked for', async () => {
      const wire = make();
      assert.equal(wire.kind, name);
      await wire.close();
    });

    test('sends the request target as built, and returns status, headers and body', async () => {
      const wire = make();
      try {
        for (const path of ['/a//b/%2F/c?x=1&x=%20&y', '/payments?limit=100']) {
          const res = await wire.send('GET', `${origin}${path}`, { authorization: 'Bearer t0ken' });
          assert.equal(res.status, 418);
          assert.equal(res.headers['x-twice'], 'a, b');
          assert.equal(res.headers.location, '/one, /two');
          assert.equal(res.headers['content-type'], 'application/json');
          assert.deepEqual(JSON.parse(res.text), { url: path, auth: 'Bearer t0ken' });
        }
      } finally {
        await wire.close();
      }
    });

    test('reads at most 5 MB of a body', async () => {
      const wire = make();
      try {
        const res = await wire.send('GET', `${origin}/big`, {});
        assert.equal(res.status, 200);
        assert.ok(res.text.length <= 5 * 1024 * 1024, `read ${res.text.length} characters`);
        assert.ok(res.text.length >= 4 * 1024 * 1024);
      } finally {
        await wire.close();
      }
    });

    test('a target that does not answer: "no answer before API_TIMEOUT_MS", within the deadline', async () => {
      const wire = make();
      const started = performance.now();
      try {
        await assert.rejects(wire.send('GET', `${origin}/hang`, {}), (error: unknown) => {
          assert.match(describeTransport(error), /^no answer before API_TIMEOUT_MS/);
          assert.equal(isPermanent(error), false);
          return true;
        });
        assert.ok(performance.now() - started < 2000);
      } finally {
        await wire.close();
      }
    });
  });
}

test('a refused connection (direct) names the target', async () => {
  const wire = createWire(500, {});
  await assert.rejects(wire.send('GET', `http://127.0.0.1:${await closedPort()}/x`, {}), (error: unknown) => {
    assert.equal(describeTransport(error), 'connection refused (is the target running?)');
    return true;
  });
});

test('an untrusted certificate (direct and through the proxy): permanent, and the message names NODE_EXTRA_CA_CERTS', async () => {
  const mock = await startMock({ port: 0, tls: true });
  try {
    for (const env of [{}, { HTTPS_PROXY: proxyURL }]) {
      const wire = createWire(2000, env);
      await assert.rejects(wire.send('GET', `${mock.url}/merchant/status`, {}), (error: unknown) => {
        assert.equal(isPermanent(error), true, JSON.stringify(env));
        assert.match(describeTransport(error), /set NODE_EXTRA_CA_CERTS/);
        return true;
      });
      await wire.close();
    }
  } finally {
    await mock.stop();
  }
});

test('a path the suite wrote in printable ASCII goes as written (a dot segment too); anything else as WHATWG URL writes it', () => {
  assert.equal(asWritten('http://127.0.0.1:3410/merchant/./status'), '/merchant/./status');
  assert.equal(
    asWritten('https://h.example/api/v2/merchant/status;v=1?limit=5'),
    '/api/v2/merchant/status;v=1?limit=5',
  );
  assert.equal(asWritten('http://h.example'), '/');
  assert.equal(asWritten('http://h.example/a b'), undefined, 'a space: WHATWG URL encodes it');
  assert.equal(asWritten('http://h.example/caf\u00e9'), undefined, 'non-ASCII: WHATWG URL encodes it');
  assert.equal(asWritten('http://h.example/a#b'), undefined, 'a fragment is never sent');
});
