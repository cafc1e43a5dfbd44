import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, screen } from '@testing-library/react';
import { ok } from '@/test/fake-api';
import { ownerData, sunnevaPackageRequest } from '@/test/account-fixtures';
import { demoUser } from '@/test/fixtures';
import { renderApp } from '@/test/render';
import { FIRST_PAINT_WAIT_MS, holdUntilFirstPaint } from '@/shared/ui/first-paint';

// A file of its own: the inbox is a lazy chunk, and once a test in the same file has rendered it,
// home renders it at once.

const asked = sunnevaPackageRequest({ isApprover: true });

afterEach(() => {
  vi.useRealTimers();
});

describe("home's first screen at the app's start (issue 45)", () => {
  it("the owner's package-request inbox loads once home is on the display, not during its first paint", async () => {
    // The chunk's module is loaded beforehand, so that an inbox not waiting for the gate would
    // be on screen within the first flush below, whatever the time a module takes to load.
    await import('./package-request-inbox');
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] });
    holdUntilFirstPaint();
    const app = await renderApp({
      user: demoUser,
      data: ownerData,
      api: { 'GET /package-requests': () => ok([asked]) },
    });
    await act(() => vi.advanceTimersByTimeAsync(0));
    // Home's first screen is there, and neither the inbox's chunk nor its request has started.
    expect(screen.getByRole('region', { name: 'Títt data' })).toBeTruthy();
    expect(app.api.callsTo('GET /package-requests')).toHaveLength(0);
    expect(screen.queryByRole('region', { name: 'Umbønir um eykapakkar' })).toBeNull();

    // No paint reported (jsdom): the gate opens after its longest wait, and the inbox follows.
    // (+1: each piece of held work goes on in a task of its own, a timer's 1 ms.)
    await act(() => vi.advanceTimersByTimeAsync(FIRST_PAINT_WAIT_MS + 1));
    await act(() => vi.advanceTimersByTimeAsync(0));
    const inbox = screen.getByRole('region', { name: 'Umbønir um eykapakkar' });
    expect(inbox.textContent).toContain('Sunneva Joensen');
    expect(app.api.callsTo('GET /package-requests')).toHaveLength(1);
  });
});
