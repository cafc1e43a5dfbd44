// A planted import cycle (a → b → a) that tools/eslint-rules/lint-rules.test.mjs lints: proof
// that import-x/no-cycle resolves the API's .ts files. Ignored by `npm run lint`.
import { b } from './cycle-b';

export const a = (n: number): number => (n <= 0 ? 0 : b(n - 1));
