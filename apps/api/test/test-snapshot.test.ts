import { PGlite } from '@electric-sql/pglite';
import { describe, expect, it } from 'vitest';
import { PGLITE_EXTENSIONS } from '../src/db/client';
import { pgliteSnapshot, usingPostgres } from './helper';

// The snapshot every PGlite test app starts from is cut down to start faster (helper.ts,
// slimForTests; issue 45, CI time). If that step were lost, the suite would still pass, only
// slower: this test is what notices.
describe.skipIf(usingPostgres)('the PGlite test snapshot', () => {
  it('holds only the migrated database, with small shared buffers', async () => {
    const client = new PGlite({ extensions: PGLITE_EXTENSIONS, loadDataDir: await pgliteSnapshot() });
    try {
      const databases = await client.query<{ datname: string }>('select datname from pg_database');
      expect(databases.rows.map((row) => row.datname)).toEqual(['postgres']);
      const buffers = await client.query<{ shared_buffers: string }>('show shared_buffers');
      expect(buffers.rows[0]?.shared_buffers).toBe('16MB');
      const migrated = await client.query<{ n: number }>(
        `select count(*)::int as n from information_schema.tables where table_schema = 'public'`,
      );
      expect(migrated.rows[0]?.n).toBeGreaterThan(10);
    } finally {
      await client.close();
    }
  });
});
