/**
 * What no answer may carry, over every answer of the run (§1, §5, §5.9, §7; reading "A refusal reveals nothing"):
 * no key, in any encoding, and no record where the request may not see it — another mode's, another merchant's, or
 * any record in an answer to a request without a valid key or without the permission, whatever its method, status,
 * path, query or header spelling. The watcher (core/run/watch.ts) kept every answer of every check; these checks run
 * once all others have (their own project, the checks project's teardown: playwright.config.ts) and judge them all
 * (checks/provenance.ts).
 *
 * Where they share the checks' workers (a run that is not sharded: playwright.config.ts), this file sorts last and
 * runs in one worker, in order; with two workers or more its first check waits until the runner has seen every other
 * check end (the other worker may still be in its last one).
 *
 * First they learn for themselves, so that a run of a few selected checks is judged too: every listing the
 * configuration can read, and every status seen on any of them asked on every listing by every key allowed to list it
 * (an empty answer is then evidence, not nothing to check).
 */

import { overTheCap, pageFlaws } from '../checks/page.ts';
import { keyLeakViolations, provenanceViolations, recordsShown, unexercised } from '../checks/provenance.ts';
import { fetchPage } from '../core/client/http.ts';
import { type Collection, runCollections } from '../core/model/collection.ts';
import { type Listing, listingOf, readableListings, withSelection } from '../core/model/listing.ts';
import type { WatchedAnswer } from '../core/model/provenance.ts';
import { fieldValueCounts } from '../core/model/result-set.ts';
import {
  EVERY_ANSWER_CAP_RULES,
  EVERY_ANSWER_RULES,
  EVERY_PAGE_RULES,
  type EveryAnswerCapRule,
  type EveryAnswerRule,
  type EveryPageRule,
  everyAnswerCapOf,
  everyAnswerOf,
  everyPageOf,
} from '../core/model/rules.ts';
import { RuleViolation, type Violation } from '../core/model/verdict.ts';
import { type CheckContext, notExercised } from '../core/run/check.ts';
import { enumerate, Unusable } from '../core/run/walk.ts';
import { addWatchCost, readWatchedAnswers } from '../core/run/watch.ts';
import { eachCollection } from '../fixtures/collections.ts';
import { test, waitForTheOthers } from '../fixtures/test.ts';

// One worker, in order: the checks share what they learn (a few requests), and judge once every other check ended.
test.describe.configure({ mode: 'default' });
test.beforeAll(() => waitForTheOthers('othersEnded'));

/**
 * Every listing of every collection the configuration can read, the second sandbox merchant's too (read whole, so
 * that their records are traced too).
 */
function everyListing(ctx: CheckContext): Listing[] {
  const other = ctx.target.merchants.otherSandbox;
  return runCollections().flatMap((c) => {
    const second = c.access.scope === 'merchant' && other && c.access.modes.includes('test');
    return [...readableListings(ctx.target, c), ...(second ? [listingOf(c, other, 'test')] : [])];
  });
}

/** The query parameter of a collection's first filter (payments: `filter[status]`), where it has one. */
const filterParam = (c: Collection) => (c.filters[0] ? `filter[${c.filters[0].field}]` : undefined);

const asked = new WeakMap<object, Promise<string>>();

/**
 * Learns what the watcher needs that the watched checks did not already read, once per worker: every listing the
 * configuration can read (those the checks read are not read again), then every value of each collection's first
 * filter seen on any of its listings asked of every one of them (first page, the maximum limit) where no check asked
 * it already: queries no other check asks of those keys. Returns what it did, in words.
 */
function askEverywhere(ctx: CheckContext): Promise<string> {
  let done = asked.get(ctx.api);
  if (!done) {
    done = (async () => {
      const seen = answersOfTheRun().filter((a) => a.learned || a.scope.endpoint === 'list');
      const values = new Map<string, Set<string>>();
      const valuesOf = (name: string) => values.get(name) ?? (values.set(name, new Set()).get(name) as Set<string>);
      const read = new Set<string>();
      const askedBefore = new Set<string>();
      // A listing as the watcher names it: the collection, the merchant's role and the key (presenter) that lists it.
      const holder = (id: string) => Object.entries(ctx.target.merchants).find(([, m]) => m === id)?.[0];
      const keyOf = (l: Listing) =>
        `${l.collection.spec ? '' : l.collection.name}|${holder(l.merchant)}|${l.auth.kind === 'key' ? l.auth.slot : ''}`;
      const byName = new Map(runCollections().map((c) => [c.spec ? '' : c.name, c]));
      for (const a of seen) {
        const c = byName.get(a.scope.collection ?? '');
        const field = c?.filters[0]?.field;
        for (const r of field && a.learned ? a.learned.records : []) {
          const v = (r as Record<string, unknown> | null)?.[field as string];
          if (typeof v === 'string') valuesOf(c?.name as string).add(v);
        }
        if (!a.learned && a.status !== 200) continue;
        const param = c && filterParam(c);
        const value = a.query.find(([k]) => k === param)?.[1];
        const key = `${a.scope.collection ?? ''}|${a.scope.merchant}|${a.scope.presenter}`;
        if (a.learned) read.add(key);
        if (value !== undefined) askedBefore.add(`${key}|${value}`);
      }
      const listings: Listing[] = [];
      let reads = 0;
      for (const l of everyListing(ctx)) {
        const key = keyOf(l);
        const field = l.collection.filters[0]?.field;
        try {
          if (!read.has(key) || (field && valuesOf(l.collection.name).size === 0)) {
            const set = await enumerate(ctx, l);
            for (const [v] of field ? fieldValueCounts(set.records, field) : []) valuesOf(l.collection.name).add(v);
            reads += 1;
          }
          listings.push(l);
        } catch (error) {
          // An unreadable listing is its own rule's failure (MODE-*); here it is simply not asked.
          if (!(error instanceof Unusable)) throw error;
        }
      }
      let questions = 0;
      for (const l of listings) {
        const field = l.collection.filters[0]?.field;
        if (!field) continue;
        for (const value of valuesOf(l.collection.name)) {
          if (askedBefore.has(`${keyOf(l)}|${value}`)) continue;
          await fetchPage(ctx.api, withSelection(l, { filter: { field, value } }), {
            limit: l.collection.maxLimit ?? 100,
          });
          questions += 1;
        }
      }
      const count = [...values.values()].reduce((n, v) => n + v.size, 0);
      return `${count} filter value(s) seen on ${listings.length} listing(s), each asked of every listing of its collection (${questions} asked here, ${reads} listing(s) read here)`;
    })();
    asked.set(ctx.api, done);
    done.catch(() => asked.delete(ctx.api));
  }
  return done;
}

/** Where this project's processes keep the answers they watched (the fixture option watchDir). */
const watchDir = () => (test.info().project.use as { watchDir?: string }).watchDir;

/** The answers to judge: the watched project's (the checks) and this project's own. */
function answersOfTheRun() {
  const info = test.info();
  const watched = (info.project.use as { watchOf?: string }).watchOf;
  return readWatchedAnswers([info.project.name, ...(watched ? [watched] : [])], watchDir());
}

let judged: { learned: Promise<string>; answers: WatchedAnswer[] } | undefined;
/** Every answer of the run, read once this worker has asked what it asks (the checks of this file share them). */
async function everyAnswer(ctx: CheckContext): Promise<{ learned: string; answers: WatchedAnswer[] }> {
  const learned = askEverywhere(ctx);
  if (judged?.learned !== learned) {
    await learned;
    const t0 = performance.now();
    judged = { learned, answers: answersOfTheRun() };
    addWatchCost({ judgeMs: performance.now() - t0 }, watchDir());
  }
  return { learned: await learned, answers: judged.answers };
}

/** Ends the check with its first violation, naming how many more there were. */
function assertNone(violations: Violation[]): void {
  const [first] = violations;
  if (!first) return;
  const more = violations.length > 1 ? ` (and ${violations.length - 1} more answer(s) like it)` : '';
  throw new RuleViolation({ ...first, received: `${first.received}${more}` });
}

/**
 * The check of one rule over every answer, about the collection's records: each collection's check takes the
 * violations about its records (the spec's collection, every answer not on another's path), so that a failure names
 * the collection it is about.
 */
const traced = (c: Collection, rule: EveryAnswerRule) => async (ctx: CheckContext) => {
  const { learned, answers } = await everyAnswer(ctx);
  const t0 = performance.now();
  const { violations, stats } = provenanceViolations(answers, rule, { collection: owned(c) });
  addWatchCost({ judgeMs: performance.now() - t0 }, watchDir());
  ctx.notes.add(`${stats.answers} answers of the run judged; ${stats.records} records traced; ${learned}`);
  assertNone(violations);
  const asked = everyAnswerOf(rule).presenters.reduce((n, p) => n + (stats.byPresenter[p] ?? 0), 0);
  const why = unexercised(rule, stats, asked);
  if (why) notExercised(ctx, why);
};

/** Which answers are the collection's: those on its path (the spec's: every answer not on another's path). */
const owned = (c: Collection) => (c.spec ? undefined : c.name);

/** KEY-SECRET over every answer that is the collection's. */
const leakless = (c: Collection) => async (ctx: CheckContext) => {
  const { answers } = await everyAnswer(ctx);
  const t0 = performance.now();
  const leaks = keyLeakViolations(answers, { collection: owned(c) });
  addWatchCost({ judgeMs: performance.now() - t0 }, watchDir());
  const own = answers.filter((a) => a.scope.collection === owned(c)).length;
  ctx.notes.add(`${own} of the run's ${answers.length} answers scanned`);
  assertNone(leaks);
  if (own === 0) notExercised(ctx, `no answer of the run was on the ${c.name} paths: nothing to scan`);
};

/** A check's text on a collection: its own records (`one of its records`), where it is not the spec's. */
const ofIts = (c: Collection, what: string) =>
  c.spec
    ? what
    : what
        .replace(/\ba (sandbox )?record\b/, (_, s = '') => `one of its ${s}records`)
        .replace("another merchant's record", `another merchant's record of it`);

/** A rule of a single page over every page of the run (checks/page.ts: the watcher judged each as it came). */
const paged = (rule: EveryPageRule) => async (ctx: CheckContext) => {
  const { answers } = await everyAnswer(ctx);
  const { judged, violations } = pageFlaws(answers, rule);
  ctx.notes.add(`${judged} page(s) of the run judged`);
  assertNone(violations);
  if (judged === 0) notExercised(ctx, 'no page of the run was asked with what this rule reads');
};

/** The cap over every answer of the collection (checks/page.ts `overTheCap`), whoever asked what. */
const capped = (c: Collection, rule: EveryAnswerCapRule) => async (ctx: CheckContext) => {
  const { answers } = await everyAnswer(ctx);
  const cap = c.maxLimit ?? 100;
  const t0 = performance.now();
  const shown = recordsShown(answers);
  // The collection's listing, in any spelling of its path: a path the spec does not show (another version's listing,
  // `/payments/n2/…`) may hold pages of its own size.
  const mine = answers.filter((a) => a.scope.collection === owned(c) && a.scope.endpoint === 'list');
  const { judged, largest, violations } = overTheCap(mine, cap, rule, shown);
  addWatchCost({ judgeMs: performance.now() - t0 }, watchDir());
  ctx.notes.add(`${judged} answer(s) of the run with records judged; the largest listing ${largest} records`);
  assertNone(violations);
  if (largest <= cap)
    notExercised(ctx, `no listing held more than ${cap} records (the largest ${largest}): no answer could show more`);
};

eachCollection('§1, §5, §5.9, §7 Every answer of the run:', (c, check) => {
  // §5.9 "Keys must stay out of client-side code and must not be shared"; reading: "The key never appears in any
  // response, body or header: not whole, not encoded, and not as a large part of it" — in every answer of the run.
  check(
    'KEY-SECRET',
    `no answer of the run ${c.spec ? '' : 'on its path '}gives a key back, whole, encoded or most of it (every method, status, ${c.spec ? 'path, ' : ''}query and credential)`,
    leakless(c),
  );
  // §1 "Objects created in one mode are not accessible from the other"; §5.2 "A request without a valid key is
  // rejected", §7 403: and a refusal reveals nothing (reading) — the catalogue's rules over every answer.
  for (const rule of EVERY_ANSWER_RULES) {
    const { check: what, needs = [] } = everyAnswerOf(rule);
    check(rule, ofIts(c, what), traced(c, rule), { needs: [...needs] });
  }
  // §8 "Maximum limit: 100 records per request"; reading: "never more than 100 records in one answer, however the
  // request was written" — any limit (0 and negative ones too), any input, any key, any representation.
  for (const rule of EVERY_ANSWER_CAP_RULES) {
    check(
      rule,
      `no answer of the run ${everyAnswerCapOf(rule).replace('{cap}', String(c.maxLimit ?? 100))}`,
      capped(c, rule),
    );
  }
  // §2, §4.2: what one page is by itself (its envelope, echo, size, filter, order), on every page of payments the run
  // read with the documented parameters only, whichever check asked it and on whichever listing a key may read (the
  // second sandbox merchant's too): a listing's code path that forgets a rule shows wherever a check read it.
  if (!c.spec) return;
  for (const rule of EVERY_PAGE_RULES) {
    check(
      rule,
      `every page of the run (documented parameters only, any listing a key may read) ${everyPageOf(rule)}`,
      paged(rule),
    );
  }
});
