import { existsSync } from 'node:fs';
import { openDatabase, type Database, type Db } from '../../../db/client';
import type { DemoDatabase } from './server';

/**
 * Where the demo TMF641 server keeps its tables (db/schema/tmf641-demo.ts).
 *
 * On PostgreSQL: the app's database (its own pool connections), so every instance shares the
 * orders. On the embedded PGlite: a PGlite database of its own — in memory with
 * `DATA_DIR=memory`, else the folder `<DATA_DIR>-tmf641-demo` beside the app's. Not the app's
 * PGlite, because that is one connection on which every query waits while a transaction is
 * open: the TMF641 adapter calls the OSS from inside provisioning's transactions, and a demo
 * server on the same PGlite would wait for that transaction, which waits for its answer.
 * The own database is opened (created and migrated, a few seconds the first time) on first use,
 * or at start by `openAtStart` — so that no request waits for it, and orders of an earlier run
 * go on; `close()` closes it.
 */
export function demoDatabase(
  app: Database,
  dataDir: string,
): DemoDatabase & { close(): Promise<void>; openAtStart(always: boolean): Promise<void> } {
  if (app.kind === 'postgres') {
    return {
      get: async () => app.db,
      opened: () => true,
      openAtStart: async () => {},
      close: async () => {},
    };
  }
  const folder = dataDir === 'memory' ? 'memory' : `${dataDir.replace(/[\\/]+$/, '')}-tmf641-demo`;
  let opening: Promise<Database> | null = null;
  let open: Database | null = null;
  const get = async (): Promise<Db> => {
    opening ??= (async () => {
      const database = await openDatabase({ dataDir: folder });
      await database.migrate();
      open = database;
      return database;
    })();
    return (await opening).db;
  };
  return {
    get,
    opened: () => open !== null,
    /** Opens it now if `always`, or if its folder holds the orders of an earlier run. */
    async openAtStart(always: boolean) {
      if (always || (folder !== 'memory' && existsSync(folder))) await get();
    },
    async close() {
      const database = opening ? await opening.catch(() => null) : null;
      opening = null;
      open = null;
      await database?.close();
    },
  };
}
