/**
 * junit.xml from the rule matrix (replacing Playwright's junit reporter, which records a thrown violation as an
 * `error`): one test suite per rule that has checks (per collection, for a run given other collections than payments),
 * one test case per check, the rule id, level and verdict (and the collection) as properties. What fails the run (the
 * check's disposition, core/model/disposition.ts: a MUST rule's failure, or an advisory finding with
 * CONFORMANCE_STRICT=1) is a `<failure>`; a known deviation, an inconclusive or not-run check is `<skipped>` with the
 * reason; an advisory finding that does not fail the run is system-out; an expired baseline
 * entry is a failing test case of its own. The headline (the outcome) names the whole; every test suite and test case
 * names the target (`target`: its base URL and profile, never a key or a query) and the run's depth (`depth`, and
 * `maxTime` with a time budget). A run refused at its set-up (exit 2)
 * is one failing test case, "set-up", that carries the sentences that refused it.
 */

import { describeEntry } from '../core/model/baseline.ts';
import { PAYMENTS_NAME } from '../core/model/collection.ts';
import { DEFAULT_DEPTH } from '../core/model/depth.ts';
import { disposition, ofCheck } from '../core/model/disposition.ts';
import { rule as ruleOf } from '../core/model/rules.ts';
import { redact } from '../core/model/secrets.ts';
import { describeDuration } from '../core/model/time-budget.ts';
import { type CheckRecord, renderFinding } from '../core/model/verdict.ts';
import { collectionOf } from './collections-grid.ts';
import type { Summary } from './summary.ts';
import { headline, requestLinesOf, targetPhrase } from './summary-text.ts';

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
  const d = disposition(ofCheck(c), { strict });
  if (d === 'known' && c.known) {
    const message = `known deviation (${c.known.reason}, until ${c.known.until})`;
    return {
      failed: false,
      skipped: true,
      xml: `<skipped message="${xml(message)}"/><system-out>${xml(finding())}</system-out>`,
    };
  }
  if (d === 'fail') {
    const first = `${c.rule} violated: ${c.received ?? c.reason ?? ''}`.slice(0, 300);
    return {
      failed: true,
      skipped: false,
      xml: `<failure message="${xml(first)}" type="${xml(c.rule)}">${xml(finding())}</failure>`,
    };
  }
  if (d === 'advisory') {
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

/** The test suite of a run refused at its set-up: one failing test case with the sentences that refused it. */
function setUpSuite(s: Summary, target: string): string[] {
  const what = s.outcome.decidedBy.join('\n');
  const first = (s.outcome.decidedBy[0] ?? 'bad configuration').slice(0, 300);
  return [
    `  <testsuite name="set-up" tests="1" failures="1" errors="0" skipped="0" time="${s.durationSeconds ?? 0}"><properties>${target}</properties>`,
    `    <testcase classname="set-up" name="set-up" time="${s.durationSeconds ?? 0}"><properties>${target}</properties><failure message="${xml(first)}" type="bad configuration">${xml(`bad configuration (exit 2): no check ran\n${what}`)}</failure></testcase>`,
    '  </testsuite>',
  ];
}

/** The run's rule matrix as JUnit XML. */
export function junitXml(s: Summary): string {
  const suites: string[] = [];
  let [tests, failures, skipped] = [0, 0, 0];
  const target = [
    property('target', targetPhrase(s.target)),
    ...(s.target ? [property('baseURL', s.target.baseURL), property('profile', s.target.profile)] : []),
    property('depth', s.depth ?? DEFAULT_DEPTH),
    ...(s.maxTimeMs ? [property('maxTime', describeDuration(s.maxTimeMs))] : []),
  ].join('');
  if (s.outcome.result === 'bad configuration') {
    suites.push(...setUpSuite(s, target));
    [tests, failures] = [1, 1];
  }
  // A suite per rule; with other collections than payments, a suite per collection (its test cases classed by rule).
  const groups = s.collections?.length
    ? s.collections.map((name) => ({
        name: `${name}${name === PAYMENTS_NAME ? ' (the spec, §4.2)' : ' (--collections)'}`,
        checks: s.checks.filter((c) => collectionOf(c) === name),
      }))
    : [...new Set(s.checks.map((c) => c.rule))].map((id) => {
        const r = ruleOf(id);
        return {
          name: `${id} (${r.level}, ${r.section}): ${r.requirement}`,
          checks: s.checks.filter((c) => c.rule === id),
        };
      });
  for (const group of groups) {
    const cases = group.checks.map((c) => {
      const r = ruleOf(c.rule);
      const b = body(c, s.strict);
      const props = [
        target,
        property('rule', c.rule),
        property('level', r.level),
        property('section', r.section),
        property('verdict', c.known ? 'known' : c.verdict),
        property('requests', c.requests),
        ...(c.requestLines ? [property('requestLines', `${c.requestLines[0]}-${c.requestLines[1]}`)] : []),
        ...(c.requestLog ? [property('requestLog', c.requestLog)] : []),
        ...(c.known ? [property('knownUntil', c.known.until)] : []),
        ...(c.collection ? [property('collection', c.collection)] : []),
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
      `  <testsuite name="${xml(group.name)}" tests="${cases.length}" failures="${f}" errors="0" skipped="${k}" time="0"><properties>${target}</properties>`,
      ...cases.map((c) => c.xml),
      '  </testsuite>',
    );
  }
  const expired = s.deviations?.expired ?? [];
  if (expired.length > 0) {
    suites.push(
      `  <testsuite name="baseline ${xml(s.deviations?.file ?? '')}" tests="${expired.length}" failures="${expired.length}" errors="0" skipped="0" time="0"><properties>${target}</properties>`,
    );
    for (const e of expired) {
      const what = `baseline entry ${describeEntry(e)} expired on ${e.until}: renew its date or remove it`;
      suites.push(
        `    <testcase classname="baseline" name="${xml(describeEntry(e))}" time="0"><properties>${target}${property('rule', e.rule)}</properties><failure message="${xml(what)}" type="expired baseline entry">${xml(`${what}\nReason it was known: ${e.reason}`)}</failure></testcase>`,
      );
    }
    [tests, failures] = [tests + expired.length, failures + expired.length];
  }
  const head = `Payment API conformance: ${headline(s)}`;
  return redact(
    [
      '<?xml version="1.0" encoding="UTF-8"?>',
      `<testsuites name="${xml(head)}" tests="${tests}" failures="${failures}" errors="0" skipped="${skipped}" time="${s.durationSeconds ?? 0}">`,
      ...suites,
      '</testsuites>',
      '',
    ].join('\n'),
  );
}
