/**
 * What no answer may carry, over every answer of the run (§1, §5, §5.9, §7; reading "A refusal reveals nothing"):
 * no key, in any encoding, and no record where the request may not see it — another mode's, another merchant's, or
 * any record in an answer to a request without a valid key or without the permission, whatever its method, status,
 * path, query or header spelling. The watcher (core/run/watch.ts) kept every answer of every check; these checks run
 * once all others have (their own project, the checks project's teardown: playwright.config.ts) and judge them all
 * (checks/provenance.ts).
 *
 * First they learn for themselves, so that a run of a few selected checks is judged too: every listing the
 * configuration can read, and every status seen on any of them asked on every listing by every key allowed to list it
 * (an empty answer is then evidence, not nothing to check).
 */

import { keyLeakViolations, type ProvenanceRule, provenanceViolations, unexercised } from '../checks/provenance.ts';
import { fetchPage } from '../core/client/http.ts';
import { publishedCollections } from '../core/model/collection.ts';
import { asKey } from '../core/model/credentials.ts';
import { type Listing, MAX_LIMIT, readableListings, withSelection } from '../core/model/listing.ts';
import type { Presenter, WatchedAnswer } from '../core/model/provenance.ts';
import { statusCounts } from '../core/model/result-set.ts';
import { RuleViolation, type Violation } from '../core/model/verdict.ts';
import { type CheckContext, notExercised } from '../core/run/check.ts';
import { collectionListings } from '../core/run/collection-listings.ts';
import { enumerate, Unusable } from '../core/run/walk.ts';
import { addWatchCost, readWatchedAnswers } from '../core/run/watch.ts';
import { detailsOf, eachCollection, titled } from '../fixtures/collections.ts';
import { type Need, settle, test } from '../fixtures/test.ts';

/**
 * Every listing the configuration can read, the second sandbox merchant's too; then every listing of the other
 * collections the run was given (read whole, so that their records are traced too).
 */
function everyListing(ctx: CheckContext): Listing[] {
  const { merchants } = ctx.target;
  const other = merchants.otherSandbox ? [{ merchant: merchants.otherSandbox, auth: asKey('test') }] : [];
  const collections = publishedCollections().flatMap((c) => {
    const listings = collectionListings(ctx.target, c);
    const second = c.access.scope === 'merchant' && merchants.otherSandbox && c.access.modes.includes('test');
    return second
      ? [...listings, { merchant: merchants.otherSandbox as string, auth: asKey('test'), collection: c }]
      : listings;
  });
  return [...readableListings(ctx.target), ...other, ...collections];
}

const asked = new WeakMap<object, Promise<string>>();

/**
 * Learns what the watcher needs that the watched checks did not already read, once per worker: every listing the
 * configuration can read (those the checks read are not read again), then every status seen on any of them asked of
 * every listing (first page, limit 100) where no check asked it already: queries no other check asks of those keys.
 * Returns what it did, in words.
 */
function askEverywhere(ctx: CheckContext): Promise<string> {
  let done = asked.get(ctx.api);
  if (!done) {
    done = (async () => {
      const seen = answersOfTheRun().filter((a) => a.learned || a.scope.endpoint === 'list');
      const statuses = new Set<string>();
      const read = new Set<string>();
      const askedBefore = new Set<string>();
      // A listing as the watcher names it: the merchant's role and the key (presenter) that lists it.
      const holder = (id: string) => Object.entries(ctx.target.merchants).find(([, m]) => m === id)?.[0];
      const keyOf = (l: Listing) =>
        `${l.collection?.name ?? ''}|${holder(l.merchant)}|${l.auth.kind === 'key' ? l.auth.slot : ''}`;
      for (const a of seen) {
        // The payments' statuses: another collection's records have statuses of their own.
        for (const r of a.learned?.provenance.collection ? [] : (a.learned?.records ?? [])) {
          const s = (r as { status?: unknown } | null)?.status;
          if (typeof s === 'string') statuses.add(s);
        }
        if (!a.learned && a.status !== 200) continue;
        const status = a.query.find(([k]) => k === 'filter[status]')?.[1];
        const key = `${a.scope.collection ?? ''}|${a.scope.merchant}|${a.scope.presenter}`;
        if (a.learned) read.add(key);
        if (status !== undefined) askedBefore.add(`${key}|${status}`);
      }
      const listings: Listing[] = [];
      let reads = 0;
      for (const l of everyListing(ctx)) {
        const key = keyOf(l);
        try {
          if (!read.has(key) || statuses.size === 0) {
            const set = await enumerate(ctx, l);
            for (const [s] of statusCounts(set.records)) statuses.add(s);
            reads += 1;
          }
          listings.push(l);
        } catch (error) {
          // An unreadable listing is its own rule's failure (MODE-*); here it is simply not asked.
          if (!(error instanceof Unusable)) throw error;
        }
      }
      let questions = 0;
      // Statuses are the payments' (§3): asked of the payments listings only.
      for (const l of listings.filter((x) => !x.collection)) {
        const key = keyOf(l);
        for (const status of statuses) {
          if (askedBefore.has(`${key}|${status}`)) continue;
          await fetchPage(ctx.api, withSelection(l, { status }), { limit: MAX_LIMIT });
          questions += 1;
        }
      }
      return `${statuses.size} status(es) seen on ${listings.length} listing(s), each asked of every listing (${questions} asked here, ${reads} listing(s) read here)`;
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

/** Who must have asked something for a rule's check to have evidence. */
const PRESENTERS: Record<ProvenanceRule, readonly Presenter[]> = {
  'MODE-ISOLATION': ['test', 'live'],
  'MER-ISOLATION': ['test', 'live'],
  'MODE-LIVE-SANDBOX': ['live'],
  'AUTH-FORBIDDEN': ['restricted'],
  'AUTH-MISSING': ['none'],
  'AUTH-INVALID': ['invalid'],
  'AUTH-REVOKED': ['revoked'],
  'AUTH-FIRST': ['invalid', 'revoked'],
};

/**
 * The check of one rule over every answer: the violations about payments' records (with other collections: each
 * collection's own check below takes those about its records, so a failure names the collection it is about).
 */
const traced = (rule: ProvenanceRule, needs: Need[] = [], collection?: string) =>
  settle(
    async (ctx) => {
      const { learned, answers } = await everyAnswer(ctx);
      const t0 = performance.now();
      const { violations, stats } = provenanceViolations(answers, rule, { collection });
      addWatchCost({ judgeMs: performance.now() - t0 }, watchDir());
      ctx.notes.add(`${stats.answers} answers of the run judged; ${stats.records} records traced; ${learned}`);
      assertNone(violations);
      const asked = PRESENTERS[rule].reduce((n, p) => n + (stats.byPresenter[p] ?? 0), 0);
      const why = unexercised(rule, stats, asked);
      if (why) notExercised(ctx, why);
    },
    { needs, collection },
  );

/** KEY-SECRET over every answer: those on a collection's path are its own (undefined: every other). */
const leakless = (collection?: string) =>
  settle(
    async (ctx) => {
      const { answers } = await everyAnswer(ctx);
      const t0 = performance.now();
      const leaks = keyLeakViolations(answers, { collection });
      addWatchCost({ judgeMs: performance.now() - t0 }, watchDir());
      // The answers this check is about: those on the collection's paths (payments': every other answer).
      const own = answers.filter((a) => a.scope.collection === collection).length;
      ctx.notes.add(`${own} of the run's ${answers.length} answers scanned`);
      assertNone(leaks);
      if (own === 0)
        notExercised(ctx, `no answer of the run was on ${collection ?? 'the payments'} paths: nothing to scan`);
    },
    { collection },
  );

test.describe('§5.9 No answer gives a key back', () => {
  // §5.9 "Keys must stay out of client-side code and must not be shared"; reading: "The key never appears in any
  // response, body or header: not whole, not encoded, and not as a large part of it" — in every answer of the run.
  test(
    'KEY-SECRET no answer of the run gives a key back, whole, encoded or most of it (every method, status, path, query and credential)',
    leakless(),
  );
});

test.describe('§1, §5, §7 No answer shows a record the request may not see', () => {
  // §1 "Objects created in one mode are not accessible from the other"; reading: the two listings of one merchant
  // share no record, under every query.
  test(
    'MODE-ISOLATION no answer of the run shows a record of the other mode (any query, any listing)',
    traced('MODE-ISOLATION'),
  );
  // reading: "listings of two different merchants share no record".
  test(
    "MER-ISOLATION no answer of the run shows another merchant's record on a merchant's listing",
    traced('MER-ISOLATION'),
  );
  // §5.6 "Only test keys can be used with sandbox merchants"; §7: the other mode's object is not found.
  test(
    'MODE-LIVE-SANDBOX no answer to the live key shows a sandbox record, whatever its status',
    traced('MODE-LIVE-SANDBOX', ['live']),
  );
  // §7 403 "The key lacks the permissions required"; reading: "A refusal reveals nothing".
  test(
    'AUTH-FORBIDDEN no answer to the restricted key shows a record, whatever its status',
    traced('AUTH-FORBIDDEN', ['restricted']),
  );
  // §5.2 "A request without a valid key is rejected with status 401" — and its answer carries nothing.
  test('AUTH-MISSING no answer without a key shows a record, whatever its method or status', traced('AUTH-MISSING'));
  test(
    'AUTH-INVALID no answer to a credential never issued shows a record, whatever its status',
    traced('AUTH-INVALID'),
  );
  test(
    'AUTH-REVOKED no answer to a revoked key shows a record, whatever its status',
    traced('AUTH-REVOKED', ['revoked']),
  );
  // reading: a bad key gets 401 "on any merchant, existing or not": an unknown merchant's refusal shows nothing either.
  test('AUTH-FIRST no answer to a bad key on an unknown merchant shows a record', traced('AUTH-FIRST'));
});

/** The same over every answer, for each other collection the run was given: its answers' keys, its records' crossings. */
const TRACED: ReadonlyArray<[ProvenanceRule, string, Need[]]> = [
  ['MODE-ISOLATION', 'no answer of the run shows one of its records of the other mode', []],
  ['MER-ISOLATION', "no answer of the run shows another merchant's record of it on a merchant's listing", []],
  ['MODE-LIVE-SANDBOX', 'no answer to the live key shows one of its sandbox records', ['live']],
  ['AUTH-FORBIDDEN', 'no answer to the restricted key shows one of its records it may not list', ['restricted']],
  ['AUTH-MISSING', 'no answer without a key shows one of its records', []],
  ['AUTH-INVALID', 'no answer to a credential never issued shows one of its records', []],
  ['AUTH-REVOKED', 'no answer to a revoked key shows one of its records', ['revoked']],
  ['AUTH-FIRST', 'no answer to a bad key on an unknown merchant shows one of its records', []],
];

eachCollection('§1, §5, §5.9, §7 Every answer of the run:', (c) => {
  test(
    titled('KEY-SECRET', c, 'no answer on its path gives a key back (every answer of the run)'),
    detailsOf(c),
    leakless(c.name),
  );
  for (const [rule, what, needs] of TRACED) test(titled(rule, c, what), detailsOf(c), traced(rule, needs, c.name));
});
