/**
 * junit.xml from the rule matrix (replacing Playwright's junit reporter, which records a thrown violation as an
 * `error`): one test suite per rule that has checks, one test case per check, the rule id, level and verdict as
 * properties. A new failure (a MUST rule's, or an advisory finding with CONFORMANCE_STRICT=1) is a `<failure>`; a known
 * deviation, an advisory finding, an inconclusive or not-run check is `<skipped>` with the reason; an expired baseline
 * entry is a failing test case of its own. The headline (the outcome) names the whole.
 */

import { describeEntry } from '../core/model/baseline.ts';
import { rule as ruleOf } from '../core/model/rules.ts';
import { redact } from '../core/model/secrets.ts';
import { type CheckRecord, renderFinding } from '../core/model/verdict.ts';
import { headline, requestLinesOf, type Summary } from './summary.ts';

/** Text safe in XML attributes and content: escaped, without the control characters XML 1.0 forbids. */
export function xml(text: string): string {
  return text
    .replace(/[^\t\n\r\x20-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

const property = (name: string, value: string | number) =>
  `<property name="${xml(name)}" value="${xml(String(value))}"/>`;

/** What the check's test case holds besides its properties: its failure, the reason it was skipped, or nothing. */
function body(c: CheckRecord, strict: boolean): { failed: boolean; skipped: boolean; xml: string } {
  const where = requestLinesOf(c);
  const finding = () => `${renderFinding(c)}${where ? `\nRequests: ${where}` : ''}`;
  if (c.known) {
    const message = `known deviation (${c.known.reason}, until ${c.known.until})`;
    return {
      failed: false,
      skipped: true,
      xml: `<skipped message="${xml(message)}"/><system-out>${xml(finding())}</system-out>`,
    };
  }
  if (c.verdict === 'fail' || (c.verdict === 'advisory' && strict)) {
    const first = `${c.rule} violated: ${c.received ?? c.reason ?? ''}`.slice(0, 300);
    return {
      failed: true,
      skipped: false,
      xml: `<failure message="${xml(first)}" type="${xml(c.rule)}">${xml(finding())}</failure>`,
    };
  }
  if (c.verdict === 'advisory') {
    return {
      failed: false,
      skipped: false,
      xml: `<system-out>${xml(`advisory finding (not failing the run)\n${finding()}`)}</system-out>`,
    };
  }
  if (c.verdict === 'inconclusive' || c.verdict === 'not run') {
    return {
      failed: false,
      skipped: true,
      xml: `<skipped message="${xml(`${c.verdict}: ${c.reason ?? c.cause ?? ''}`)}"/>`,
    };
  }
  if (c.verdict === 'not exercised') {
    return {
      failed: false,
      skipped: false,
      xml: `<system-out>${xml(`not exercised: ${c.reason ?? ''}`)}</system-out>`,
    };
  }
  return { failed: false, skipped: false, xml: '' };
}

/** The run's rule matrix as JUnit XML. */
export function junitXml(s: Summary): string {
  const suites: string[] = [];
  let [tests, failures, skipped] = [0, 0, 0];
  const ruleIds = [...new Set(s.checks.map((c) => c.rule))];
  for (const id of ruleIds) {
    const r = ruleOf(id);
    const checks = s.checks.filter((c) => c.rule === id);
    const cases = checks.map((c) => {
      const b = body(c, s.strict);
      const props = [
        property('rule', c.rule),
        property('level', r.level),
        property('section', r.section),
        property('verdict', c.known ? 'known' : c.verdict),
        property('requests', c.requests),
        ...(c.requestLines ? [property('requestLines', `${c.requestLines[0]}-${c.requestLines[1]}`)] : []),
        ...(c.requestLog ? [property('requestLog', c.requestLog)] : []),
        ...(c.known ? [property('knownUntil', c.known.until)] : []),
      ];
      return {
        b,
        xml: `    <testcase classname="${xml(c.rule)}" name="${xml(c.check)}" time="0"><properties>${props.join('')}</properties>${b.xml}</testcase>`,
      };
    });
    const f = cases.filter((c) => c.b.failed).length;
    const k = cases.filter((c) => c.b.skipped).length;
    [tests, failures, skipped] = [tests + cases.length, failures + f, skipped + k];
    suites.push(
      `  <testsuite name="${xml(`${id} (${r.level}, ${r.section}): ${r.requirement}`)}" tests="${cases.length}" failures="${f}" errors="0" skipped="${k}" time="0">`,
      ...cases.map((c) => c.xml),
      '  </testsuite>',
    );
  }
  const expired = s.deviations?.expired ?? [];
  if (expired.length > 0) {
    suites.push(
      `  <testsuite name="baseline ${xml(s.deviations?.file ?? '')}" tests="${expired.length}" failures="${expired.length}" errors="0" skipped="0" time="0">`,
    );
    for (const e of expired) {
      const what = `baseline entry ${describeEntry(e)} expired on ${e.until}: renew its date or remove it`;
      suites.push(
        `    <testcase classname="baseline" name="${xml(describeEntry(e))}" time="0"><properties>${property('rule', e.rule)}</properties><failure message="${xml(what)}" type="expired baseline entry">${xml(`${what}\nReason it was known: ${e.reason}`)}</failure></testcase>`,
      );
    }
    [tests, failures] = [tests + expired.length, failures + expired.length];
  }
  const head = `Payment API conformance: ${headline(s)}`;
  return redact(
    [
      '<?xml version="1.0" encoding="UTF-8"?>',
      `<testsuites name="${xml(head)}" tests="${tests}" failures="${failures}" errors="0" skipped="${skipped}" time="${s.durationSeconds}">`,
      ...suites,
      '</testsuites>',
      '',
    ].join('\n'),
  );
}
