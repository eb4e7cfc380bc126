import type { FastifyBaseLogger } from 'fastify';
import type { Bindings, ChildLoggerOptions, LogFn, Logger } from 'pino';

type Level = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';

/**
 * A request's logger that makes its pino child (with the request id) only when a line is
 * logged through it at an enabled level. Most requests log nothing through their own logger,
 * and a child per request was a large part of what logging cost at `warn`.
 */
class LazyChild {
  #child: Logger | undefined;
  constructor(
    private readonly parent: Logger,
    private readonly childBindings: Bindings,
    private readonly options: ChildLoggerOptions,
  ) {}

  get real(): Logger {
    this.#child ??= this.parent.child(this.childBindings, this.options);
    return this.#child;
  }
  get level(): string {
    return (this.#child ?? this.parent).level;
  }
  set level(level: string) {
    this.real.level = level;
  }
  child(bindings: Bindings, options?: ChildLoggerOptions): Logger {
    return this.real.child(bindings, options);
  }
  bindings(): Bindings {
    return { ...(this.#child ?? this.parent).bindings(), ...(this.#child ? {} : this.childBindings) };
  }
  isLevelEnabled(level: string): boolean {
    return (this.#child ?? this.parent).isLevelEnabled(level);
  }
  silent(): void {}
}

const levelMethod = (level: Level): LogFn =>
  function (this: LazyChild, ...args: unknown[]) {
    if (this.isLevelEnabled(level)) (this.real[level] as (...a: unknown[]) => void)(...args);
  } as LogFn;
for (const level of ['fatal', 'error', 'warn', 'info', 'debug', 'trace'] as const) {
  Object.defineProperty(LazyChild.prototype, level, { value: levelMethod(level) });
}

/** A request's logger under `parent` (Fastify's childLoggerFactory); a route with its own log level or serializers gets its child at once. */
export const lazyChildLogger = (parent: Logger, bindings: Bindings, options: ChildLoggerOptions): FastifyBaseLogger =>
  options.level !== undefined || options.serializers !== undefined
    ? parent.child(bindings, options)
    : (new LazyChild(parent, bindings, options) as unknown as FastifyBaseLogger);
