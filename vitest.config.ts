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
    ],
  },
});
