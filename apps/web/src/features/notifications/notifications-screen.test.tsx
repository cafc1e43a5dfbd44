import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { NotificationItem } from '@alda/contract/schemas/notifications';
import { fail, ok, type RecordedRequest } from '@/test/fake-api';
import { demoUser } from '@/test/fixtures';
import { renderApp } from '@/test/render';

const item = (n: number, read = false): NotificationItem => ({
  id: `n-${n}`,
  type: 'data_received',
  title: `Fráboðan ${n}`,
  body: `Tekstur ${n}`,
  createdAt: '2026-11-20T10:00:00.000Z',
  readAt: read ? '2026-11-20T11:00:00.000Z' : null,
  link: null,
});

/** 20 notifications, the first three unread: pages of 15 and 5. */
const all = Array.from({ length: 20 }, (_, i) => item(i + 1, i >= 3));

function pageOf(request: RecordedRequest) {
  const url = new URL(request.url, 'http://x');
  const page = Number(url.searchParams.get('page'));
  const perPage = Number(url.searchParams.get('perPage'));
  return ok({
    totalUnread: 3,
    items: all.slice(page * perPage, (page + 1) * perPage),
    page,
    perPage,
    total: all.length,
  });
}

const base = { 'GET /data-transfers': () => ok([]), 'GET /notifications': pageOf };

describe('notifications screen /frabodanir (SPEC §4 "Notifications")', () => {
  it('lists 15 at a time with the unread marked, loads the next page, badge in the footer', async () => {
    const app = await renderApp({ user: demoUser, initialEntries: ['/frabodanir'], api: base });
    expect(await screen.findByText('Fráboðan 1')).toBeTruthy();
    expect(within(screen.getByRole('main')).getAllByRole('listitem')).toHaveLength(15);
    expect(screen.getAllByText('Ólisið:')).toHaveLength(3);
    const footer = screen.getByRole('navigation', { name: 'Høvuðsvalmynd' });
    await waitFor(() =>
      expect(within(footer).getByRole('link', { name: /3 ólisnar fráboðanir/ })).toBeTruthy(),
    );
    await userEvent.click(screen.getByRole('button', { name: 'Vís fleiri' }));
    expect(await screen.findByText('Fráboðan 20')).toBeTruthy();
    expect(within(screen.getByRole('main')).getAllByRole('listitem')).toHaveLength(20);
    expect(app.api.callsTo('GET /notifications').map((r) => r.url)).toEqual([
      expect.stringContaining('page=0&perPage=15'),
      expect.stringContaining('page=1&perPage=15'),
    ]);
    expect(screen.queryByRole('button', { name: 'Vís fleiri' })).toBeNull();
  });

  it('marks one and all as read', async () => {
    const app = await renderApp({
      user: demoUser,
      initialEntries: ['/frabodanir'],
      api: {
        ...base,
        'PATCH /notifications/n-1/mark-as-read': () =>
          ok({ ...item(1), readAt: '2026-11-21T10:00:00.000Z' }),
        'PATCH /notifications/mark-all-as-read': () => ok({ updated: 2, totalUnread: 0 }),
      },
    });
    await userEvent.click(await screen.findByRole('button', { name: /Fráboðan 1 Tekstur 1/ }));
    await waitFor(() => expect(screen.getAllByText('Ólisið:')).toHaveLength(2));
    expect(app.queryClient.getQueryData(['notifications', 'unread'])).toBe(2);
    await userEvent.click(screen.getByRole('button', { name: 'Merk øll sum lisin' }));
    await waitFor(() => expect(screen.queryAllByText('Ólisið:')).toHaveLength(0));
    expect(app.api.callsTo('PATCH /notifications/mark-all-as-read')).toHaveLength(1);
    expect(app.queryClient.getQueryData(['notifications', 'unread'])).toBe(0);
  });

  it('has its own message when the notifications cannot be fetched', async () => {
    await renderApp({
      user: demoUser,
      locale: 'en',
      initialEntries: ['/frabodanir'],
      api: { ...base, 'GET /notifications': () => fail(500, 'INTERNAL') },
    });
    expect(await screen.findByText('We could not fetch your notifications.')).toBeTruthy();
  });
});
