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
  },
});
