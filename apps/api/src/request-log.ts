import { LogController, type FastifyBaseLogger } from 'fastify';
import type { Bindings, ChildLoggerOptions, Logger } from 'pino';

type Level = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';
type LogArgs = Parameters<FastifyBaseLogger['info']>;

/**
 * One log line per request, when it completes, with the request and the answer (issue 13: the
 * default two lines, "incoming request" and "request completed", doubled the logging cost of
 * every poll). It is written by the server's logger with the request id as a field, the same
 * line a per-request child would write, so a request that logs nothing else never makes one
 * (`lazyRequestLogger`). Errors are logged as before.
 */
export class OneLineRequestLog extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(
    ...[error, request, reply, metadata]: Parameters<LogController['requestCompleted']>
  ): void {
    if (error || this.isLogDisabled(request)) {
      super.requestCompleted(error, request, reply, metadata);
      return;
    }
    const log = request.server.log;
    if (!(log as Partial<Logger>).isLevelEnabled?.('info')) return;
    log.info(
      {
        [this.requestIdLogLabel]: request.id,
        req: request,
        res: reply,
        responseTime: reply.elapsedTime,
      },
      'request completed',
    );
  }
}

/**
 * The logger of one request: pino's child with the request id, made the first time something is
 * written through it. Fastify asks for one on every request, and making it (the bindings
 * serialized, the redaction set up) was a visible share of a poll's cost (issue 13); most
 * requests write nothing but the completion line above. A call at a level the server's logger
 * does not write (the debug line of the status check at `info`) makes no child either.
 */
class LazyRequestLogger implements FastifyBaseLogger {
  #child: FastifyBaseLogger | undefined;

  constructor(
    private readonly parent: FastifyBaseLogger,
    private readonly bindings: Bindings,
    private readonly options: ChildLoggerOptions,
  ) {}

  private get logger(): FastifyBaseLogger {
    this.#child ??= this.parent.child(this.bindings, this.options);
    return this.#child;
  }

  private write(level: Level, args: LogArgs): void {
    if (this.#child === undefined && !(this.parent as Partial<Logger>).isLevelEnabled?.(level)) {
      return;
    }
    (this.logger[level] as (...args: LogArgs) => void)(...args);
  }

  get level(): string {
    return this.#child?.level ?? this.parent.level;
  }

  set level(level: string) {
    this.logger.level = level;
  }

  // Methods on the prototype: nothing is allocated per request but the object itself.
  fatal(...args: LogArgs): void {
    this.write('fatal', args);
  }

  error(...args: LogArgs): void {
    this.write('error', args);
  }

  warn(...args: LogArgs): void {
    this.write('warn', args);
  }

  info(...args: LogArgs): void {
    this.write('info', args);
  }

  debug(...args: LogArgs): void {
    this.write('debug', args);
  }

  trace(...args: LogArgs): void {
    this.write('trace', args);
  }

  silent(): void {}

  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.logger.child(bindings, options);
  }
}

/** Fastify's `childLoggerFactory`: a lazy child, unless the route asks for its own level. */
export function lazyRequestLogger(
  logger: FastifyBaseLogger,
  bindings: Bindings,
  options: ChildLoggerOptions,
): FastifyBaseLogger {
  if (options.level !== undefined || options.serializers !== undefined) {
    return logger.child(bindings, options);
  }
  return new LazyRequestLogger(logger, bindings, options);
}
