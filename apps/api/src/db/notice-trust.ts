import type { Database, NotificationHandler } from './client';

/**
 * Whether an instance's memory, kept true by NOTIFYs, may be trusted right now
 * (docs/decisions/0057-instance-memory.md): not before its LISTENs are in place, not while the
 * LISTEN connection is down, and from scratch once it is back (what was sent meanwhile is
 * lost). `epoch` moves whenever the memory starts over: a database read that began in another
 * epoch may be answered but must not be kept.
 */
export interface NoticeTrust {
  readonly trusted: boolean;
  readonly epoch: number;
  /** True when a read begun in `startedIn`, trusted then, may be kept now. */
  mayKeep(startedIn: number): boolean;
  /** Starts the memory over (a new epoch); also for a memory that outgrew its bound. */
  forget(): void;
  /** LISTENs on the channels; trusted from then on until the returned stop. */
  listen(
    channels: readonly (readonly [string, NotificationHandler])[],
  ): Promise<() => Promise<void>>;
}

/** `clear` empties the memory this trust guards; it runs whenever the memory starts over. */
export function createNoticeTrust(
  database: Pick<Database, 'listen'>,
  clear: () => void,
): NoticeTrust {
  let trusted = false;
  let epoch = 0;
  const forget = () => {
    epoch += 1;
    clear();
  };
  const options = {
    onLost: () => {
      trusted = false;
      forget();
    },
    onReconnected: () => {
      forget();
      trusted = true;
    },
  };
  return {
    get trusted() {
      return trusted;
    },
    get epoch() {
      return epoch;
    },
    mayKeep: (startedIn) => trusted && epoch === startedIn,
    forget,
    async listen(channels) {
      const stops: (() => Promise<void>)[] = [];
      for (const [channel, handler] of channels) {
        stops.push(await database.listen(channel, handler, options));
      }
      forget();
      trusted = true;
      return async () => {
        trusted = false;
        forget();
        await Promise.all(stops.map((stop) => stop()));
      };
    },
  };
}
