import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'contract',
          root: 'packages/contract',
          include: ['src/**/*.test.ts'],
          environment: 'node',
        },
      },
      {
        test: {
          name: 'tools',
          root: 'tools',
          include: ['**/*.test.mjs'],
          environment: 'node',
          // Loading the ESLint config and its TypeScript resolver takes a few seconds.
          testTimeout: 60_000,
        },
      },
      'apps/api/vitest.config.ts',
      'apps/web/vitest.config.ts',
      {
        test: {
          // The native projects after `cap sync` of the built web app (apps/web/native): run by
          // test:e2e right after its build, not by test:unit.
          name: 'native',
          root: 'apps/web',
          include: ['native/**/*.test.ts'],
          // Node's fs and child_process, and jsdom's DOMParser for the manifests and plists.
          environment: 'jsdom',
          testTimeout: 30_000,
        },
      },
    ],
  },
});
