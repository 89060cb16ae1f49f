/**
 * The named combinations of legal variants the proof runs on every run (tests/proof/playwright.config.ts): combinations
 * a real API would make together, and the defaults. Each value of each axis alone is not run: the
 * legal space's covering draw gives every value in some combination on every run.
 */
export const VARIANT_SETS: Record<string, string[]> = {
  default: [],
  strict: [
    'over-limit=reject',
    'invalid=422',
    'unknown-status=reject',
    'unknown-sort=reject',
    'unknown-merchant=403',
    'method=404',
    'documented-headers=enforced',
    'unknown-params=reject',
    'busy=retry-after',
  ],
  lenient: [
    'invalid=coerce',
    'unknown-sort=ignore',
    'amount=string',
    'extras=on',
    'ties=reverse',
    'unsorted=newest',
    'merchant-lookup=collation',
  ],
  'reject-400': ['over-limit=reject', 'invalid=400', 'unknown-status=reject', 'ties=reverse', 'amount=string'],
  // Integer ids, which a refund shares with a payment (1001, 1002, …: the watcher must not take one for the other),
  // with more of the axes that touch a listing's path and answers.
  'shared-ids': [
    'ids=integer',
    'amount=decimal',
    'errors=rich',
    'options=cors',
    'head=refused',
    'prefix=api',
    'merchant-lookup=nfkc',
  ],
};
