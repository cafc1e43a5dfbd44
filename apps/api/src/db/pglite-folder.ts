import { existsSync } from 'node:fs';
import path from 'node:path';

/**
 * Why a command that opens the PGlite folder itself (operator commands, backups) must not run
 * now, or null. The folder must hold a database no other process has open: PGlite has no lock
 * of its own, and two processes writing one folder corrupt it. It leaves `postmaster.pid` while
 * open (removed on a clean close), which is what we look for.
 */
export function pgliteFolderProblem(dataDir: string): string | null {
  if (dataDir === 'memory') {
    return 'DATA_DIR=memory: an in-memory database lives only inside the server process. Point DATA_DIR at the PGlite folder or set DATABASE_URL.';
  }
  if (!existsSync(path.join(dataDir, 'PG_VERSION'))) {
    return `No database in ${dataDir}. Start the server once (it creates and migrates it) or run DATA_DIR=${dataDir} npm run db:migrate -w @alda/api; set DATA_DIR or DATABASE_URL if it lives elsewhere (npm run dev keeps it in apps/api/data).`;
  }
  if (existsSync(path.join(dataDir, 'postmaster.pid'))) {
    return `The PGlite database in ${dataDir} is open in another process (is the server running?). PGlite can be opened by one process at a time: stop the server, run the command, start the server again — or use PostgreSQL (DATABASE_URL). If no process has it open (a crash left ${path.join(dataDir, 'postmaster.pid')} behind), delete that file.`;
  }
  return null;
}
