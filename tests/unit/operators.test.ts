/**
 * Mutations from operators (core/generate/operators.ts): the deterministic core meets every operator, position and
 * character class; a key's mutation rebuilds itself in shell from the variable alone; a merchant id's goes on the
 * wire as written; and an operator finds defects the grammar tables (key-mutations.ts, auth-header.ts) do not list.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { describe, test } from 'node:test';
import { ApiClient } from '../../core/client/http.ts';
import { arounds } from '../../core/generate/auth-header.ts';
import { keyMutations } from '../../core/generate/key-mutations.ts';
import {
  CHAR_CLASSES,
  KEY_CORE,
  keyOperatorMutation,
  MERCHANT_CORE,
  merchantOperatorSegment,
} from '../../core/generate/operators.ts';
import { isSentAsWritten, spelledPaymentsPath } from '../../core/generate/spelled-ids.ts';
import { type Auth, asKey } from '../../core/model/credentials.ts';
import { paymentsPath, STATUS_PATH } from '../../core/model/listing.ts';
import { startMock } from '../../mock/index.ts';
import { testTarget } from '../support/target.ts';

const KEYS = ['sk_test_MOCKsandboxKEY0a1b2c3d4e5f6', 'sk_live_4eC39HqLyjWDarjtT1zdp7dc', 'sk_test_Z9'];

/** A shell form evaluated where a curl line puts it (in double quotes), its bytes read as the header carries them. */
const evalShell = (form: string, key: string) =>
  execFileSync('sh', ['-c', `printf %s "${form}"`], { env: { PATH: process.env.PATH, K: key }, encoding: 'latin1' });

describe('operators: the deterministic core', () => {
  test('meets every operator, every position class and every character class', () => {
    const core = [...KEY_CORE, ...MERCHANT_CORE];
    assert.deepEqual(new Set(core.map((o) => o.op)), new Set(['insert', 'replace', 'repeat as a list', 'encode']));
    const at = new Set(core.flatMap((o) => ('at' in o ? [o.at] : [])));
    for (const p of ['start', 'after the prefix', 'middle', 'end', 'in the prefix', 'the random part'])
      assert.ok(at.has(p as never), p);
    const classes = new Set(core.flatMap((o) => (o.op === 'insert' ? [o.klass] : [])));
    assert.deepEqual(classes, new Set(Object.keys(CHAR_CLASSES)));
  });

  test('a key mutation is another string, rebuilt in shell from the variable, showing none of its characters', () => {
    for (const key of KEYS) {
      for (const op of KEY_CORE) {
        const m = keyOperatorMutation(op, key);
        if (!m) continue;
        assert.notEqual(m.apply(key), key);
        assert.equal(evalShell(m.shell('$K'), key), m.apply(key), `${m.name} of ${key.length} chars`);
        assert.ok(!m.shell('$K').includes(key.slice(8, 14)), m.name);
      }
    }
  });

  test('a merchant id mutation goes on the wire as written', () => {
    for (const op of MERCHANT_CORE) {
      const s = merchantOperatorSegment(op, 'msb_7Hq2sandbox01');
      assert.ok(s, JSON.stringify(op));
      assert.ok(isSentAsWritten(spelledPaymentsPath(s.segment)), s.name);
    }
  });
});

describe('an operator finds a defect the tables do not list', () => {
  for (const fault of ['key-list-accepted', 'status-accepts-key-shape']) {
    test(fault, async () => {
      const mock = await startMock({ port: 0, faults: [fault] });
      try {
        const env = mock.env as unknown as Record<string, string>;
        const t = testTarget({ baseURL: mock.url, keys: { test: env.API_TEST_KEY as string }, maxRequests: 500 });
        const api = new ApiClient(t);
        const served = async (auths: Auth[]) => {
          let n = 0;
          for (const auth of auths) {
            for (const path of [STATUS_PATH, paymentsPath(env.SANDBOX_MERCHANT_ID as string)]) {
              if ((await api.get(path, { auth })).status < 300) n += 1;
            }
          }
          return n;
        };
        const tables: Auth[] = [
          ...keyMutations(t.keys.test).map((mutation) => asKey('test', { mutation })),
          ...arounds('test').map((around) => asKey('test', { around })),
        ];
        assert.equal(await served(tables), 0, 'no mutation or header of the tables is served');
        const operators = KEY_CORE.flatMap((op) => {
          const mutation = keyOperatorMutation(op, t.keys.test);
          return mutation ? [asKey('test', { mutation })] : [];
        });
        assert.ok((await served(operators)) > 0, 'an operator is served: the defect found');
        await api.close();
      } finally {
        await mock.stop();
      }
    });
  }
});
