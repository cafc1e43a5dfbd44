/**
 * Test environment of the web app: the shared strict environment (strict-environment.ts), and
 * the device's own state reset before each test.
 */
import { ReadableStream as NodeReadableStream } from 'node:stream/web';
import './strict-environment';
import { beforeEach } from 'vitest';
import { connection } from '@/shared/api/connectivity';
import { followConnectionInQueries } from '@/shared/api/query-client';
import { overridePlatform } from '@/shared/native/platform';

// Node's web streams, which jsdom's window does not carry: each test file runs in its own VM
// context (`pool: 'vmThreads'`), where Node's globals are not there by default, and React's
// static renderer (prerender.test.tsx) reads a ReadableStream.
globalThis.ReadableStream ??= NodeReadableStream as unknown as typeof ReadableStream;

// Queries follow the app's connection, as they do once the app has loaded its query cache.
followConnectionInQueries();

beforeEach(() => {
  overridePlatform(null);
  // The connection is the app's one shared state of the device (connectivity.ts).
  connection.set(true);
});
