import { fileURLToPath, URL } from 'node:url';
import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

const src = fileURLToPath(new URL('./src', import.meta.url));

export default defineConfig({
  plugins: [react()],
  resolve: {
    // The ES builds of the libraries, as in the web app's tests (apps/web/vitest.config.ts).
    conditions: ['module', 'browser', 'development'],
    alias: [
      { find: /^@\/(.*)$/, replacement: `${src}/$1` },
      { find: /^zod$/, replacement: `${src}/shared/zod-jitless.ts` },
      { find: /^zod\/mini$/, replacement: `${src}/shared/zod-mini-jitless.ts` },
      {
        find: /^@testing-library\/react$/,
        replacement: '@testing-library/react/dist/@testing-library/react.esm.js',
      },
    ],
  },
  test: {
    name: 'console',
    root: fileURLToPath(new URL('.', import.meta.url)),
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['src/test/setup.ts'],
    restoreMocks: true,
    // As the web project (apps/web/vitest.config.ts says why): a VM context per test file on
    // kept worker threads. The console took 75 s on threads, 46 s here (same sitting).
    pool: 'vmThreads',
    unstubGlobals: true,
    unstubEnvs: true,
    // A test that types a paragraph renders once per key: ~2 s here, over vitest's 5-s default
    // on a busy CI machine (the console's content editor, stop of 2026-11-27). A timed-out test's
    // typing also goes on into the next test's page, so the limit is set for a busy machine.
    testTimeout: 20_000,
  },
});
