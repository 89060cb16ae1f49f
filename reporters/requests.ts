/**
 * The requests behind the verdicts: at the end of the run the rule matrix assembles the per-process files of the run's
 * request log (core/client/request-log.ts) into <reports>/requests.ndjson (one request a line) and
 * <reports>/requests.har (HAR 1.2, which browser dev tools and HAR viewers open). A check's requests are consecutive
 * lines (a worker runs one check at a time); blocks are in the order their first request was sent, the preflight
 * first. Each check's record gets `requestLines: [first, last]`. Secret-free: every line was redacted when written,
 * and is redacted again here.
 */

import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { LoggedRequest } from '../core/model/exchange.ts';
import { REPORT_FILES } from '../core/model/outputs.ts';
import { redactAssembled } from '../core/model/secrets.ts';

/** The logged requests in the order requests.ndjson lists them, and the lines [first, last] of each check's test id. */
export function orderRequests(files: LoggedRequest[][]): {
  entries: LoggedRequest[];
  lines: Map<string, [number, number]>;
} {
  // Blocks: the consecutive entries of one process that one check (or none) sent.
  const blocks: LoggedRequest[][] = [];
  for (const file of files) {
    let block: LoggedRequest[] = [];
    for (const e of file) {
      if (block.length > 0 && (block[0] as LoggedRequest).test !== e.test) {
        blocks.push(block);
        block = [];
      }
      block.push(e);
    }
    if (block.length > 0) blocks.push(block);
  }
  const first = (b: LoggedRequest[]) => (b[0] as LoggedRequest).time;
  const preflight = (b: LoggedRequest[]) => ((b[0] as LoggedRequest).check === 'preflight' ? 0 : 1);
  blocks.sort((a, b) => preflight(a) - preflight(b) || first(a).localeCompare(first(b)));
  const entries = blocks.flat();
  const lines = new Map<string, [number, number]>();
  let n = 0;
  for (const b of blocks) {
    const test = (b[0] as LoggedRequest).test;
    const [from, to] = [n + 1, n + b.length];
    n += b.length;
    if (!test) continue;
    const seen = lines.get(test);
    lines.set(test, seen ? [Math.min(seen[0], from), Math.max(seen[1], to)] : [from, to]);
  }
  return { entries, lines };
}

/** The log's files as entries (a line that is not JSON — a process killed mid-write — is skipped). */
function readRequestLog(dir: string): LoggedRequest[][] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith('.ndjson'))
    .sort()
    .map((f) =>
      readFileSync(join(dir, f), 'utf8')
        .split('\n')
        .filter(Boolean)
        .flatMap((line) => {
          try {
            return [JSON.parse(line) as LoggedRequest];
          } catch {
            return [];
          }
        }),
    );
}

const STATUS_TEXT: Record<number, string> = {
  200: 'OK',
  301: 'Moved Permanently',
  302: 'Found',
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  422: 'Unprocessable Content',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
};

const pageId = (e: LoggedRequest) => e.test ?? (e.check === 'preflight' ? 'preflight' : 'outside any check');

/** The requests as a HAR 1.2 log: one page per check, each entry with its check, rule, key slot and line. */
export function toHar(entries: LoggedRequest[], version: string) {
  const pages = new Map<string, { startedDateTime: string; id: string; title: string; pageTimings: object }>();
  for (const e of entries) {
    const id = pageId(e);
    if (!pages.has(id)) {
      pages.set(id, {
        startedDateTime: e.time,
        id,
        title: e.check ?? id,
        pageTimings: { onContentLoad: -1, onLoad: -1 },
      });
    }
  }
  const header = (name: string, value: string) => ({ name, value });
  const query = (url: string) => {
    try {
      return [...new URL(url).searchParams].map(([name, value]) => ({ name, value }));
    } catch {
      return [];
    }
  };
  return {
    log: {
      version: '1.2',
      creator: { name: 'payment-api-conformance', version },
      pages: [...pages.values()],
      entries: entries.map((e, i) => {
        const auth = e.authorization.startsWith('Authorization: ') ? e.authorization.slice(15) : undefined;
        return {
          pageref: pageId(e),
          startedDateTime: e.time,
          time: e.ms,
          request: {
            method: e.method,
            url: e.url,
            httpVersion: 'HTTP/1.1',
            cookies: [],
            headers: [header('accept', 'application/json'), ...(auth ? [header('authorization', auth)] : [])],
            queryString: query(e.url),
            headersSize: -1,
            bodySize: 0,
          },
          response: {
            status: e.status ?? 0,
            statusText: e.status === null ? (e.error ?? 'no answer') : (STATUS_TEXT[e.status] ?? ''),
            httpVersion: 'HTTP/1.1',
            cookies: [],
            headers: Object.entries(e.headers).map(([k, v]) => header(k, v)),
            content: {
              size: e.bodyLength,
              mimeType: e.headers['content-type'] ?? '',
              text: e.body,
              ...(e.truncated ? { comment: `cut at ${e.body.length} of ${e.bodyLength} characters` } : {}),
            },
            redirectURL: e.headers.location ?? '',
            headersSize: -1,
            bodySize: e.bodyLength,
          },
          cache: {},
          timings: { send: 0, wait: e.ms, receive: 0 },
          comment: `${e.check ?? 'outside any check'} (requests.ndjson line ${i + 1}; key: ${e.key})`,
          _check: e.check,
          _rule: e.rule,
          _key: e.key,
          _line: i + 1,
          ...(e.error ? { _error: e.error } : {}),
        };
      }),
    },
  };
}

/**
 * Writes requests.ndjson and requests.har into `outputDir` from the log in `logDir` (then removed); returns the lines of
 * each check's test id and the number of requests written.
 */
export function writeRequestLog(
  logDir: string,
  outputDir: string,
  version: string,
): { lines: Map<string, [number, number]>; count: number; methods: string[] } {
  const { entries, lines } = orderRequests(readRequestLog(logDir));
  // Each entry was redacted field by field when it was logged (core/client/request-log.ts): a cheap last pass here.
  writeFileSync(
    join(outputDir, REPORT_FILES.requests),
    redactAssembled(entries.map((e) => `${JSON.stringify(e)}\n`).join('')),
  );
  const har = toHar(entries, version);
  writeFileSync(join(outputDir, REPORT_FILES.har), redactAssembled(`${JSON.stringify(har, null, 1)}\n`));
  rmSync(logDir, { recursive: true, force: true });
  // The methods the run sent, from the log itself: the proof that it stayed read-only (GET, HEAD, OPTIONS).
  const methods = [...new Set(entries.map((e) => e.method))].sort();
  return { lines, count: entries.length, methods };
}
