import type { FastifyBaseLogger } from 'fastify';

/**
 * Work that finishes after the answer has been sent (the password reset e-mail: its delivery
 * time must not tell a caller whether the address has an account). Failures are logged; the app
 * waits for unfinished work when it closes, and tests can wait with `idle()`.
 */
export function createBackgroundTasks(log: FastifyBaseLogger) {
  const running = new Set<Promise<void>>();
  return {
    run(name: string, work: () => Promise<void>): void {
      const task = (async () => {
        try {
          await work();
        } catch (error) {
          log.error({ err: error, task: name }, 'background task failed');
        }
      })();
      running.add(task);
      void task.finally(() => running.delete(task));
    },
    /** Resolves when every task started so far (and any they started) has finished. */
    async idle(): Promise<void> {
      while (running.size > 0) await Promise.all([...running]);
    },
  };
}

export type BackgroundTasks = ReturnType<typeof createBackgroundTasks>;
