/**
 * The checks of the spellings of a merchant id (specs/5-merchant-spellings.spec.ts): the coverage phase sends a
 * credential on the coverage set (core/generate/spelled-ids.ts) where the test key learned what it means, the
 * property phase on spellings drawn from the whole grammar; every answer is judged by the access oracle as the
 * spelling's standing allows (checks/spelled-id.ts). The isolation checks read the test key's own answers.
 */

import { accessViolation } from '../../checks/access-oracle.ts';
import { sharedRecordsViolation } from '../../checks/isolation.ts';
import { settledWithoutFacts, spelledExpectation } from '../../checks/spelled-id.ts';
import { authOf, CANONICAL, keyModes } from '../generate/access-cases.ts';
import { type MerchantSpelling, spellingDrawArb, spellingOf, spellingSummary } from '../generate/spelled-ids.ts';
import type { Credential } from '../model/access.ts';
import { PAYMENTS } from '../model/collection.ts';
import { asKey, authLabel } from '../model/credentials.ts';
import { describeListing } from '../model/listing.ts';
import type { IsolatedListing } from '../model/result-set.ts';
import type { Violation } from '../model/verdict.ts';
import { assertNoViolation } from '../model/verdict.ts';
import { type CheckContext, notExercised } from './check.ts';
import { forAll } from './property.ts';
import {
  type AskedSpelling,
  askedCoverage,
  askSpelling,
  canonicalSet,
  classesOn,
  factsOf,
  type Role,
  recordsOf,
  roleOf,
  SPELLING_QUERY,
  sendSpelled,
  spelledMerchants,
  spelledPath,
} from './spelled-id-facts.ts';

/** Spellings drawn from the grammar per check, after the coverage set (each may cost a learning request too). */
const SPELLING_RUNS = 2;

const describeSpelling = (s: MerchantSpelling) => `${s.name} of ${s.merchant}: GET ${spelledPath(s)}`;

/** Notes the coverage set's classes and what was served, and returns it. */
async function coverage(ctx: CheckContext): Promise<AskedSpelling[]> {
  const learned = await askedCoverage(ctx.api, ctx.target);
  const served = learned.filter((l) => l.served);
  ctx.notes.add(
    spellingSummary(
      learned.map((l) => l.spelling),
      served.length,
    ),
  );
  return learned;
}

/** The spellings of `more` whose path none of `learned` has. */
function beyond(learned: readonly AskedSpelling[], more: readonly MerchantSpelling[]): MerchantSpelling[] {
  const paths = new Set(learned.map((l) => spelledPath(l.spelling)));
  return more.filter((s) => !paths.has(spelledPath(s)));
}

/** The first violation in full, naming how many more spellings failed. */
function firstOf(failed: Violation[]): Violation | undefined {
  const first = failed[0];
  if (first && failed.length > 1) first.received += ` (${failed.length - 1} more spelling(s) fail too)`;
  return first;
}

/** The draws of the property phase over the merchants of `roles`, each judged by `judge`. */
async function drawn(
  ctx: CheckContext,
  roles: readonly Role[],
  judge: (s: MerchantSpelling) => Promise<Violation | undefined>,
) {
  const all = spelledMerchants(ctx.target).map((m) => m.id);
  const scope = spelledMerchants(ctx.target)
    .filter((m) => roles.includes(m.role))
    .map((m) => m.id);
  if (scope.length === 0) return;
  await forAll(
    ctx,
    spellingDrawArb(scope),
    async (d) => {
      const s = spellingOf(scope, d, all);
      return s ? judge(s) : undefined;
    },
    {
      describe: (d) => {
        const s = spellingOf(scope, d, all);
        return s ? describeSpelling(s) : `${d.klass} (no spelling)`;
      },
      numRuns: SPELLING_RUNS,
    },
  );
}

interface CredentialScope {
  /** The merchants whose spellings the credential is tried on (default: every configured one). */
  roles?: readonly Role[];
  /** Also every coverage spelling of this merchant, served or not (a spelling only this key is served). */
  everyClassOn?: Role;
}

/**
 * One credential on the spellings: in the coverage phase on every spelling the test key is served (and, for
 * `everyClassOn`, on one spelling of every class), then on drawn spellings. Each answer is judged first against
 * the canonical answer; only an answer that is not one asks what the test key got there, and whose records it holds.
 */
export async function spelledCredential(ctx: CheckContext, credential: Credential, scope: CredentialScope = {}) {
  const { api, target: t } = ctx;
  const roles = scope.roles ?? spelledMerchants(t).map((m) => m.role);
  const modes = keyModes(t);
  const auth = authOf({
    credential,
    spelling: CANONICAL,
    endpoint: 'list',
    merchant: 'sandbox',
    collection: PAYMENTS,
    query: {},
  });
  const slot =
    credential.kind === 'key' && !credential.mutation && credential.slot !== 'revoked' && credential.slot !== 'old'
      ? credential.slot
      : undefined;
  const judge = async (s: MerchantSpelling, known?: AskedSpelling): Promise<Violation | undefined> => {
    const c = { credential, merchant: roleOf(t, s.merchant), spelling: s.name, query: SPELLING_QUERY };
    const strict = spelledExpectation(c, { served: true, resolved: true, forbiddenRecords: 0 }, modes);
    if (strict.rule !== ctx.rule) throw new Error(`a spelling check of ${ctx.rule} drew a case of ${strict.rule}`);
    const e = await sendSpelled(api, s, auth);
    if (settledWithoutFacts(strict, e)) {
      evidence += 1;
      return undefined;
    }
    const learned = known ?? (await askSpelling(api, t, s));
    const facts = await factsOf(ctx, learned, slot, e);
    // A 2xx is judged by the records it shares with a listing: without any (an empty or unreadable listing), it
    // could not have been found wrong.
    if (!facts.served || facts.resolved || facts.forbiddenRecords > 0) evidence += 1;
    return accessViolation(spelledExpectation(c, facts, modes), e, SPELLING_QUERY);
  };
  let evidence = 0;
  const learned = (await coverage(ctx)).filter((l) => roles.includes(l.role));
  const tried: Array<{ s: MerchantSpelling; known?: AskedSpelling }> = learned
    .filter((x) => x.served || x.role === scope.everyClassOn)
    .map((l) => ({ s: l.spelling, known: l }));
  // At strength 1 the coverage set takes the merchants in turn: the merchant the rule names still meets every class
  // (the test key asked there only where the answer needs it).
  if (scope.everyClassOn && t.depth.strength === 1)
    for (const s of beyond(learned, classesOn(t, scope.everyClassOn))) tried.push({ s });
  const failed: Violation[] = [];
  for (const { s, known } of tried) {
    const v = await judge(s, known);
    if (v) failed.push(v);
  }
  assertNoViolation(firstOf(failed));
  await drawn(ctx, roles, (s) => judge(s));
  if (evidence === 0)
    notExercised(
      ctx,
      'every spelling was served and no listing it was compared with held a record: no answer could be found wrong',
    );
}

/**
 * The test key's listing on a served spelling holds no record of another listing: another merchant's (MER-ISOLATION)
 * or, on the live merchant, the live mode's (MODE-ISOLATION). The coverage set's answers, then drawn spellings.
 */
export async function spelledIsolation(ctx: CheckContext, rule: 'MER-ISOLATION' | 'MODE-ISOLATION') {
  const { api, target: t } = ctx;
  const roles: Role[] = rule === 'MODE-ISOLATION' ? ['live'] : spelledMerchants(t).map((m) => m.role);
  /** The listings a spelling of `merchant` may not show, read whole (memoised per worker). */
  const othersOf = async (merchant: string) => {
    const wanted =
      rule === 'MODE-ISOLATION'
        ? [{ id: merchant, slot: 'live' as const }]
        : spelledMerchants(t)
            .filter((m) => m.id !== merchant)
            .map((m) => ({ id: m.id, slot: 'test' as const }));
    const out: IsolatedListing[] = [];
    for (const w of wanted) {
      const set = await canonicalSet(ctx, w.id, w.slot);
      if (set) out.push({ label: describeListing(set.listing), records: set.records, pages: set.pages });
    }
    return out;
  };
  let compared = 0;
  const judge = async (l: AskedSpelling): Promise<Violation | undefined> => {
    const records = recordsOf(l.answer);
    if (!l.served || records.length === 0) return undefined;
    const label = `${authLabel(asKey('test'))} on GET ${spelledPath(l.spelling)} (${l.spelling.name})`;
    const spelled: IsolatedListing = { label, records, pages: [{ exchange: l.answer }] };
    for (const other of await othersOf(l.spelling.merchant)) {
      // An empty listing shares nothing with any: only a comparison with records is evidence.
      if (other.records.length > 0) compared += 1;
      const v = sharedRecordsViolation(rule, spelled, other);
      if (v) return v;
    }
    return undefined;
  };
  const learned = (await coverage(ctx)).filter((l) => roles.includes(l.role));
  // MODE-ISOLATION names the live merchant alone: every class there, at strength 1 too (the set takes merchants in turn).
  if (rule === 'MODE-ISOLATION' && t.depth.strength === 1)
    for (const s of beyond(learned, classesOn(t, 'live'))) learned.push(await askSpelling(api, t, s));
  const failed: Violation[] = [];
  for (const l of learned) {
    const v = await judge(l);
    if (v) failed.push(v);
  }
  assertNoViolation(firstOf(failed));
  await drawn(ctx, roles, async (s) => judge(await askSpelling(api, t, s)));
  if (compared === 0) {
    notExercised(ctx, 'no spelling served with records met another listing with records: nothing to compare');
  }
}
