import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'api',
    root: fileURLToPath(new URL('.', import.meta.url)),
    environment: 'node',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    setupFiles: ['test/setup.ts'],
    // Each file builds its own app and database (PGlite in memory, or a fresh PostgreSQL database).
    testTimeout: 20_000,
    hookTimeout: 60_000,
    // Test files that share a worker share its modules (issue 45, CI time): each file still builds
    // its own app and database, but the app's ~440 modules are loaded once per worker instead of
    // once per file. Measured on PGlite, same session: 891 s → 558 s (import 333 s → 26 s).
    // What a process holds once is shared by the files then: the global HTTP agent (prism-router
    // opens its own connections) and the registry of recent writes (instance-memory.test waits
    // for another file's marks to run out before it counts queries).
    isolate: false,
  },
});
