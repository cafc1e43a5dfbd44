import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { LIVE_REFRESH_MS } from '@/shared/query-client';
import { aSession, renderConsole, type Call, type Handler } from '@/test/render';
import { aPage, aRow, ORDER_ID } from './fixtures';

const LIST = '/api/staff/orders';

const REJECTED_ID = '0b7d4f21-6c8e-4a9f-8b2c-3d4e5f6a7b8c';
const LATE_ID = '1c8e5a32-7d9f-4b0a-9c3d-4e5f6a7b8c9d';
const ROWS = [
  aRow(),
  aRow({
    id: REJECTED_ID,
    customer: { id: '6f1d2c3a-0009-4a6e-9b1a-0a1f00000009', name: 'Kári Hansen' },
    msisdn: '219601',
    state: 'rejected',
    waitingFor: 'customer_correction',
    lastStep: 'port_rejected',
    nextStep: 'port_requested',
    nextAt: null,
  }),
  aRow({
    id: LATE_ID,
    customer: { id: '6f1d2c3a-0010-4a6e-9b1a-0a1f00000010', name: 'Rói Olsen' },
    msisdn: '219602',
    kind: 'sim_change',
    isPorting: false,
    delivery: 'pickup',
    lastStep: 'received',
    nextStep: 'sim_ready_for_pickup',
    nextAt: '2026-06-15T11:58:00.000Z',
    late: true,
  }),
];

const listOf =
  (items = ROWS, headers?: Record<string, string>): Handler =>
  (call) => {
    if (call.method !== 'GET' || !call.path.startsWith(LIST)) return undefined;
    if (headers?.etag && call.headers['if-none-match'] === headers.etag)
      return { status: 304, headers };
    return { status: 200, body: { data: aPage(items) }, headers };
  };

const listCalls = (calls: Call[]) =>
  calls.filter((c) => c.path.startsWith(LIST)).map((c) => new URL(c.path, 'http://x'));

const bodyRows = async () => {
  const table = await screen.findByRole('table', { name: 'Bíleggingar: Í gerð' });
  return within(table).getAllByRole('row').slice(1);
};

describe('the orders queue (issue 31 "Orders queue")', () => {
  it('lists the orders with customer, number, kind, state, last step and when the next is due, soonest first', async () => {
    renderConsole({ path: '/orders', session: aSession('provisioning'), handler: listOf() });
    expect(await screen.findByRole('heading', { level: 1, name: 'Bíleggingar' })).toBeTruthy();
    const rows = await bodyRows();
    expect(rows).toHaveLength(3);
    // Sorted by the due time: the late SIM change (today 12:58), Guðrun's port (in two days),
    // then the rejected port that waits on the customer (no due time).
    expect(rows[0]?.textContent).toContain('Rói Olsen');
    expect(rows[0]?.textContent).toContain('Nýtt SIM-kort');
    expect(rows[0]?.textContent).toContain('SIM-kort í handli');
    expect(rows[0]?.textContent).toContain('Seinkað');
    expect(rows[1]?.textContent).toContain('Guðrun Poulsen');
    expect(rows[1]?.textContent).toContain('55 78 13');
    expect(rows[1]?.textContent).toContain('Flyting av nummari');
    expect(rows[1]?.textContent).toContain('eSIM');
    expect(rows[1]?.textContent).toContain('Bíðar eftir netinum');
    expect(rows[1]?.textContent).toContain('Dagur fyri flyting ásettur');
    expect(rows[1]?.textContent).toContain('17.06.2026 13:00');
    expect(rows[1]?.textContent).not.toContain('Seinkað');
    expect(rows[2]?.textContent).toContain('Flyting avvíst');
    expect(rows[2]?.textContent).toContain('Einki ásett');
    const link = within(rows[1] as HTMLElement).getByRole('link', { name: 'Bílegging 55 78 13' });
    expect(link.getAttribute('href')).toBe(`/orders/${ORDER_ID}`);
    expect(rows[1]?.textContent).toContain('Bílagt 14.06.2026 13:00');
    expect(screen.getByText('3 bíleggingar')).toBeTruthy();
    expect(screen.getByText(/^Dagført kl\. \d{2}:\d{2}:\d{2}$/)).toBeTruthy();
  });

  it('sorts by the due time either way from the column header (aria-sort says which)', async () => {
    const user = userEvent.setup();
    renderConsole({ path: '/orders', session: aSession('support'), handler: listOf() });
    await bodyRows();
    const header = screen.getByRole('columnheader', { name: /Næsta stig/ });
    expect(header.getAttribute('aria-sort')).toBe('ascending');
    await user.click(within(header).getByRole('button'));
    expect(header.getAttribute('aria-sort')).toBe('descending');
    const rows = await bodyRows();
    expect(rows[0]?.textContent).toContain('Guðrun Poulsen');
    expect(rows[1]?.textContent).toContain('Rói Olsen');
    // Orders without a due time stay last either way.
    expect(rows[2]?.textContent).toContain('Kári Hansen');
  });

  it('the filters show how many open orders each has; choosing one asks the API for it and keeps it in the address', async () => {
    const user = userEvent.setup();
    const { calls, router } = renderConsole({
      path: '/orders',
      session: aSession('provisioning'),
      handler: listOf(),
    });
    const filters = await screen.findByRole('navigation', { name: 'Vís bíleggingar' });
    const processing = await within(filters).findByRole('link', { name: 'Í gerð 4' });
    expect(processing.getAttribute('aria-current')).toBe('page');
    expect(within(filters).getByRole('link', { name: 'Seinkaðar 1' })).toBeTruthy();
    expect(within(filters).getByRole('link', { name: 'Allar' })).toBeTruthy();
    expect(listCalls(calls)[0]?.searchParams.get('state')).toBe('processing');

    await user.click(within(filters).getByRole('link', { name: 'Flyting avvíst 1' }));
    await waitFor(() =>
      expect(listCalls(calls).at(-1)?.searchParams.get('state')).toBe('rejected'),
    );
    expect(router.state.location.search).toBe('?state=rejected');
    expect(
      within(filters).getByRole('link', { name: 'Flyting avvíst 1' }).getAttribute('aria-current'),
    ).toBe('page');
    expect(await screen.findByRole('table', { name: 'Bíleggingar: Flyting avvíst' })).toBeTruthy();
  });

  it("the failed filter is an attention chip, and a failed order's row says why it stopped (issue 43)", async () => {
    const failed = aRow({
      id: REJECTED_ID,
      state: 'failed',
      waitingFor: 'none',
      lastStep: 'failed',
      nextStep: null,
      nextAt: null,
      stopReason: 'SMDP_UNAVAILABLE: The SM-DP+ did not answer',
    });
    renderConsole({
      path: '/orders',
      session: aSession('provisioning'),
      handler: listOf([failed]),
    });
    const filters = await screen.findByRole('navigation', { name: 'Vís bíleggingar' });
    // Not the chosen filter, and not empty: its count is marked, as late and rejected ones are.
    const chip = await within(filters).findByRole('link', { name: 'Steðgaðar 1' });
    expect(within(chip).getByText('1').className).toContain('text-danger-700');
    const waiting = within(filters).getByRole('link', { name: 'Bíða eftir kundanum 2' });
    expect(within(waiting).getByText('2').className).not.toContain('text-danger-700');
    const [row] = await bodyRows();
    expect(row?.textContent).toContain('Steðgað');
    expect(row?.textContent).toContain('SMDP_UNAVAILABLE: The SM-DP+ did not answer');
  });

  it('searches by what was typed, and says when nothing matches', async () => {
    const user = userEvent.setup();
    const { calls, router } = renderConsole({
      path: '/orders?state=all',
      session: aSession('support'),
      handler: listOf([]),
    });
    expect(await screen.findByText('Ongar bíleggingar eru í hesum bólki.')).toBeTruthy();
    await user.type(screen.getByRole('searchbox', { name: 'Leita í bíleggingunum' }), '557813');
    await user.click(screen.getByRole('button', { name: 'Leita' }));
    expect(await screen.findByText('Ongar bíleggingar passa við leitingina.')).toBeTruthy();
    expect(listCalls(calls).at(-1)?.searchParams.get('q')).toBe('557813');
    expect(listCalls(calls).at(-1)?.searchParams.get('state')).toBe('all');
    expect(router.state.location.search).toBe('?state=all&q=557813');
  });

  it('says when the queue cannot be loaded, with the reason and a way to try again', async () => {
    const user = userEvent.setup();
    let fail = true;
    renderConsole({
      path: '/orders',
      session: aSession('provisioning'),
      handler: (call) =>
        fail
          ? {
              status: 503,
              body: {
                error: { code: 'SERVICE_UNAVAILABLE', message: 'Tænastan er ikki til taks.' },
              },
            }
          : listOf()(call),
    });
    expect(await screen.findByText('Bíleggingarnar kundu ikki heintast.')).toBeTruthy();
    expect(screen.getByText('Tænastan er ikki til taks.')).toBeTruthy();
    fail = false;
    await user.click(screen.getByRole('button', { name: 'Royn aftur' }));
    expect(await bodyRows()).toHaveLength(3);
  });

  it('refreshes itself every 5 s with If-None-Match: a 304 keeps the rows, and an order that moved shows its new state (ADR 0075 "Live updates")', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    let version = 1;
    let items = ROWS;
    const { calls } = renderConsole({
      path: '/orders',
      session: aSession('provisioning'),
      handler: (call) => {
        if (call.method !== 'GET' || !call.path.startsWith(LIST)) return undefined;
        const headers = { etag: `W/"queue-${version}"` };
        if (call.headers['if-none-match'] === headers.etag) return { status: 304, headers };
        return { status: 200, body: { data: aPage(items) }, headers };
      },
    });
    const kari = async () =>
      (await bodyRows()).find((row) => row.textContent?.includes('Kári Hansen'))?.textContent;
    expect(await kari()).toContain('Flyting avvíst');

    // Nothing changed: the poll is a 304 and the rows stay.
    await act(() => vi.advanceTimersByTimeAsync(LIVE_REFRESH_MS + 100));
    await waitFor(() => expect(listCalls(calls)).toHaveLength(2));
    expect(calls.filter((c) => c.path.startsWith(LIST))[1]?.headers['if-none-match']).toBe(
      'W/"queue-1"',
    );
    expect(await bodyRows()).toHaveLength(3);

    // The customer corrected the port: the next poll shows the order waiting on the network.
    version = 2;
    items = ROWS.map((row) =>
      row.id === REJECTED_ID ? { ...row, state: 'waiting-network', waitingFor: 'network' } : row,
    );
    await act(() => vi.advanceTimersByTimeAsync(LIVE_REFRESH_MS + 100));
    await waitFor(async () => expect(await kari()).toContain('Bíðar eftir netinum'));
    expect(await kari()).not.toContain('Flyting avvíst');
  });
});

describe("older orders page by page (`before` = the last page's `nextBefore`)", () => {
  const idOf = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
  const row = (n: number) =>
    aRow({
      id: idOf(n),
      customer: { id: '6f1d2c3a-0001-4a6e-9b1a-0a1f00000001', name: `Kundi ${n}` },
      // Due in order of n: the table's sort (by the next step) keeps them so.
      nextAt: `2026-06-17T12:0${n}:00.000Z`,
    });
  /** Newest first: 1 and 2, then 3 and 4 (before 2), then 5 (before 4), the last page. */
  const pages = (): Record<string, ReturnType<typeof aPage>> => ({
    '': aPage([row(1), row(2)], { nextBefore: idOf(2) }),
    [idOf(2)]: aPage([row(3), row(4)], { nextBefore: idOf(4) }),
    [idOf(4)]: aPage([row(5)], { nextBefore: null }),
  });
  const names = async () =>
    (await bodyRows()).map((r) => /Kundi \d/.exec(r.textContent ?? '')?.[0]);

  it('"Vís eldri bíleggingar" appends the next page of the filter and is gone on the last page; a refresh reads every page shown again and keeps them', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    onTestFinished(() => void vi.useRealTimers());
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    const { calls } = renderConsole({
      path: '/orders',
      session: aSession('provisioning'),
      handler: (call) => {
        if (call.method !== 'GET' || !call.path.startsWith(LIST)) return undefined;
        const before = new URL(call.path, 'http://x').searchParams.get('before') ?? '';
        const headers = { etag: `W/"page-${before}"` };
        if (call.headers['if-none-match'] === headers.etag) return { status: 304, headers };
        return { status: 200, body: { data: pages()[before] }, headers };
      },
    });
    await waitFor(async () => expect(await names()).toEqual(['Kundi 1', 'Kundi 2']));
    await user.click(screen.getByRole('button', { name: 'Vís eldri bíleggingar' }));
    await waitFor(async () =>
      expect(await names()).toEqual(['Kundi 1', 'Kundi 2', 'Kundi 3', 'Kundi 4']),
    );
    const older = listCalls(calls).find((url) => url.searchParams.get('before') === idOf(2));
    expect(older?.searchParams.get('state')).toBe('processing');
    expect(screen.getByText('4 bíleggingar')).toBeTruthy();

    // The poll: the first page and the older one again (304s), the rows appended stay.
    const asked = listCalls(calls).length;
    await act(() => vi.advanceTimersByTimeAsync(LIVE_REFRESH_MS + 100));
    await waitFor(() => expect(listCalls(calls).length).toBe(asked + 2));
    const polled = calls.filter((c) => c.path.startsWith(LIST)).slice(asked);
    expect(polled.map((c) => new URL(c.path, 'http://x').searchParams.get('before'))).toEqual([
      null,
      idOf(2),
    ]);
    expect(polled.map((c) => c.headers['if-none-match'])).toEqual([
      'W/"page-"',
      `W/"page-${idOf(2)}"`,
    ]);
    expect(await names()).toEqual(['Kundi 1', 'Kundi 2', 'Kundi 3', 'Kundi 4']);

    await user.click(screen.getByRole('button', { name: 'Vís eldri bíleggingar' }));
    await waitFor(async () => expect(await names()).toHaveLength(5));
    expect(screen.queryByRole('button', { name: 'Vís eldri bíleggingar' })).toBeNull();
    // The counts are the first page's.
    const filters = screen.getByRole('navigation', { name: 'Vís bíleggingar' });
    expect(within(filters).getByRole('link', { name: 'Í gerð 4' })).toBeTruthy();
  });
});
