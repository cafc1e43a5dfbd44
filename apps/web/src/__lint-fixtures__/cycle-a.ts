// A planted import cycle through the `@/` alias that tools/eslint-rules/lint-rules.test.mjs
// lints: proof that import-x/no-cycle resolves the web's alias. Ignored by `npm run lint`.
import { b } from '@/__lint-fixtures__/cycle-b';

export const a = (n: number): number => (n <= 0 ? 0 : b(n - 1));
