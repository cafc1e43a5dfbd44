import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import importX from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import reactHooks from 'eslint-plugin-react-hooks';
import local from './tools/eslint-rules/index.js';

/**
 * What other modules (and seed/, jobs/, hub/) may import from a module besides its services:
 * operations meant to run inside another module's transaction, DTO mappers and shared rules.
 */
const API_PUBLIC_FILES = {
  actions: ['log.ts'],
  agreements: ['card-on-file.ts'],
  auth: ['session-events.ts', 'passwords.ts'],
  billing: ['price.ts'],
  'data-transfers': ['lines.ts'],
  lifecycle: ['place.ts', 'apply.ts'],
  notifications: ['notify.ts'],
  orders: ['placing.ts', 'dto.ts', 'lifecycle.ts'],
  packages: ['package-data.ts'],
  payments: ['events.ts'],
  'phone-lines': ['lines.ts'],
  plans: ['dto.ts', 'catalogue.ts'],
  provisioning: ['dto.ts', 'steps.ts'],
  'rate-limits': ['policies.ts'],
  receipts: ['issue.ts'],
  subscriptions: ['accounts.ts'],
  'top-ups': ['credit.ts'],
  usage: ['balance.ts', 'balance-rows.ts'],
  users: ['dto.ts', 'records.ts'],
  versions: ['change-versions.ts', 'answer-cache.ts'],
};

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      'data/**',
      'apps/api/drizzle/**',
      'test-results/**',
      'playwright-report/**',
      'coverage/**',
      // Planted violations that tools/eslint-rules/lint-rules.test.mjs lints on purpose.
      '**/__lint-fixtures__/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    plugins: { 'import-x': importX, local },
    languageOptions: { ecmaVersion: 2023, sourceType: 'module' },
    rules: {
      'import-x/no-cycle': ['error', { maxDepth: 10 }],
      'import-x/no-self-import': 'error',
      'local/no-barrel-files': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
    settings: {
      // The TypeScript resolver follows .ts/.tsx files, the web's `@/` alias and the workspace
      // packages; without it no import resolves and no-cycle checks nothing.
      'import-x/resolver-next': [
        createTypeScriptImportResolver({
          project: ['apps/api/tsconfig.json', 'apps/web/tsconfig.json', 'packages/contract/tsconfig.json'],
          noWarnOnMultipleProjects: true,
        }),
      ],
      // Files with other extensions are not parsed for their imports (the default is .js only).
      'import-x/extensions': ['.ts', '.tsx', '.js', '.mjs', '.cjs'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      'import-x/ignore': ['node_modules'],
    },
  },
  {
    files: ['apps/web/src/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'local/feature-boundaries': 'error',
    },
  },
  {
    files: ['apps/api/src/**/*.ts'],
    rules: {
      // A module's public surface: service.ts, *-service.ts and the files named here (docs/architecture.md).
      'local/api-boundaries': ['error', { publicFiles: API_PUBLIC_FILES }],
    },
  },
  {
    files: ['apps/web/src/**/*.tsx'],
    ignores: ['apps/web/src/**/*.test.tsx'],
    rules: { 'local/no-hardcoded-jsx-text': 'error' },
  },
  {
    files: ['**/*.{js,mjs,cjs}'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly', setTimeout: 'readonly' } },
  },
);
