import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { killAllStarted, startApi } from './support/api-process';

/*
 * Issue 44 §5: "A balancer health check during shutdown sees 503 before the instance stops
 * accepting." The real API process gets SIGTERM; during SHUTDOWN_DRAIN_MS its /readyz answers
 * 503 while every other request is still served, and then it exits by itself (status 0).
 */

describe('issue 44 §5: draining on SIGTERM', () => {
  const dirs: string[] = [];
  afterAll(async () => {
    await killAllStarted();
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  });

  it('issue 44 §5: /readyz answers 503 at once while the API still serves, then the process exits cleanly', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'alda-drain-'));
    dirs.push(dataDir);
    // Long enough that the checks below all fall inside it on a busy machine; the test does not
    // wait for it to pass, only for the exit that follows it.
    const drainMs = 4_000;
    const api = await startApi({ dataDir, env: { SHUTDOWN_DRAIN_MS: String(drainMs) } });
    expect((await fetch(`${api.url}/readyz`)).status).toBe(200);

    const signalled = performance.now();
    process.kill(api.pid, 'SIGTERM');
    // The first check after the signal already sees the instance as not ready…
    const ready = await waitForStatus(`${api.url}/readyz`, 503);
    expect(((await ready.json()) as { error: { code: string } }).error.code).toBe(
      'SERVICE_UNAVAILABLE',
    );
    // …while it keeps answering what the balancer still sends it (new connections included).
    const during = await fetch(`${api.url}/api/openapi.json`, { headers: { connection: 'close' } });
    expect(during.status).toBe(200);
    expect((await fetch(`${api.url}/healthz`)).status).toBe(200);
    const servedUntil = performance.now() - signalled;
    expect(servedUntil, 'the checks above ran inside the drain').toBeLessThan(drainMs);

    // Then it closes and exits by itself, without being killed.
    expect(await api.exited).toBe(0);
    expect(performance.now() - signalled).toBeGreaterThanOrEqual(drainMs - 50);
  }, 90_000);
});

/** Polls until the URL answers `status` (the signal is handled asynchronously). */
async function waitForStatus(url: string, status: number): Promise<Response> {
  const deadline = Date.now() + 3_000;
  for (;;) {
    const res = await fetch(url);
    if (res.status === status || Date.now() > deadline) {
      expect(res.status).toBe(status);
      return res;
    }
    await res.body?.cancel();
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
