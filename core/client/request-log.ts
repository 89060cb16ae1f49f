/**
 * The run's request log, written while the run goes: every request any client of the run sends (every attempt: the
 * preflight, retries after a 429 or a transport error), one JSON line each, appended to a file of its own process
 * under CONFORMANCE_REQUEST_LOG (set by playwright.config.ts; workers are separate processes, and a file per process
 * needs no lock). At the end of the run the rule matrix assembles them into requests.ndjson and requests.har
 * (reporters/requests.ts). Like the ledger, a client opens it from the environment: without the variable (unit
 * tests, scripts, the self-test's matrix) nothing is logged.
 *
 * An entry names the key's slot (`API_TEST_KEY`), never the key; its URL, headers and body pass `redact` before
 * they are written, and the body is cut at BODY_LIMIT characters (after redaction, so no cut hides a key).
 */
import { closeSync, openSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { type Auth, authLabel, KEY_VARS } from '../model/credentials.ts';
import type { SafeMethod } from '../model/endpoints.ts';
import type { LoggedRequest } from '../model/exchange.ts';
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
}

export type ExchangeObserver = (e: WireExchange) => void;

/** Characters of a response body kept in the log. */
export const BODY_LIMIT = 4096;

export const keySlotName = (auth: Auth): string =>
  auth.kind === 'key' ? KEY_VARS[auth.slot] : auth.kind === 'literal' ? 'literal' : 'none';

/** The check the current process is running (one at a time per worker): set by settle, fixtures/test.ts. */
let current: { test: string; check: string; rule: string } | undefined;
/** The lines logged for the current check, for its report (the requests behind its verdict). */
let currentLines: string[] = [];

/** The check the current process is running, if any (its title names the requests a watcher keeps). */
export const currentCheck = (): { test: string; check: string; rule: string } | undefined => current;

export function beginCheck(check: { test: string; check: string; rule: string }): void {
  current = check;
  currentLines = [];
}

/** Ends the current check; returns the lines logged for it (what a report attaches to a finding). */
export function endCheck(): string[] {
  const lines = currentLines;
  current = undefined;
  currentLines = [];
  return lines;
}

/** An entry as logged: secret-free, the body cut. */
export function logEntry(
  e: WireExchange,
  who = current,
  isMain = process.env.TEST_WORKER_INDEX === undefined,
): LoggedRequest {
  const text = redact(e.response?.text ?? '');
  const headers = Object.fromEntries(Object.entries(e.response?.headers ?? {}).map(([k, v]) => [k, redact(String(v))]));
  return {
    time: new Date(e.started).toISOString(),
    ms: Math.round(e.ms * 10) / 10,
    check: who?.check ?? (isMain ? 'preflight' : null),
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

let fd: number | undefined;
let openedFor: string | undefined;

/** The observer that appends to this process's file of the run's request log, or undefined without a log. */
export function openRequestLog(env: NodeJS.ProcessEnv = process.env): ExchangeObserver | undefined {
  const dir = env.CONFORMANCE_REQUEST_LOG?.trim();
  if (!dir) return undefined;
  return (e) => {
    if (fd === undefined || openedFor !== dir) {
      if (fd !== undefined) closeSync(fd);
      fd = openSync(join(dir, `${process.pid}.ndjson`), 'a');
      openedFor = dir;
    }
    const line = JSON.stringify(logEntry(e));
    // One write per line, synchronous: a worker that is replaced or killed has written every request it sent.
    writeSync(fd, `${line}\n`);
    if (current) currentLines.push(line);
  };
}
