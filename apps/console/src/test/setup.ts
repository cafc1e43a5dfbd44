/**
 * Test environment of the console (as the web app's, apps/web/src/test/setup.ts): a
 * console.error or an unhandled promise rejection fails the test that caused it.
 */
import { cleanup, configure } from '@testing-library/react';
import { afterEach, beforeEach, vi } from 'vitest';

let consoleErrors: unknown[][] = [];
let rejections: unknown[] = [];
process.on('unhandledRejection', (reason) => {
  rejections.push(reason);
});

configure({ asyncUtilTimeout: 5_000 });
window.scrollTo = () => {};

beforeEach(() => {
  consoleErrors = [];
  rejections = [];
  vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => {
    consoleErrors.push(args);
  });
  window.localStorage.clear();
  window.sessionStorage.clear();
});

afterEach(async () => {
  vi.useRealTimers();
  cleanup();
  await new Promise((resolve) => setTimeout(resolve, 0));
  const errors = consoleErrors;
  const unhandled = rejections;
  consoleErrors = [];
  rejections = [];
  if (errors.length > 0) {
    const text = errors
      .map((args) => args.map((a) => (a instanceof Error ? a.stack : String(a))).join(' '))
      .join('\n');
    throw new Error(`console.error was called during the test:\n${text}`);
  }
  if (unhandled.length > 0) {
    throw new Error(
      `Unhandled promise rejection during the test: ${unhandled.map(String).join('\n')}`,
    );
  }
});
