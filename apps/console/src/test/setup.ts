/**
 * Test environment of the console: the web app's strict environment (a console.error or an
 * unhandled promise rejection fails the test that caused it), and session storage (where the
 * staff session lives) empty before each test.
 */
import '../../../web/src/test/strict-environment';
import { beforeEach } from 'vitest';

beforeEach(() => {
  window.sessionStorage.clear();
});
