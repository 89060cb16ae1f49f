import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { deflateRawSync } from 'node:zlib';
import { base32 } from '@scure/base';
import { views } from '../../core/model/key-forms.ts';
import { type Hit, KEY_SHAPE, leakForms, scanPaths, unzip } from '../support/scan.ts';
import { dealt, scanInParts } from '../support/scan-parts.ts';

// 31 characters: not a multiple of 3, so the Base64 of `key` is not a prefix of the Base64 of `key:`.
const KEY = 'sk_test_CANARYq7Z3xW9vB2nM5kL8pQ';
const OTHER = 'sk_live_OTHERcanary0a1B2c3D4e5F6';
const HASH = KEY.slice('sk_test_'.length);
const b64 = (s: string | Buffer) => Buffer.from(s).toString('base64');

const root = mkdtempSync(join(tmpdir(), 'scan-unit-'));
after(() => rmSync(root, { recursive: true, force: true }));
let n = 0;
/** A fresh directory with the given files (name → content). */
function tree(files: Record<string, string | Buffer>): string {
  const dir = join(root, `t${n++}`);
  for (const [name, content] of Object.entries(files)) {
    const path = join(dir, name);
    mkdirSync(join(path, '..'), { recursive: true });
    writeFileSync(path, content);
  }
  return dir;
}

const CRC_TABLE = Array.from({ length: 256 }, (_, i) => {
  let c = i;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(buf: Buffer): number {
  let c = 0xffffffff;
  for (const byte of buf) c = (CRC_TABLE[(c ^ byte) & 0xff] as number) ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/** A tiny zip writer: stored (method 0) or deflated (method 8) entries, no extras, no comment. */
function makeZip(entries: Array<{ name: string; data: string | Buffer; deflate?: boolean }>): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const raw = Buffer.from(e.data);
    const body = e.deflate ? deflateRawSync(raw) : raw;
    const name = Buffer.from(e.name, 'utf8');
    const method = e.deflate ? 8 : 0;
    const crc = crc32(raw);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(method, 8);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(body.length, 18);
    local.writeUInt32LE(raw.length, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(method, 10);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(body.length, 20);
    central.writeUInt32LE(raw.length, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, body);
    centrals.push(central, name);
    offset += local.length + name.length + body.length;
  }
  const cd = Buffer.concat(centrals);
  const eocd = Buffer.alloc(22);
  eocd.writeUInt32LE(0x06054b50, 0);
  eocd.writeUInt16LE(entries.length, 8);
  eocd.writeUInt16LE(entries.length, 10);
  eocd.writeUInt32LE(cd.length, 12);
  eocd.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, cd, eocd]);
}

const sortHits = (hits: Hit[]) => [...hits].sort((a, b) => (a.file + a.form).localeCompare(b.file + b.form));

const hasZipCli = (() => {
  try {
    execFileSync('zip', ['-v'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

describe('leakForms', () => {
  const formsOf = (key: string, text: string) => leakForms(key, views(text));
  test('the key as is (with its random part), case-changed, Base64 (also of `key:`), the hash alone', () => {
    assert.deepEqual(formsOf(KEY, `x ${KEY} y`), ['key', 'hash part']);
    assert.deepEqual(formsOf(KEY, KEY.toLowerCase()), ['case-changed', 'hash part']);
    assert.deepEqual(formsOf(KEY, b64(KEY)), ['Base64']);
    assert.deepEqual(formsOf(KEY, `Basic ${b64(`${KEY}:`)}`), ['Base64']);
    assert.deepEqual(formsOf(KEY, `token=${HASH};`), ['hash part']);
  });

  test('the forms of the table the suite redacts by (core/model/key-forms.ts): hex, Base32, escapes decoded', () => {
    assert.deepEqual(formsOf(KEY, Buffer.from(KEY).toString('hex').toUpperCase()), ['hex']);
    assert.deepEqual(formsOf(KEY, base32.encode(Buffer.from(`"${KEY}"`))), ['Base32']);
    const refs = [...KEY].map((c) => `&#${c.charCodeAt(0)};`).join('');
    assert.deepEqual(formsOf(KEY, `<p>${refs}</p>`), [
      'key (HTML character references decoded)',
      'hash part (HTML character references decoded)',
    ]);
    const twice = [...KEY].map((c) => `%25${c.charCodeAt(0).toString(16)}`).join('');
    assert.deepEqual(formsOf(KEY, twice), ['key (percent-decoded)', 'hash part (percent-decoded)']);
  });

  test('most of the hash part (a partial quote, the rest masked), plain or escaped; the last four alone are no quote', () => {
    const masked = `${HASH.slice(0, Math.ceil(HASH.length / 2) + 1)}${'*'.repeat(HASH.length)}`;
    assert.deepEqual(formsOf(KEY, `key ${masked} refused`), ['most of the hash part']);
    assert.deepEqual(
      formsOf(
        KEY,
        encodeURIComponent(masked).replace(/[a-z0-9]/gi, (c) => `%${c.charCodeAt(0).toString(16)}`),
      ),
      ['most of the hash part (percent-decoded)'],
    );
    assert.deepEqual(formsOf(KEY, `ending ${HASH.slice(-4)}`), []);
  });

  test('a hash shorter than 8 characters is not looked for alone; a clean text shows no form', () => {
    assert.deepEqual(formsOf('sk_live_abc', 'abc sk_live_ab'), []);
    assert.deepEqual(formsOf(KEY, `the key ${KEY.slice(0, 8)}… ending ${HASH.slice(-4)} is refused`), []);
    // The key less a character is no whole form, but most of it: what KEY-SECRET calls a leak, the scan finds too.
    assert.deepEqual(formsOf(KEY, `${KEY.slice(0, -1)} ${HASH.slice(1)}`), ['most of the hash part']);
  });
});

describe('scanPaths: a clean tree', () => {
  test('zero hits, every file, zip entry and embedded zip visited', () => {
    const clean = makeZip([
      { name: 'trace.trace', data: '{"headers":[{"name":"authorization","value":"Bearer $API_TEST_KEY"}]}' },
      { name: 'deflated.json', data: '{"ok":true}'.repeat(50), deflate: true },
    ]);
    const html = `<html><script>window.playwrightReportBase64 = "data:application/zip;base64,${b64(makeZip([{ name: 'report.json', data: '{}' }]))}";</script></html>`;
    const dir = tree({
      'results.json': '{"status":"passed","note":"sk test"}',
      'sub/deeper/log.txt': 'GET /payments 200\n',
      'trace.zip': clean,
      'index.html': html,
    });
    const result = scanPaths([dir], [KEY, OTHER]);
    assert.deepEqual(result.hits, []);
    // 4 files + 2 zip entries + 1 embedded zip + 1 entry in it
    assert.equal(result.files, 8);
  });

  test('a missing path is ignored', () => {
    assert.deepEqual(scanPaths([join(root, 'does-not-exist')], [KEY]), { files: 0, hits: [] });
  });

  test('a single file may be given instead of a folder', () => {
    const dir = tree({ 'one.txt': `x ${KEY} y` });
    assert.deepEqual(
      scanPaths([join(dir, 'one.txt')], [KEY]).hits.map((h) => h.form),
      ['key', 'hash part'],
    );
    assert.ok(scanPaths([join(dir, 'one.txt')], [KEY]).hits.every((h) => h.file === join(dir, 'one.txt')));
  });
});

describe('scanInParts: the same sweep, a process per part', () => {
  test('the files are dealt by size, each once, into parts of about equal size', () => {
    const dir = tree({ 'big.txt': 'x'.repeat(1000), 'a.txt': 'x'.repeat(400), 'b.txt': 'x'.repeat(400), 'c.txt': 'x' });
    const parts = dealt([dir], 2);
    assert.deepEqual(
      parts.flat().sort(),
      ['a.txt', 'b.txt', 'big.txt', 'c.txt'].map((f) => join(dir, f)),
    );
    assert.deepEqual(parts[0], [join(dir, 'big.txt')]);
    assert.equal(parts.length, 2);
    assert.deepEqual(dealt([dir], 9).length, 4); // no empty part
  });

  test('a canary planted in any part is found, in every form scanPaths finds, and the pattern too', async () => {
    const dir = tree({
      'one/clean.txt': 'nothing here',
      'two/leak.txt': `Authorization: Bearer ${KEY}`,
      'three/b64.txt': b64(KEY),
    });
    const whole = scanPaths([dir], [KEY, OTHER], [KEY_SHAPE]);
    const inParts = await scanInParts([dir], [KEY, OTHER], [KEY_SHAPE], Number.POSITIVE_INFINITY, 2);
    assert.equal(inParts.files, whole.files);
    assert.deepEqual(sortHits(inParts.hits), sortHits(whole.hits));
    assert.ok(inParts.hits.some((h) => h.form === `pattern ${KEY_SHAPE.source}`));
    assert.ok(inParts.hits.some((h) => h.form === 'Base64'));
  });
});

describe('scanPaths: positive controls (a planted canary must be found)', () => {
  test('plain file: the key as is', () => {
    const dir = tree({ 'a/out.log': `Authorization: Bearer ${KEY}\n` });
    assert.deepEqual(scanPaths([dir], [KEY]).hits, [
      { file: join(dir, 'a/out.log'), form: 'key' },
      { file: join(dir, 'a/out.log'), form: 'hash part' },
    ]);
  });

  test('case-changed forms', () => {
    const dir = tree({ 'lower.txt': KEY.toLowerCase(), 'upper.txt': KEY.toUpperCase() });
    assert.deepEqual(sortHits(scanPaths([dir], [KEY]).hits), [
      { file: join(dir, 'lower.txt'), form: 'case-changed' },
      { file: join(dir, 'lower.txt'), form: 'hash part' },
      { file: join(dir, 'upper.txt'), form: 'case-changed' },
      { file: join(dir, 'upper.txt'), form: 'hash part' },
    ]);
  });

  test('the hash part alone', () => {
    const dir = tree({ 'h.txt': `token=${HASH};` });
    assert.deepEqual(scanPaths([dir], [KEY]).hits, [{ file: join(dir, 'h.txt'), form: 'hash part' }]);
  });

  test('Base64 and Basic-auth Base64 forms', () => {
    const dir = tree({ 'b64.txt': `"${b64(KEY)}"`, 'basic.txt': `Authorization: Basic ${b64(`${KEY}:`)}` });
    assert.deepEqual(sortHits(scanPaths([dir], [KEY]).hits), [
      { file: join(dir, 'b64.txt'), form: 'Base64' },
      { file: join(dir, 'basic.txt'), form: 'Base64' },
    ]);
  });

  test('inside a stored zip entry', () => {
    const zip = makeZip([
      { name: 'clean.txt', data: 'nothing here' },
      { name: 'resources/req.json', data: `{"authorization":"Bearer ${KEY}"}` },
    ]);
    const dir = tree({ 'trace.zip': zip });
    const hits = scanPaths([dir], [KEY]).hits;
    assert.ok(
      hits.some((h) => h.file === `${join(dir, 'trace.zip')}!resources/req.json` && h.form === 'key'),
      JSON.stringify(hits),
    );
    assert.ok(!hits.some((h) => h.file.endsWith('!clean.txt')));
  });

  test('inside a deflated zip entry (the raw zip does not contain the key)', () => {
    const zip = makeZip([
      { name: 'trace.network', data: `${'padding '.repeat(40)}${KEY}${' more'.repeat(40)}`, deflate: true },
    ]);
    assert.equal(zip.includes(KEY), false, 'precondition: the key is compressed away');
    const dir = tree({ 'blob.zip': zip });
    assert.deepEqual(scanPaths([dir], [KEY]).hits, [
      { file: `${join(dir, 'blob.zip')}!trace.network`, form: 'key' },
      { file: `${join(dir, 'blob.zip')}!trace.network`, form: 'hash part' },
    ]);
  });

  test('inside a zip inside a zip', () => {
    const inner = makeZip([{ name: 'deep.txt', data: KEY.toUpperCase(), deflate: true }]);
    const outer = makeZip([{ name: 'inner.zip', data: inner, deflate: true }]);
    const dir = tree({ 'outer.zip': outer });
    assert.deepEqual(scanPaths([dir], [KEY]).hits, [
      { file: `${join(dir, 'outer.zip')}!inner.zip!deep.txt`, form: 'case-changed' },
      { file: `${join(dir, 'outer.zip')}!inner.zip!deep.txt`, form: 'hash part' },
    ]);
  });

  test('inside the HTML report: a data:application/zip;base64 zip', () => {
    const zip = makeZip([{ name: 'data/abc.json', data: `{"body":"${OTHER}"}`, deflate: true }]);
    const html = `<!DOCTYPE html><html><body><script>window.playwrightReportBase64 = "data:application/zip;base64,${b64(zip)}";</script></body></html>`;
    assert.equal(html.includes(OTHER), false, 'precondition: not visible in the HTML itself');
    const dir = tree({ 'html/index.html': html });
    const hits = scanPaths([dir], [KEY, OTHER]).hits;
    assert.deepEqual(hits, [
      { file: `${join(dir, 'html/index.html')}!embedded.zip!data/abc.json`, form: 'key' },
      { file: `${join(dir, 'html/index.html')}!embedded.zip!data/abc.json`, form: 'hash part' },
    ]);
  });

  test('each of several keys is looked for', () => {
    const dir = tree({ 'a.txt': KEY, 'b.txt': OTHER });
    const files = new Set(scanPaths([dir], [KEY, OTHER]).hits.map((h) => h.file));
    assert.deepEqual([...files].sort(), [join(dir, 'a.txt'), join(dir, 'b.txt')]);
  });

  test('a zip written by the zip CLI (deflated entries)', { skip: hasZipCli ? false : 'zip CLI not installed' }, () => {
    const dir = tree({ 'src/trace.json': `{"h":"Bearer ${KEY}"}${' '.repeat(200)}`, 'src/clean.txt': 'clean' });
    const zipPath = join(dir, 'cli.zip');
    execFileSync('zip', ['-q', '-r', '-9', zipPath, 'trace.json', 'clean.txt'], { cwd: join(dir, 'src') });
    const entries = unzip(readFileSync(zipPath));
    assert.deepEqual(
      entries.map(([name]) => name),
      ['trace.json', 'clean.txt'],
    );
    assert.equal(entries[0]?.[1].toString('utf8'), `{"h":"Bearer ${KEY}"}${' '.repeat(200)}`);
    rmSync(join(dir, 'src'), { recursive: true });
    assert.deepEqual(
      scanPaths([dir], [KEY]).hits.filter((h) => h.form === 'key'),
      [{ file: `${zipPath}!trace.json`, form: 'key' }],
    );
  });

  test('Base64 of a text that contains the key at any offset (e.g. a JSON attachment body)', () => {
    const dir = tree({
      'aligned.txt': b64(`abc${KEY} tail`),
      'shift1.txt': b64(`a${KEY} tail`),
      'shift2.txt': b64(`ab${KEY} tail`),
    });
    const files = new Set(scanPaths([dir], [KEY]).hits.map((h) => h.file));
    assert.deepEqual(
      [...files].sort(),
      ['aligned.txt', 'shift1.txt', 'shift2.txt'].map((f) => join(dir, f)),
    );
  });
});

describe('scanPaths: key-shaped patterns', () => {
  test('anything key-shaped is found, even a key never configured; short prefixes are not', () => {
    const shaped = ['sk', 'test', 'Zq9Wx8Vc7Bn6M'].join('_');
    const dir = tree({ 'a.txt': `title (${shaped})`, 'b.txt': 'format sk_test_<hash>, prefix sk_live_ only' });
    const hits = scanPaths([dir], [], [KEY_SHAPE]).hits;
    assert.deepEqual(hits, [{ file: join(dir, 'a.txt'), form: `pattern ${KEY_SHAPE.source}` }]);
  });
});

describe('unzip', () => {
  test('stored and deflated entries, names and contents', () => {
    const zip = makeZip([
      { name: 'a.txt', data: 'alpha' },
      { name: 'dir/b.bin', data: Buffer.from([0, 1, 2, 255]) },
      { name: 'c.json', data: '{"c":3}'.repeat(20), deflate: true },
    ]);
    const entries = unzip(zip);
    assert.deepEqual(
      entries.map(([name, data]) => [name, data.toString('hex')]),
      [
        ['a.txt', Buffer.from('alpha').toString('hex')],
        ['dir/b.bin', '000102ff'],
        ['c.json', Buffer.from('{"c":3}'.repeat(20)).toString('hex')],
      ],
    );
  });

  test('the test zip writer produces archives the unzip CLI accepts', {
    skip: hasZipCli ? false : 'zip CLI not installed',
  }, () => {
    const dir = tree({
      'w.zip': makeZip([
        { name: 'x.txt', data: 'hello', deflate: true },
        { name: 'y.txt', data: 'world' },
      ]),
    });
    const listing = execFileSync('unzip', ['-l', join(dir, 'w.zip')], { encoding: 'utf8' });
    assert.match(listing, /x\.txt/);
    assert.match(listing, /y\.txt/);
    const tested = execFileSync('unzip', ['-t', join(dir, 'w.zip')], { encoding: 'utf8' });
    assert.match(tested, /No errors detected/);
  });

  test('not a zip, too short, or no end-of-central-directory record: []', () => {
    assert.deepEqual(unzip(Buffer.from('plain text that is long enough to be checked')), []);
    assert.deepEqual(unzip(Buffer.alloc(10)), []);
    const truncated = makeZip([{ name: 'a.txt', data: 'alpha'.repeat(20) }]).subarray(0, 60);
    assert.deepEqual(unzip(truncated), []);
  });

  test('a truncated zip is still scanned as plain bytes', () => {
    const zip = makeZip([{ name: 'a.txt', data: `${KEY}${'z'.repeat(100)}` }]);
    const dir = tree({ 'cut.zip': zip.subarray(0, 120) });
    assert.ok(scanPaths([dir], [KEY]).hits.some((h) => h.file === join(dir, 'cut.zip') && h.form === 'key'));
  });
});
