/**
 * Sending one door request (core/run/doors.ts): a base request of the suite with what the door adds — candidates in
 * the query, the headers and one Cookie header (a key by its slot only: the client writes it at the last moment), a
 * documented query shape, an operator's spelling of the merchant id, documented headers left out or changed.
 */
import type { ApiClient } from '../client/http.ts';
import { authOf } from '../generate/access-cases.ts';
import { spelledPaymentsPath } from '../generate/spelled-ids.ts';
import type { Added, DoorBase, DoorValue } from '../model/doors.ts';
import type { Exchange, ExtraInputs, ValuePieces } from '../model/exchange.ts';
import { requestQuery } from '../model/listing.ts';
import type { Target } from '../model/target.ts';
import { basePath } from './door-bases.ts';

const piece = (v: DoorValue): ValuePieces => [v];

/** The inputs of `added` as the client takes them: query pairs, headers, one Cookie header. */
function extraOf(added: Added, changed?: ExtraInputs): ExtraInputs {
  const query: Array<[string, string]> = [];
  const headers: Array<{ name: string; value: ValuePieces }> = [...(changed?.headers ?? [])];
  const cookie: Array<string | DoorValue> = [];
  for (const { candidate: c, value } of added.inputs) {
    if (c.channel === 'query' && typeof value === 'string') query.push([c.name, value]);
    else if (c.channel === 'header') headers.push({ name: c.name, value: piece(value) });
    else if (c.channel === 'cookie') cookie.push(...(cookie.length ? ['; '] : []), `${c.name}=`, value);
  }
  if (cookie.length) headers.push({ name: 'Cookie', value: cookie });
  return {
    query,
    headers,
    ...(changed?.keyedQuery ? { keyedQuery: changed.keyedQuery } : {}),
    ...(changed?.omit ? { omit: changed.omit } : {}),
  };
}

/** Sends a base request with what the door adds. */
export function sendDoor(
  api: ApiClient,
  t: Target,
  base: DoorBase,
  added: Added,
  changed?: ExtraInputs,
): Promise<Exchange> {
  const path = added.segment ? spelledPaymentsPath(added.segment.segment) : basePath(t, base.case);
  const extra = extraOf(added, changed);
  const plain = added.inputs.length === 0 && !changed;
  return api.get(path, { query: requestQuery(added.shape), auth: authOf(base.case), ...(plain ? {} : { extra }) });
}
