/** The part of autocannon 9's programmatic API the benchmark uses (the package ships no types). */
declare module 'autocannon' {
  namespace autocannon {
    interface Options {
      url: string;
      connections?: number;
      /** Seconds. */
      duration?: number;
      method?: string;
      headers?: Record<string, string>;
      /** Seconds per request. */
      timeout?: number;
    }
    /** Percentiles are keyed p50, p97_5, p99, p99_9…; values in ms (latency) or per second (requests). */
    interface Stats {
      average: number;
      mean: number;
      stddev: number;
      min: number;
      max: number;
      total?: number;
      p50: number;
      p90: number;
      p99: number;
    }
    interface Result {
      duration: number;
      errors: number;
      timeouts: number;
      non2xx: number;
      resets: number;
      '2xx': number;
      '4xx': number;
      '5xx': number;
      statusCodeStats: Record<string, { count: number }>;
      latency: Stats;
      requests: Stats & { sent: number };
    }
    interface Instance extends PromiseLike<Result> {
      stop(): void;
    }
  }
  function autocannon(opts: autocannon.Options): autocannon.Instance;
  export = autocannon;
}
