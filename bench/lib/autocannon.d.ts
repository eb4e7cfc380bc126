// The parts of autocannon (which ships no types) that the benchmarks use.
declare module 'autocannon' {
  export interface Histogram {
    readonly average: number;
    readonly mean: number;
    readonly stddev: number;
    readonly min: number;
    readonly max: number;
    readonly total: number;
    readonly p50: number;
    readonly p90: number;
    readonly p97_5: number;
    readonly p99: number;
    readonly p99_9: number;
  }

  export interface Result {
    readonly url: string;
    readonly requests: Histogram;
    readonly latency: Histogram;
    readonly throughput: Histogram;
    readonly duration: number;
    readonly errors: number;
    readonly timeouts: number;
    readonly non2xx: number;
    readonly connections: number;
    readonly statusCodeStats?: Record<string, { count: number }>;
  }

  export interface Request {
    method?: string;
    path?: string;
    headers?: Record<string, string>;
    body?: string | Buffer;
    /** Changes the request before it is sent, with the connection's context. */
    setupRequest?: (request: Request, context: Record<string, string>) => Request;
    /** Sees each answer; may store values in the connection's context for later requests. */
    onResponse?: (status: number, body: string, context: Record<string, string>, headers: Record<string, unknown>) => void;
  }

  export interface Options {
    url: string;
    connections?: number;
    duration?: number;
    amount?: number;
    pipelining?: number;
    timeout?: number;
    method?: string;
    headers?: Record<string, string>;
    body?: string | Buffer;
    requests?: Request[];
    /** Requests per second over all connections. */
    overallRate?: number;
    workers?: number;
  }

  export interface Instance extends PromiseLike<Result> {
    stop(): void;
    /** Each response: its status, size in bytes and time in ms (fractional). */
    on(event: 'response', listener: (client: unknown, statusCode: number, resBytes: number, responseTime: number) => void): this;
  }

  function autocannon(options: Options): Instance & Promise<Result>;
  export default autocannon;
}
