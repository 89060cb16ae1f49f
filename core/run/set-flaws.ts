/**
 * What the pages of a result set break by themselves, as they were read (the walker records it on the set): the rules
 * a page can be judged by with nothing but what was sent, its own fields and the pages read before it. An expectation
 * computed from the set names them (core/model/result-set.ts `basedOn`), so that a failure counted from short pages
 * says it may follow from PAG-SIZE instead of pointing at a filter that is right.
 *
 * A page whose size disagrees with its own offset, limit and total is read in context, since one page cannot say
 * whether its size or its total is wrong: short with records on later pages, the page is short (PAG-SIZE); the pages
 * ending before the total, or new records past it, the total is wrong (PAG-TOTAL); a page past its total repeating
 * records read before is a past-the-end page that is not empty (PAG-EMPTY).
 */
import { echoesAsSent, identity, readEnvelope, sizeBreakOf } from '../model/listing.ts';
import type { Flaw, Page } from '../model/result-set.ts';
import type { RuleId } from '../model/rules.ts';

/**
 * The flaws of pages read at `limit` (each sent with that limit and its own offset), one per rule: how the first page
 * that shows it breaks it, and the offsets of every page that does. A page that is no listing is the walker's to
 * refuse, never a flaw.
 */
export function flawsOf(pages: readonly Page[], limit: number, defaultLimit: number): Flaw[] {
  const found = new Map<RuleId, { why: string; offsets: number[]; alike?: RuleId[] }>();
  const note = (rule: RuleId, offset: number, why: string, alike?: RuleId[]) => {
    const seen = found.get(rule);
    if (!seen) found.set(rule, { why, offsets: [offset], ...(alike ? { alike } : {}) });
    else if (!seen.offsets.includes(offset)) seen.offsets.push(offset);
  };
  const envelopes = pages.map((p) => readEnvelope(p.exchange));
  const firstTotal = envelopes[0]?.total;
  const lastWithData = Math.max(-1, ...envelopes.map((env, i) => ((env?.data.length ?? 0) > 0 ? i : -1)));
  const idOf = identity(envelopes.flatMap((env) => env?.data ?? []));
  const read = new Map<string, number>();
  for (const [i, { offset }] of pages.entries()) {
    const env = envelopes[i];
    if (!env) continue;
    const at = `page at offset ${offset}`;
    if (!echoesAsSent(env, { offset, limit }, defaultLimit)) {
      note(
        'PAG-ECHO',
        offset,
        `${at} echoes offset ${env.offset} and limit ${env.limit} (sent ${offset} and ${limit})`,
      );
    }
    if (firstTotal !== undefined && env.total !== firstTotal) {
      note('PAG-TOTAL', offset, `${at} says total ${env.total} where its first page says ${firstTotal}`);
    }
    const ids = env.data.map(idOf);
    const size = sizeBreakOf(env);
    const pastEnd = offset >= env.total && ids.length > 0;
    if (pastEnd && ids.every((id) => read.has(id))) {
      note('PAG-EMPTY', offset, `${at}, at or past its total ${env.total}, repeats ${ids.length} records read before`);
    } else if (pastEnd) {
      note('PAG-TOTAL', offset, `${at}, past its total ${env.total}, holds records not read before`);
    } else if (size && i >= lastWithData && env.data.length < Math.min(env.limit, env.total - env.offset)) {
      // A total too high, or a record skipped on the way: PAG-PARTITION's checks judge a gap themselves.
      const why = `pages end after ${read.size + ids.length} records where the total says ${env.total}`;
      note('PAG-TOTAL', offset, why, ['PAG-PARTITION']);
    } else if (size) {
      note('PAG-SIZE', offset, `${at} ${size}`);
    }
    if (pastEnd) continue; // a page past the end repeats what PAG-EMPTY or PAG-TOTAL explains
    for (const [k, id] of ids.entries()) {
      const before = read.get(id);
      if (before !== undefined)
        note('PAG-PARTITION', offset, `pages hold a record twice (at offset ${before} and ${offset + k})`);
      else read.set(id, offset + k);
    }
  }
  return [...found].map(([rule, { why, offsets, alike }]) => {
    const n = offsets.length;
    const more = n === 1 ? why : `${why}, as ${n === 2 ? 'does 1 more' : `do ${n - 1} more`} of its pages`;
    return { rule, why: more, offsets, ...(alike ? { alike } : {}) };
  });
}
