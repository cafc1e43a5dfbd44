/**
 * The test environment the web app and the staff console share (CONVENTIONS "Tests"; imported by
 * both apps' setup files): a console.error or an unhandled promise rejection fails the test that
 * caused it, the DOM is cleaned up after each test, and local storage starts empty.
 */
import { cleanup, configure } from '@testing-library/react';
import { afterEach, beforeEach, vi } from 'vitest';

let consoleErrors: unknown[][] = [];
let rejections: unknown[] = [];

process.on('unhandledRejection', (reason: unknown) => {
  rejections.push(reason);
});

// Lazy route chunks load through the module graph; on a loaded 2-core CI machine that can take
// longer than Testing Library's default 1 s. Raising the ceiling only changes how long a wait may
// last: an element that never appears still fails the test.
configure({ asyncUtilTimeout: 5_000 });

// jsdom does not implement scrolling; React Router's scroll restoration calls it.
window.scrollTo = () => {};
Element.prototype.scrollIntoView = () => {};

beforeEach(() => {
  consoleErrors = [];
  rejections = [];
  vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => {
    consoleErrors.push(args);
  });
  window.localStorage.clear();
});

afterEach(async () => {
  vi.useRealTimers();
  cleanup();
  // Let rejections of the test's last promises surface before judging.
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
