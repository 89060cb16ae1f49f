/** junit.xml from the rule matrix: one test case per check, violations as <failure>, the rule id as a property. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { registerSecret } from '../../core/model/secrets.ts';
import { conformanceHtml } from '../../reporters/html.ts';
import { junitXml, xml } from '../../reporters/junit.ts';
import { type RunInfo, setUpSummary, summarize } from '../../reporters/summary.ts';
import { checkRecord, failed, runInfo } from '../support/records.ts';

const KEY = 'sk_test_JunitCANARYk3y9Zq2Wx7';
registerSecret(KEY);

const info = (over: Partial<RunInfo> = {}): RunInfo => runInfo({ status: 'failed', durationSeconds: 1.5, ...over });
const count = (text: string, re: RegExp) => text.match(re)?.length ?? 0;
/** The whole <testcase> element of the check named so. */
const caseOf = (text: string, name: string) => {
  const start = text.indexOf(`name="${name}"`);
  return start < 0 ? '' : text.slice(text.lastIndexOf('<testcase ', start), text.indexOf('</testcase>', start));
};

describe('junit.xml', () => {
  const s = summarize(
    [
      failed('PAG-SIZE every window', `6 records <&> ${KEY}`, { requestLines: [12, 20] }),
      failed('PAG-SIZE the last page', '3 records'),
      checkRecord('PAG-TOTAL a', 'pass'),
      checkRecord('ADV-SCHEME Basic', 'advisory', { received: 'HTTP 200' }),
      checkRecord('AUTH-REVOKED a', 'not run', { cause: 'needs input', reason: 'needs API_REVOKED_KEY' }),
    ],
    info({
      baseline: {
        file: 'b.json',
        date: '2026-11-24',
        entries: [
          { rule: 'PAG-SIZE', match: 'the last page', reason: 'VEN-9', until: '2026-12-31' },
          { rule: 'LIM-CAP', match: 'x', reason: 'old', until: '2026-01-01' },
        ],
      },
    }),
  );
  const text = junitXml(s);

  test('one test case per check, rule id, level and verdict as properties; the outcome names the whole', () => {
    assert.equal(count(text, /<testcase /g), 5 + 1, 'five checks and the expired baseline entry');
    assert.match(
      caseOf(text, 'PAG-TOTAL a'),
      /<property name="rule" value="PAG-TOTAL"\/><property name="level" value="MUST"\/>/,
    );
    assert.match(
      text,
      /<testsuites name="Payment API conformance: nonconformant for the \d+ selected rule\(s\) \(exit 1\): 1 rule failed \(PAG-SIZE\); 1 baseline entry expired; 1 known deviation/,
    );
    assert.equal(count(text, /<error/g), 0, 'a violation is a failure, never an error');
  });

  test('a new violation is a <failure> naming its rule and its request lines; a known one is skipped with its reason', () => {
    const fail = caseOf(text, 'PAG-SIZE every window');
    assert.match(fail, /<failure message="PAG-SIZE violated: 6 records &lt;&amp;&gt; \[REDACTED\]" type="PAG-SIZE">/);
    assert.match(fail, /Requests: requests.ndjson lines 12–20/);
    assert.match(fail, /<property name="requestLines" value="12-20"\/>/);
    const known = caseOf(text, 'PAG-SIZE the last page');
    assert.match(known, /<skipped message="known deviation \(VEN-9, until 2026-12-31\)"\/>/);
    assert.match(known, /<property name="verdict" value="known"\/>/);
    assert.doesNotMatch(known, /<failure/);
  });

  test('advisory, not run and expired entries; counts agree; no key', () => {
    assert.doesNotMatch(caseOf(text, 'ADV-SCHEME Basic'), /<failure|<skipped/);
    assert.match(caseOf(text, 'AUTH-REVOKED a'), /<skipped message="not run: needs API_REVOKED_KEY"\/>/);
    assert.match(text, /<failure message="baseline entry LIM-CAP &quot;x&quot; expired on 2026-01-01/);
    assert.match(text, /<testsuites [^>]* tests="6" failures="2" errors="0" skipped="2"/);
    assert.ok(!text.includes(KEY));
    const strict = junitXml(
      summarize([checkRecord('ADV-SCHEME Basic', 'advisory', { received: 'HTTP 200' })], info({ strict: true })),
    );
    assert.match(strict, /<failure message="ADV-SCHEME violated: HTTP 200"/);
  });

  test('text is escaped and stripped of what XML forbids', () => {
    assert.equal(xml(`a<b>&"c'\u0001\u001b[31m`), 'a&lt;b&gt;&amp;&quot;c&apos;[31m');
  });
});

describe('the target in junit.xml and conformance.html', () => {
  const target = {
    baseURL: 'https://sandbox.example/api',
    bundledMock: false,
    profile: 'sandbox',
    configured: ['API_LIVE_KEY'],
    missing: [],
    suiteVersion: '0.1.0',
  };
  const s = summarize([checkRecord('PAG-TOTAL a', 'pass'), failed('PAG-SIZE b', '3 records')], info({ target }));

  test('a target property on every test suite and every test case', () => {
    const text = junitXml(s);
    const props = '<property name="target" value="https://sandbox.example/api, profile sandbox"/>';
    for (const element of ['testsuite', 'testcase']) {
      const all = text.match(new RegExp(`<${element} [^>]*><properties>.*?</properties>`, 'g')) ?? [];
      assert.equal(all.length, 2, element);
      assert.ok(
        all.every((e) => e.includes(props) && e.includes('<property name="profile" value="sandbox"/>')),
        element,
      );
    }
  });

  test("conformance.html names it in its headline band, the page's first screen", () => {
    const header = /<header[^>]*>[\s\S]*?<\/header>/.exec(conformanceHtml(s))?.[0] ?? '';
    assert.match(header, /<p class="target">Target: https:\/\/sandbox\.example\/api, profile sandbox, /);
  });

  test('a run refused at its set-up: one failing "set-up" test case carrying the sentence, naming the target', () => {
    const text = junitXml(setUpSummary(['SANDBOX_MERCHANT_ID=m is not found: …'], { target, durationSeconds: 1.2 }));
    assert.match(text, /<testsuites [^>]*tests="1" failures="1" errors="0" skipped="0" time="1.2">/);
    assert.match(
      text,
      /<testcase classname="set-up" name="set-up" time="1.2"><properties><property name="target" value="https:\/\/sandbox.example\/api, profile sandbox"\/>.*<failure message="SANDBOX_MERCHANT_ID=m is not found: …" type="bad configuration">/,
    );
  });
});
