import { fileURLToPath, URL } from 'node:url';
import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';
import { textParts } from './text-parts-plugin';

export default defineConfig({
  plugins: [react(), textParts()],
  resolve: {
    // The ES builds of the libraries (their CommonJS builds `require('react')`, which no alias
    // reaches).
    conditions: ['module', 'browser', 'development'],
    alias: [
      { find: /^@\/(.*)$/, replacement: `${fileURLToPath(new URL('./src', import.meta.url))}/$1` },
      // Its package.json names the ES build under `module` only, which Node's resolution skips.
      {
        find: /^@testing-library\/react$/,
        replacement: '@testing-library/react/dist/@testing-library/react.esm.js',
      },
    ],
  },
  test: {
    name: 'web',
    root: fileURLToPath(new URL('.', import.meta.url)),
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['src/test/setup.ts'],
    restoreMocks: true,
    // Each test file in its own VM context on a kept worker thread, the libraries loaded by Node
    // rather than through Vite's transform (issue 45, CI time): a new worker per file spent more
    // time building jsdom and importing than testing. The web project took 161 s on forks with
    // its libraries inlined, 163 s on threads, 89 s here (same sitting).
    pool: 'vmThreads',
    unstubGlobals: true,
    unstubEnvs: true,
    // A test that types a paragraph renders once per key: ~2 s here, over vitest's 5-s default
    // on a busy CI machine (the console's content editor, stop of 2026-11-27). A timed-out test's
    // typing also goes on into the next test's page, so the limit is set for a busy machine.
    testTimeout: 20_000,
  },
});
