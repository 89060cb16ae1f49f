/**
 * The run's pace, learned from the target (pure; the ledger keeps it for every worker). A target says how fast it
 * may be asked in its own headers — RateLimit-Policy (`"default";q=8;w=1`, or `8;w=1`), RateLimit (`"default";r=3;t=1`,
 * or `limit=8, remaining=3, reset=1`), RateLimit-Limit/-Remaining/-Reset and X-RateLimit-* — or only by answering
 * 429 Too Many Requests with a Retry-After. Either way the run then holds just under that rate (SLOT_SPACING),
 * never above API_MAX_RPS, and a 429 pauses every worker until its Retry-After: it is a hint, not an error. Under an
 * announced policy a single 429 is taken for jitter (only the pause); a second within 30 s slows the pace by 5 %.
 *
 * Without a policy header, the first 429 gives the estimate: the requests started since the run (or the last pause)
 * began, over the window the Retry-After suggests; each later 429 of a request that started under the learned pace
 * slows it by 10 %.
 */

/** What one answer says about the target's limit. */
export interface RateSignal {
  status: number;
  /** Retry-After of a 429 (or 503), in ms. */
  retryAfterMs?: number;
  /** The allowed rate the target announces: `limit` requests per `windowMs`. */
  policy?: { limit: number; windowMs: number };
  /** Requests left in the current window, and in how many ms it resets. */
  remaining?: number;
  resetMs?: number;
}

/** The shared pace: every field a time in ms since epoch, a count, or an interval in µs. */
export interface PaceState {
  /** The earliest start of the next request. */
  next: number;
  /** The learned interval between starts, µs (0: nothing learned). */
  intervalUs: number;
  /** No request starts before this (a 429's Retry-After). */
  pausedUntil: number;
  /** When the learned interval last changed: a 429 of a request started before says nothing of the new pace. */
  lastAdjust: number;
  /** Requests reserved when the current episode (the run, or the time since the last 429) began. */
  episodeCount: number;
  /** 1 when the interval comes from the target's policy header, 0 when estimated from 429s. */
  fromPolicy: number;
  /** When the last 429 came. */
  last429: number;
}

const FIELDS = ['next', 'intervalUs', 'pausedUntil', 'lastAdjust', 'episodeCount', 'fromPolicy', 'last429'] as const;
const WIDTH = 16;
/** The pace as fixed-width digits (written in place by the file ledger). */
export const PACE_BYTES = FIELDS.length * WIDTH;

/**
 * Starts this much wider than the limit allows, learned or configured (API_MAX_RPS): arrival jitter at the target must
 * not push one request over it.
 */
export const SLOT_SPACING = 1.02;
/** A 429 under an announced policy slows the pace only when another came this recently (else it was jitter). */
const REPEATED_429_MS = 30_000;
/** A Retry-After is honoured up to this long. */
export const MAX_PAUSE_MS = 30_000;

export const emptyPace = (): PaceState => ({
  next: 0,
  intervalUs: 0,
  pausedUntil: 0,
  lastAdjust: 0,
  episodeCount: 0,
  fromPolicy: 0,
  last429: 0,
});

export function serializePace(state: PaceState): string {
  return FIELDS.map((f) => String(Math.max(0, Math.ceil(state[f]))).padStart(WIDTH, '0')).join('');
}

/** Reads the fixed-width layout; a shorter text (an older ledger) leaves the missing fields at 0. */
export function parsePace(text: string): PaceState {
  const state = emptyPace();
  FIELDS.forEach((f, i) => {
    const n = Number(text.slice(i * WIDTH, (i + 1) * WIDTH));
    state[f] = Number.isFinite(n) ? n : 0;
  });
  return state;
}

/** The interval between starts: the configured one (API_MAX_RPS) or the learned one, whichever is wider. */
export const intervalOf = (state: PaceState, configuredMs: number): number =>
  Math.max(configuredMs, state.intervalUs / 1000);

/** Hands out the next start slot (ms since epoch) and moves the pace on. */
export function takeSlot(state: PaceState, now: number, configuredMs: number): number {
  const interval = intervalOf(state, configuredMs);
  const slot = Math.max(now, state.pausedUntil, interval > 0 ? state.next : 0);
  if (interval > 0) state.next = slot + interval;
  return slot;
}

/**
 * Heeds one answer to the request that started at `slot`, `count` requests into the run. Returns whether the
 * pace changed (the file ledger writes it back only then).
 */
export function heed(state: PaceState, signal: RateSignal, slot: number, now: number, count: number): boolean {
  let changed = false;
  if (signal.policy && signal.policy.limit > 0 && signal.policy.windowMs > 0) {
    const us = Math.ceil(((signal.policy.windowMs * 1000) / signal.policy.limit) * SLOT_SPACING);
    // The announced policy holds until it changes; where a 429 under it slowed the pace (below), that stays, unless
    // the target now announces a stricter policy or a much looser one.
    if (!state.fromPolicy || us > state.intervalUs || us < state.intervalUs / 1.3) {
      state.intervalUs = us;
      state.fromPolicy = 1;
      state.lastAdjust = now;
      // The request that brought the news started unpaced: the next one keeps the new distance from it.
      state.next = Math.max(state.next, slot + us / 1000);
      changed = true;
    }
  } else if (!state.fromPolicy && signal.remaining === 0 && (signal.resetMs ?? 0) > 0) {
    // No policy known: the window is spent, nobody starts before it resets.
    changed = pause(state, now + (signal.resetMs as number), count) || changed;
  }
  if (signal.status !== 429) return changed;
  const wait = Math.min(signal.retryAfterMs ?? 1000, MAX_PAUSE_MS);
  const repeated = state.last429 > 0 && now - state.last429 < REPEATED_429_MS;
  state.last429 = now;
  if (slot >= state.lastAdjust) {
    if (state.intervalUs > 0) {
      // Throttled under the learned pace (under an announced policy: twice within 30 s): slow down a little.
      if (!state.fromPolicy || repeated) {
        state.intervalUs = Math.ceil(state.intervalUs * (state.fromPolicy ? 1.05 : 1.1));
        state.lastAdjust = now;
        changed = true;
      }
    } else if (count - state.episodeCount - 1 >= 1) {
      // The first 429: the requests since the episode began were (about) what the window allows. (When none went
      // through, it says nothing of the rate: only the pause holds.)
      const windowMs = wait >= 1000 && wait <= 60_000 ? wait : 1000;
      const allowed = count - state.episodeCount - 1;
      state.intervalUs = Math.ceil(((windowMs * 1000) / allowed) * SLOT_SPACING);
      state.lastAdjust = now;
      changed = true;
    }
  }
  // The next estimate counts from here: the requests reserved after this 429.
  state.episodeCount = count;
  pause(state, now + wait, count);
  return true;
}

function pause(state: PaceState, until: number, count: number): boolean {
  if (until <= state.pausedUntil) return false;
  state.pausedUntil = until;
  state.episodeCount = count;
  return true;
}

/** The pace for a reader (progress lines, time limits): the learned rate, a pause in force. */
export function paceNow(state: PaceState, now = Date.now()): { learnedRps?: number; pausedUntil?: number } {
  return {
    ...(state.intervalUs > 0 ? { learnedRps: 1e6 / state.intervalUs } : {}),
    ...(state.pausedUntil > now ? { pausedUntil: state.pausedUntil } : {}),
  };
}

/** Seconds or an HTTP date (Retry-After, RFC 9110 §10.2.3), in ms from `now`; undefined when unreadable. */
function retryAfterOf(header: string | undefined, now = Date.now()): number | undefined {
  if (!header?.trim()) return undefined;
  const seconds = Number(header.trim());
  const ms = Number.isFinite(seconds) ? seconds * 1000 : Date.parse(header) - now;
  return Number.isFinite(ms) ? Math.min(Math.max(ms, 0), MAX_PAUSE_MS) : undefined;
}

/** The members of a structured-field list item (`"default";q=8;w=1`) or of a `k=v, k=v` list, by name. */
function params(value: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const part of value.split(/[;,]/)) {
    const m = /^\s*([A-Za-z-]+)\s*=\s*"?(\d+(?:\.\d+)?)"?\s*$/.exec(part);
    if (m) out.set((m[1] as string).toLowerCase(), Number(m[2]));
  }
  return out;
}

const num = (v: string | undefined): number | undefined => {
  const n = v === undefined ? Number.NaN : Number(v.split(',')[0]?.trim());
  return Number.isFinite(n) && n >= 0 ? n : undefined;
};

/** A reset given as seconds from now, or (past 10^9) as a Unix time in seconds, in ms from `now`. */
const resetOf = (seconds: number | undefined, now: number): number | undefined =>
  seconds === undefined ? undefined : seconds > 1e9 ? Math.max(0, seconds * 1000 - now) : seconds * 1000;

/** What an answer's status and headers (lower-case names) say about the target's limit. */
export function rateSignalOf(status: number, headers: Readonly<Record<string, string>>, now = Date.now()): RateSignal {
  const signal: RateSignal = { status };
  const retry = status === 429 || status === 503 ? retryAfterOf(headers['retry-after'], now) : undefined;
  if (retry !== undefined) signal.retryAfterMs = retry;
  // RateLimit-Policy: `"default";q=8;w=1` (draft 08 and later) or `8;w=1` (draft 07); the first policy counts.
  const policy = headers['ratelimit-policy']?.split(/,(?=\s*(?:"|\d))/)[0];
  if (policy) {
    const p = params(policy);
    const limit = p.get('q') ?? num(/^\s*(\d+)/.exec(policy)?.[1]);
    if (limit) signal.policy = { limit, windowMs: (p.get('w') ?? 1) * 1000 };
  }
  // RateLimit: `"default";r=3;t=1` (draft 08 and later) or `limit=8, remaining=3, reset=1` (draft 03).
  const combined = headers.ratelimit ? params(headers.ratelimit) : new Map<string, number>();
  const remaining =
    combined.get('r') ??
    combined.get('remaining') ??
    num(headers['ratelimit-remaining']) ??
    num(headers['x-ratelimit-remaining']);
  const reset = resetOf(
    combined.get('t') ?? combined.get('reset') ?? num(headers['ratelimit-reset']) ?? num(headers['x-ratelimit-reset']),
    now,
  );
  if (remaining !== undefined) signal.remaining = remaining;
  if (reset !== undefined) signal.resetMs = reset;
  return signal;
}
