import { afterEach, vi } from 'vitest';

// A console.error during a test is a bug we did not assert on (CONVENTIONS "Tests"): fail loudly.
// Unhandled rejections already fail the run in vitest.
const consoleError = vi.spyOn(console, 'error');
afterEach(() => {
  const calls = consoleError.mock.calls;
  if (calls.length > 0) {
    const message = calls.map((args) => args.map(String).join(' ')).join('\n');
    consoleError.mockClear();
    throw new Error(`console.error was called during the test:\n${message}`);
  }
});
