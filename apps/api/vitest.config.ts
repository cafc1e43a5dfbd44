import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: {
    // Same mapping as tsconfig.json "paths": the contract's JSON locale files.
    alias: {
      '@alda/contract/locales': fileURLToPath(
        new URL('../../packages/contract/src/locales', import.meta.url),
      ),
    },
  },
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
