import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen } from '@testing-library/react';
import { DATA_REQUEST_FOLLOW_UP_DELAY_MS, POLLING_INTERVAL_MS } from '@alda/contract/constants';
import type { DataTransfer } from '@alda/contract/schemas/data-transfers';
import type { NotificationsResponse } from '@alda/contract/schemas/notifications';
import { fail, json, ok } from '@/test/fake-api';
import { demoUser } from '@/test/fixtures';
import { renderApp, type TestAppOptions } from '@/test/render';
import { FIRST_PAINT_WAIT_MS, holdUntilFirstPaint } from '@/shared/ui/first-paint';
import { RootLayout } from './root-layout';

const request = (id: string, name: string, dataAmount = 1024): DataTransfer => ({
  id,
  kind: 'request',
  status: 'pending',
  requester: { phoneNumber: '211234', name },
  recipient: { phoneNumber: '221122', name: 'Demo' },
  dataAmount,
  createdAt: '2026-11-20T10:00:00.000Z',
  decidedAt: null,
});

const noNotifications: NotificationsResponse = {
  totalUnread: 0,
  items: [],
  page: 0,
  perPage: 15,
  total: 0,
};

/** The root layout over a blank screen at any path: polling without the screens' own calls. */
const bareRoutes: TestAppOptions['routes'] = () => [
  { Component: RootLayout, children: [{ path: '*', element: null }] },
];

async function start(options: TestAppOptions = {}) {
  vi.useFakeTimers({
    toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'],
  });
  const app = await renderApp({
    user: demoUser,
    routes: bareRoutes,
    ...options,
    api: {
      'GET /data-transfers': () => ok([]),
      'GET /notifications': () => ok(noNotifications),
      ...options.api,
    },
  });
  await flush();
  return app;
}

/** Lets pending promises (fetch, parsing) settle under fake timers. */
const flush = () => act(() => vi.advanceTimersByTimeAsync(0));
const advance = (ms: number) => act(() => vi.advanceTimersByTimeAsync(ms));

afterEach(() => {
  vi.useRealTimers();
});

describe('polling (SPEC §4 "Polling")', () => {
  it('fetches requests and notifications at sign-in and then every 60 s', async () => {
    const app = await start();
    expect(app.api.callsTo('GET /data-transfers')).toHaveLength(1);
    expect(app.api.callsTo('GET /notifications')).toHaveLength(1);
    await advance(POLLING_INTERVAL_MS - 1);
    expect(app.api.callsTo('GET /data-transfers')).toHaveLength(1);
    await advance(1);
    expect(app.api.callsTo('GET /data-transfers')).toHaveLength(2);
    expect(app.api.callsTo('GET /notifications')).toHaveLength(2);
    await advance(POLLING_INTERVAL_MS);
    expect(app.api.callsTo('GET /data-transfers')).toHaveLength(3);
    expect(app.api.callsTo('GET /notifications')[0]?.url).toContain('page=0&perPage=15');
  });

  it("at the app's start, polls first once the first screen is on the display (issue 45)", async () => {
    holdUntilFirstPaint();
    const app = await start();
    // Committed, but no paint reported yet: the first screen keeps the link to itself.
    expect(app.api.callsTo('GET /data-transfers')).toHaveLength(0);
    expect(app.api.callsTo('GET /notifications')).toHaveLength(0);
    // Opened after its longest wait; the poll then goes on in a task of its own (a timer's 1 ms).
    await advance(FIRST_PAINT_WAIT_MS + 1);
    expect(app.api.callsTo('GET /data-transfers')).toHaveLength(1);
    expect(app.api.callsTo('GET /notifications')).toHaveLength(1);
  });

  it('sends If-None-Match with the last ETag and treats 304 as unchanged', async () => {
    let calls = 0;
    const app = await start({
      api: {
        'GET /notifications': () => {
          calls += 1;
          if (calls === 2) return new Response(null, { status: 304 });
          const response = ok({ ...noNotifications, totalUnread: calls === 1 ? 4 : 5 });
          response.headers.set('ETag', `"n-${calls}"`);
          return response;
        },
      },
    });
    expect(app.queryClient.getQueryData(['notifications', 'unread'])).toBe(4);
    app.queryClient.setQueryData(['account', 'subscriptions'], { marker: true });
    await advance(POLLING_INTERVAL_MS);
    const second = app.api.callsTo('GET /notifications')[1];
    expect(second?.headers['if-none-match']).toBe('"n-1"');
    expect(app.queryClient.getQueryData(['notifications', 'unread'])).toBe(4);
    expect(app.queryClient.getQueryState(['account', 'subscriptions'])?.isInvalidated).toBe(false);
    // A change after the first poll: new count, and the balances are marked stale.
    await advance(POLLING_INTERVAL_MS);
    expect(app.api.callsTo('GET /notifications')[2]?.headers['if-none-match']).toBe('"n-1"');
    expect(app.queryClient.getQueryData(['notifications', 'unread'])).toBe(5);
    expect(app.queryClient.getQueryState(['account', 'subscriptions'])?.isInvalidated).toBe(true);
  });

  it('skips notifications on the notifications screen, but not the requests', async () => {
    const app = await start({ initialEntries: ['/frabodanir'] });
    expect(app.api.callsTo('GET /notifications')).toHaveLength(0);
    expect(app.api.callsTo('GET /data-transfers')).toHaveLength(1);
    await advance(POLLING_INTERVAL_MS);
    expect(app.api.callsTo('GET /notifications')).toHaveLength(0);
    expect(app.api.callsTo('GET /data-transfers')).toHaveLength(2);
    await act(() => app.router.navigate('/'));
    await advance(POLLING_INTERVAL_MS);
    expect(app.api.callsTo('GET /notifications')).toHaveLength(1);
  });

  it('does not poll for a guest and stops at logout', async () => {
    const guest = await start({ user: null });
    await advance(POLLING_INTERVAL_MS * 2);
    expect(guest.api.requests).toHaveLength(0);
    guest.view.unmount();

    const app = await start();
    act(() => app.session.signOut('logout'));
    const before = app.api.requests.length;
    await advance(POLLING_INTERVAL_MS * 3);
    expect(app.api.requests).toHaveLength(before);
  });
});

describe('data-request-received modal (SPEC §4 "Data request")', () => {
  it('opens for the first request; the next one ~300 ms after the previous is handled', async () => {
    const app = await start({
      api: {
        'GET /data-transfers': () => ok([request('r1', 'Anna'), request('r2', 'Jógvan', 512)]),
        'POST /data-transfers/r1/approve': () => ok(request('r1', 'Anna')),
        'DELETE /data-transfers/r2': () => json(204, undefined),
      },
    });
    expect(screen.getByRole('dialog').textContent).toContain('Anna biður teg um 1 GB');
    fireEvent.click(screen.getByRole('button', { name: 'Gev 1 GB' }));
    await flush();
    expect(app.api.callsTo('POST /data-transfers/r1/approve')).toHaveLength(1);
    expect(screen.getByText('Tú gavst Anna 1 GB.')).toBeTruthy();
    await advance(DATA_REQUEST_FOLLOW_UP_DELAY_MS - 1);
    expect(screen.queryByText(/Jógvan/)).toBeNull();
    await advance(1);
    expect(screen.getByRole('dialog').textContent).toContain('Jógvan biður teg um 512 MB');
    fireEvent.click(screen.getByRole('button', { name: 'Avvís' }));
    await flush();
    expect(app.api.callsTo('DELETE /data-transfers/r2')).toHaveLength(1);
    // The same requests in the next poll are not shown again.
    await advance(POLLING_INTERVAL_MS);
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it("shows 'An error occurred.' when approving fails and keeps the request open", async () => {
    await start({
      locale: 'en',
      api: {
        'GET /data-transfers': () => ok([request('r1', 'Anna')]),
        'POST /data-transfers/r1/approve': () => fail(500, 'INTERNAL'),
      },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Give 1 GB' }));
    await flush();
    expect(screen.getByText('An error occurred.')).toBeTruthy();
    expect(screen.getByRole('dialog').textContent).toContain('Anna is asking you for 1 GB');
  });

  it('closes with an error toast when the request no longer exists, then shows the next', async () => {
    await start({
      api: {
        'GET /data-transfers': () => ok([request('gone', 'Anna'), request('r2', 'Jógvan')]),
        'DELETE /data-transfers/gone': () => fail(404, 'NOT_FOUND'),
      },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Avvís' }));
    await flush();
    expect(screen.getByText('Umbønin finst ikki longur.')).toBeTruthy();
    await advance(DATA_REQUEST_FOLLOW_UP_DELAY_MS);
    expect(screen.getByRole('dialog').textContent).toContain('Jógvan');
  });
});
