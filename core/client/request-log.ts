/**
 * The run's request log, written while the run goes: every request any client of the run sends (every attempt: the
 * preflight, retries after a 429 or a transport error), one JSON line each, appended to a file of its own process
 * in the run's folder of request logs (the run context's files.requestLog; workers are separate processes, and a file per
 * process needs no lock). At the end of the run the rule matrix assembles them into requests.ndjson and requests.har
 * (reporters/requests.ts). The fixture opens it and hands it to the client, like the ledger; without a run (unit
 * tests, scripts, the self-test's proof) nothing is logged. Each entry names what it was sent for from the exchange's
 * own tag (the check, or the preflight), never from a state of the process.
 *
 * An entry names the key's slot (`API_TEST_KEY`), never the key; its URL, headers and body pass `redact` before
 * they are written, and the body is cut at BODY_LIMIT characters (after redaction, so no cut hides a key).
 */
import { openSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { type Auth, authLabel, KEY_VARS } from '../model/credentials.ts';
import type { SafeMethod } from '../model/endpoints.ts';
import type { LoggedRequest, RequestTag } from '../model/exchange.ts';
import { redact } from '../model/secrets.ts';

/** One attempt on the wire, as the client's observer sees it (ApiClient's `onExchange`). */
export interface WireExchange {
  /** When it was sent (ms since the epoch), after any pacing wait. */
  started: number;
  /** How long it took, to the last byte of the answer or to the failure. */
  ms: number;
  method: SafeMethod;
  url: string;
  auth: Auth;
  /** The answer; absent when the attempt failed in transport. */
  response?: { status: number; headers: Record<string, string>; text: string };
  /** The transport failure, in words. */
  error?: string;
  /** What it was sent for (the check, or the preflight); absent outside any. */
  sentFor?: RequestTag;
}

export type ExchangeObserver = (e: WireExchange) => void;

/** Characters of a response body kept in the log. */
export const BODY_LIMIT = 4096;

const keySlotName = (auth: Auth): string =>
  auth.kind === 'key' ? KEY_VARS[auth.slot] : auth.kind === 'literal' ? 'literal' : 'none';

/** An entry as logged: secret-free, the body cut. */
export function logEntry(e: WireExchange): LoggedRequest {
  const who = e.sentFor;
  const text = redact(e.response?.text ?? '');
  const headers = Object.fromEntries(Object.entries(e.response?.headers ?? {}).map(([k, v]) => [k, redact(String(v))]));
  return {
    time: new Date(e.started).toISOString(),
    ms: Math.round(e.ms * 10) / 10,
    check: who?.check ?? null,
    rule: who?.rule ?? null,
    test: who?.test ?? null,
    method: e.method,
    url: redact(e.url),
    key: keySlotName(e.auth),
    authorization: redact(authLabel(e.auth)),
    status: e.response?.status ?? null,
    ...(e.error !== undefined ? { error: redact(e.error) } : {}),
    headers,
    body: text.length > BODY_LIMIT ? text.slice(0, BODY_LIMIT) : text,
    bodyLength: text.length,
    truncated: text.length > BODY_LIMIT,
  };
}

/** The run's request log as one process writes it: the observer of its clients, and the lines of each check. */
export interface RequestLog {
  /** Appends one attempt (the client's `onExchange`). */
  write: ExchangeObserver;
  /** The lines logged for a check (by its test id) since the last take: what a report attaches to a finding. */
  take(test: string): string[];
}

/** This process's file of the run's request log in `dir` (the run context's files.requestLog); undefined without. */
export function openRequestLog(dir: string | undefined): RequestLog | undefined {
  if (!dir) return undefined;
  let fd: number | undefined;
  const lines = new Map<string, string[]>();
  return {
    write: (e) => {
      fd ??= openSync(join(dir, `${process.pid}.ndjson`), 'a');
      const line = JSON.stringify(logEntry(e));
      // One write per line, synchronous: a worker that is replaced or killed has written every request it sent.
      writeSync(fd, `${line}\n`);
      const test = e.sentFor?.test;
      if (test) {
        const of = lines.get(test);
        if (of) of.push(line);
        else lines.set(test, [line]);
      }
    },
    take: (test) => {
      const taken = lines.get(test) ?? [];
      lines.delete(test);
      return taken;
    },
  };
}
