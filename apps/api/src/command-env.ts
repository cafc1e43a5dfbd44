import path from 'node:path';

/**
 * The environment of a command run through npm (`npm run operator`, `npm run db:backup`): npm
 * runs it in apps/api, so a relative DATA_DIR (and the default ./data) means the folder where the
 * command was typed (npm's INIT_CWD), as for `npm start` at the repository root.
 */
export function commandEnv(env: NodeJS.ProcessEnv): Record<string, string | undefined> {
  if (env.DATABASE_URL || !env.INIT_CWD || env.DATA_DIR === 'memory') return env;
  return { ...env, DATA_DIR: path.resolve(env.INIT_CWD, env.DATA_DIR || './data') };
}

/** A path the operator typed, taken from where they typed it. */
export function commandPath(env: NodeJS.ProcessEnv, file: string): string {
  return path.resolve(env.INIT_CWD ?? process.cwd(), file);
}
