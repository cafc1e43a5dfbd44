import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { aSession, renderConsole } from '@/test/render';
import { aSummary, callsTo, CONVERSATION_ID, OTHER_CONVERSATION_ID, supportApi } from './fixtures';

const LIST = '/api/staff/support/conversations';

afterEach(() => {
  vi.useRealTimers();
});

describe('the support inbox (issue 46 "An inbox in queues")', () => {
  it('issue 46: loads the new queue with age, due time in Faroe time, and late marked by icon and word', async () => {
    const { calls } = renderConsole({
      path: '/support',
      session: aSession('support'),
      handler: supportApi({
        queues: {
          new: [
            aSummary(),
            aSummary({
              id: OTHER_CONVERSATION_ID,
              customerName: null,
              subject: { type: 'general', id: null, reference: null },
              lastMessage: 'Hví er rokningin so høg?',
              late: false,
              firstReplyDueAt: '2026-12-24T15:00:00.000Z',
            }),
          ],
        },
      }),
    });
    expect(await screen.findByRole('heading', { level: 1, name: 'Kundatænasta' })).toBeTruthy();
    const table = await screen.findByRole('table', { name: 'Samrøður: Nýggjar' });
    const [first, second] = within(table).getAllByRole('row').slice(1) as [
      HTMLElement,
      HTMLElement,
    ];

    expect(within(first).getByRole('link', { name: 'Guðrun Poulsen' }).getAttribute('href')).toBe(
      `/support/${CONVERSATION_ID}`,
    );
    expect(within(first).getByText('Bílegging 55 78 13')).toBeTruthy();
    expect(within(first).getByText(/varð avvíst/)).toBeTruthy();
    expect(within(first).getByText('fyri 3 tímum síðan')).toBeTruthy();
    // Summer: Tórshavn is UTC+1.
    expect(within(first).getByText('15.06.2026 13:00')).toBeTruthy();
    // Late is a word with an icon, not a colour alone.
    const late = within(first).getByText('Seinkað');
    expect(late.closest('span')?.querySelector('svg')).toBeTruthy();

    expect(within(second).getByRole('link', { name: 'Navnleysur kundi' })).toBeTruthy();
    expect(within(second).getByText('Almennur spurningur')).toBeTruthy();
    // Winter: Tórshavn is UTC.
    expect(within(second).getByText('24.12.2026 15:00')).toBeTruthy();
    expect(within(second).queryByText('Seinkað')).toBeNull();

    expect(screen.getByText(/2 samrøður · 1 seinkað/)).toBeTruthy();
    expect(callsTo(calls, 'GET', LIST)[0]?.path).toBe(`${LIST}?queue=new`);
  });

  it('issue 46: switches queues from the address, and shows the assignee and the answer time', async () => {
    const user = userEvent.setup();
    const { calls, router } = renderConsole({
      path: '/support',
      session: aSession('support'),
      handler: supportApi({
        queues: {
          new: [],
          waiting: [
            aSummary({
              state: 'waiting',
              late: false,
              firstReplyAt: '2026-06-15T10:30:00.000Z',
              assignee: { id: '321e552f-f2bd-45be-b57a-167b12a0fb9f', name: 'Jógvan Hansen' },
            }),
          ],
        },
      }),
    });
    expect(
      await screen.findByText('Ongar nýggjar samrøður. Nýggjar koma her av sær sjálvum.'),
    ).toBeTruthy();
    const queues = screen.getByRole('navigation', { name: 'Vís samrøður' });
    expect(within(queues).getByRole('link', { name: 'Nýggjar' }).getAttribute('aria-current')).toBe(
      'page',
    );

    await user.click(within(queues).getByRole('link', { name: 'Bíða eftir kundanum' }));
    await waitFor(() => expect(router.state.location.search).toBe('?queue=waiting'));
    const table = await screen.findByRole('table', { name: 'Samrøður: Bíða eftir kundanum' });
    expect(within(table).getByText('Jógvan Hansen')).toBeTruthy();
    expect(within(table).getByText('Svarað 15.06.2026 11:30')).toBeTruthy();
    expect(callsTo(calls, 'GET', LIST).map((c) => c.path)).toContain(`${LIST}?queue=waiting`);
  });

  it('issue 46: asks again every 10 s, so a new conversation reaches the desk without a reload', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const queues = { new: [aSummary({ late: false })] };
    renderConsole({
      path: '/support',
      session: aSession('support'),
      handler: supportApi({ queues }),
    });
    await screen.findByRole('link', { name: 'Guðrun Poulsen' });
    queues.new = [
      aSummary({ late: false }),
      aSummary({ id: OTHER_CONVERSATION_ID, customerName: 'Símun Jacobsen', late: false }),
    ];
    await act(() => vi.advanceTimersByTimeAsync(10_000));
    expect(await screen.findByRole('link', { name: 'Símun Jacobsen' })).toBeTruthy();
  });

  it('issue 46: keeps the inbox from the provisioning and content roles', async () => {
    const { router } = renderConsole({ path: '/support', session: aSession('content') });
    await waitFor(() => expect(router.state.location.pathname).toBe('/status'));
  });
});
