import type { Database } from '../../db/client';

/** How long /readyz waits for the database before calling it unreachable. */
const PING_TIMEOUT_MS = 2_000;

export function createHealthService(deps: { database: Database }) {
  return {
    /** True when the database answers `select 1` in time. Never throws. */
    async databaseReachable(): Promise<boolean> {
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<false>((resolve) => {
        timer = setTimeout(() => resolve(false), PING_TIMEOUT_MS);
      });
      try {
        return await Promise.race([deps.database.ping().then(() => true), timeout]);
      } catch {
        return false;
      } finally {
        clearTimeout(timer);
      }
    },
  };
}

export type HealthService = ReturnType<typeof createHealthService>;
