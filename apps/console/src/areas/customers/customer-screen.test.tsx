import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { StaffCustomerView } from '@alda/contract/schemas/staff-customers';
import { aSession, renderConsole, type Handler } from '@/test/render';
import { LIVE_REFRESH_MS } from '@/shared/query-client';
import {
  aCustomerView,
  CODE_MESSAGE_ID,
  CUSTOMER_ID,
  MESSAGE_ID,
  ORDER_ID,
  PAYMENT_ID,
} from './fixtures';

const VIEW = `/api/staff/customers/${CUSTOMER_ID}`;

const viewOf =
  (view: () => StaffCustomerView, extra: Handler = () => undefined): Handler =>
  async (call) =>
    call.method === 'GET' && call.path === VIEW
      ? { status: 200, body: { data: view() }, headers: { etag: 'W/"v1"' } }
      : extra(call);

describe('the customer view (issue 31 "customer view")', () => {
  it('shows the header, the profile and every section from the answer', async () => {
    const user = userEvent.setup();
    renderConsole({
      path: `/customers/${CUSTOMER_ID}`,
      session: aSession('support'),
      handler: viewOf(() => aCustomerView()),
    });
    expect(await screen.findByRole('heading', { level: 1, name: 'Guðrun Poulsen' })).toBeTruthy();
    expect(screen.getByText('55 78 12 · 55 78 13')).toBeTruthy();
    const profile = screen.getByRole('region', { name: 'Um kundan' });
    expect(profile.textContent).toContain('gudrun@demo.alda.fo');
    expect(profile.textContent).toContain('Niels Finsens gøta 12, 100 Tórshavn');
    // The rejected port is said at the top.
    expect(
      screen.getByText('Flytingin av 55 78 13 varð avvíst: vit bíða eftir rætting frá kundanum.'),
    ).toBeTruthy();

    const tabs = screen.getByRole('tablist', { name: 'Upplýsingar um kundan' });
    const tab = (name: RegExp) => within(tabs).getByRole('tab', { name });
    const panel = () => screen.getByRole('tabpanel');

    // Numbers.
    expect(tab(/^Nummur/).getAttribute('aria-selected')).toBe('true');
    expect(within(panel()).getByRole('table', { name: 'Nummur' }).textContent).toContain(
      '8929802000000300558',
    );
    expect(panel().textContent).toContain('Alda 10 GB');
    expect(panel().textContent).toContain('Verður sett upp');

    // Family.
    await user.click(tab(/^Familja/));
    expect(panel().textContent).toContain('Kundin er ikki á einum familjuhaldi.');

    // Orders: the step timeline, the provider's reason and what the customer must do.
    await user.click(tab(/^Bíleggingar/));
    const order = within(panel()).getByRole('article');
    expect(order.textContent).toContain('Nýtt hald');
    expect(order.textContent).toContain('Flyting avvíst');
    const steps = within(order).getAllByRole('listitem');
    expect(steps.map((s) => s.textContent?.split(/\d/)[0])).toEqual([
      'Bílegging móttikin',
      'eSIM klárt at leggja inn',
      'Biðið um at flyta nummarið',
      'Flytingin avvíst',
    ]);
    expect(steps[3]?.textContent).toContain(
      'Orsøk: SIM-kortnummarið passar ikki við tað, sum núverandi veitarin hevur skrásett.',
    );
    expect(order.textContent).toContain(
      'Vit bíða eftir, at kundin rættar SIM-kortnummarið (nú 8929802990017420000).',
    );
    expect(
      within(order).getByRole('link', { name: 'Opna í bíleggingunum' }).getAttribute('href'),
    ).toBe(`/orders/${ORDER_ID}`);

    // Payments and refunds, with a link to the payment.
    await user.click(tab(/^Gjøld/));
    expect(panel().textContent).toContain('39,00 kr.');
    expect(panel().textContent).toContain('Visa •••• 4242');
    expect(panel().textContent).toContain('10,00 kr.');
    expect(panel().textContent).toContain('Bíðar');
    expect(panel().textContent).toContain('Orsøk: Mál #12: tvígoldið');
    expect(
      within(panel()).getByRole('link', { name: '10.06.2026 10:12' }).getAttribute('href'),
    ).toBe(`/payments/${PAYMENT_ID}`);

    // Receipts.
    await user.click(tab(/^Kvittanir/));
    expect(panel().textContent).toContain('K-2026-000042');

    // Messages: the e-mail can be sent again, the SMS code cannot (and its text is not shown).
    await user.click(tab(/^Send boð/));
    const messages = within(panel()).getByRole('table', { name: 'SMS og teldupostur' });
    expect(messages.textContent).toContain('Alda: Flytingin avvíst');
    expect(messages.textContent).toContain('+298 55 78 12');
    expect(within(messages).getAllByRole('button', { name: /Send .* aftur/ })).toHaveLength(1);
    expect(messages.textContent).toContain(
      'Verður ikki sent aftur: ein kota virkar bert eina ferð',
    );
    // Each message's delivery state (issue 43): the e-mail kept by the outbox, the SMS failed at
    // the SMSC with its error.
    const rows = [...messages.querySelectorAll('tbody tr')];
    const rowOf = (text: string) => rows.find((r) => r.textContent?.includes(text));
    expect(rowOf('Alda: Flytingin avvíst')?.textContent).toContain('Goymt í útbakkanum, ikki sent');
    expect(rowOf('Eingangskota')?.textContent).toContain('Miseydnaðist');
    expect(rowOf('Eingangskota')?.textContent).toContain('Feilur: UNDELIV err:001');
    expect(panel().textContent).toContain('Fráboðanir í appini');

    // Sessions and devices.
    await user.click(tab(/^Innritaðar eindir/));
    expect(panel().textContent).toContain('iPhone hjá Guðrun');
    expect(within(panel()).getByRole('button', { name: 'Rita kundan út allastaðni' })).toBeTruthy();

    // Activity.
    await user.click(tab(/^Virksemi/));
    expect(panel().textContent).toContain('Eykapakki keyptur: 1 GB');
  });

  it("shows each number's lock, its last SIM change and the port-out attempts (issue 32)", async () => {
    const base = aCustomerView();
    const [first, second] = base.lines;
    renderConsole({
      path: `/customers/${CUSTOMER_ID}`,
      session: aSession('support'),
      handler: viewOf(() =>
        aCustomerView({
          lines: [
            first!,
            // Opens at 10:05 Tórshavn time (UTC+1 in June) the next day.
            { ...second!, lock: { state: 'unlocking', unlockAt: '2026-06-16T09:05:00.000Z' } },
            {
              ...second!,
              id: '7a2e4b1c-0003-4c3d-8e2f-0b2f00000003',
              msisdn: '557814',
              lock: { state: 'unlocked', unlockAt: null },
              portOutAttempts: [
                {
                  at: '2026-06-13T08:00:00.000Z',
                  provider: 'Nema',
                  outcome: 'refused',
                  reason: 'SOMETHING_NEW',
                },
              ],
            },
          ],
        }),
      ),
    });
    const table = await screen.findByRole('table', { name: 'Nummur' });
    expect(within(table).getByRole('columnheader', { name: 'Nummarlás' })).toBeTruthy();
    const rowOf = (number: string) =>
      within(table)
        .getAllByRole('row')
        .find((row) => row.textContent?.includes(number));
    expect(rowOf('55 78 12')?.textContent).toContain('Læst');
    expect(rowOf('55 78 12')?.textContent).toContain('Seinasta SIM-skifti 20.05.2026');
    expect(rowOf('55 78 13')?.textContent).toContain('Verður latið upp kl. 10:05 tann 16.06.2026');
    expect(rowOf('55 78 13')?.textContent).toContain('Einki SIM-skifti');
    expect(rowOf('55 78 14')?.textContent).toContain('Ólæst');

    // The attempts of all numbers, newest first, each refusal said in words.
    const attempts = screen.getByRole('table', { name: 'Flytiroyndir' });
    const rows = within(attempts).getAllByRole('row').slice(1);
    expect(rows.map((row) => row.textContent)).toEqual([
      '15.06.2026 11:1555 78 12HeyAvvíst: nummarið er læst',
      '14.06.2026 17:4055 78 12HeyAvvíst: flytikodan var skeiv, brúkt ella útgingin',
      '13.06.2026 09:0055 78 14NemaAvvíst: SOMETHING_NEW',
    ]);
  });

  it('shows no port-out attempts block when there were none, and English texts', async () => {
    const view = aCustomerView();
    renderConsole({
      path: `/customers/${CUSTOMER_ID}`,
      session: aSession('support'),
      locale: 'en',
      handler: viewOf(() => ({
        ...view,
        lines: view.lines.map((line) => ({ ...line, portOutAttempts: [] })),
      })),
    });
    const table = await screen.findByRole('table', { name: 'Numbers' });
    expect(table.textContent).toContain('Locked');
    expect(table.textContent).toContain('Last SIM change 20.05.2026');
    expect(screen.queryByRole('table', { name: 'Port-out attempts' })).toBeNull();
  });

  it('moves between tabs with the arrow keys and keeps the tab in the address', async () => {
    const user = userEvent.setup();
    const { router } = renderConsole({
      path: `/customers/${CUSTOMER_ID}?tab=orders`,
      session: aSession('support'),
      handler: viewOf(() => aCustomerView()),
    });
    const orders = await screen.findByRole('tab', { name: /^Bíleggingar/ });
    expect(orders.getAttribute('aria-selected')).toBe('true');
    orders.focus();
    await user.keyboard('{ArrowRight}');
    const payments = screen.getByRole('tab', { name: /^Gjøld/ });
    expect(payments.getAttribute('aria-selected')).toBe('true');
    expect(document.activeElement).toBe(payments);
    expect(router.state.location.search).toBe('?tab=payments');
  });

  it('asks for the reason when the customer was not opened in this session, then shows the view', async () => {
    const user = userEvent.setup();
    let opened = false;
    const { calls } = renderConsole({
      path: `/customers/${CUSTOMER_ID}`,
      session: aSession('support'),
      handler: (call) => {
        if (call.method === 'GET' && call.path === VIEW)
          return opened
            ? { status: 200, body: { data: aCustomerView() } }
            : {
                status: 403,
                body: {
                  error: { code: 'STAFF_REASON_REQUIRED', message: 'Skriva eina orsøk.' },
                },
              };
        if (call.method === 'POST' && call.path === `${VIEW}/access`) {
          opened = true;
          return {
            status: 201,
            body: {
              data: {
                customerId: CUSTOMER_ID,
                auditId: CUSTOMER_ID,
                openedAt: '2026-06-15T12:00:00.000Z',
              },
            },
          };
        }
        return undefined;
      },
    });
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Hví opnar tú hendan kundan?' }),
    ).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Opna kundan' }));
    expect(screen.getByText('Skriva eina orsøk, í minsta lagi 3 tekin.')).toBeTruthy();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
    await user.type(screen.getByRole('textbox', { name: 'Orsøk' }), 'Samtala kl. 10:40');
    await user.click(screen.getByRole('button', { name: 'Opna kundan' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Guðrun Poulsen' })).toBeTruthy();
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ reason: 'Samtala kl. 10:40' });
  });

  it('refreshes every 5 s with If-None-Match, and shows an order that moved', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    let view = aCustomerView();
    const { calls } = renderConsole({
      path: `/customers/${CUSTOMER_ID}?tab=orders`,
      session: aSession('support'),
      handler: viewOf(() => view),
    });
    expect(await screen.findByText('Flyting avvíst')).toBeTruthy();
    const order = view.orders[0]!;
    view = aCustomerView({
      orders: [
        {
          ...order,
          provisioning: {
            ...order.provisioning!,
            waitingFor: 'network',
            porting: { ...order.provisioning!.porting!, correction: 'corrected' },
          },
        },
      ],
    });
    await act(() => vi.advanceTimersByTimeAsync(LIVE_REFRESH_MS + 100));
    await waitFor(() =>
      expect(screen.getByRole('article').textContent).toContain('Rættað SIM-kortnummar'),
    );
    const gets = calls.filter((c) => c.method === 'GET' && c.path === VIEW);
    expect(gets.length).toBeGreaterThanOrEqual(2);
    expect(gets.at(-1)?.headers['if-none-match']).toBe('W/"v1"');
  });

  it('signs the customer out everywhere with a reason, and resends a message', async () => {
    const user = userEvent.setup();
    const { calls } = renderConsole({
      path: `/customers/${CUSTOMER_ID}?tab=sessions`,
      session: aSession('support'),
      handler: viewOf(
        () => aCustomerView(),
        (call) => {
          if (call.method === 'POST' && call.path === `${VIEW}/sign-out-everywhere`)
            return { status: 200, body: { data: { ended: 1 } } };
          if (call.method === 'POST' && call.path === `${VIEW}/messages/${MESSAGE_ID}/resend`)
            return {
              status: 200,
              body: { data: { channel: 'email', to: 'gudrun@demo.alda.fo', kind: 'message' } },
            };
          return undefined;
        },
      ),
    });
    await user.click(await screen.findByRole('button', { name: 'Rita kundan út allastaðni' }));
    const dialog = await screen.findByRole('dialog', { name: 'Rita kundan út allastaðni?' });
    await user.click(within(dialog).getByRole('button', { name: 'Rita kundan út allastaðni' }));
    expect(calls.some((c) => c.path.endsWith('/sign-out-everywhere'))).toBe(false);
    await user.type(
      within(dialog).getByRole('textbox', { name: 'Orsøk' }),
      'Samtala: telefon stolin',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Rita kundan út allastaðni' }));
    expect(await screen.findByText('1 innritan er endað.')).toBeTruthy();
    expect(calls.find((c) => c.path.endsWith('/sign-out-everywhere'))?.body).toEqual({
      reason: 'Samtala: telefon stolin',
    });

    await user.click(screen.getByRole('tab', { name: /^Send boð/ }));
    await user.click(screen.getByRole('button', { name: 'Send „Alda: Flytingin avvíst“ aftur' }));
    const resend = await screen.findByRole('dialog', { name: 'Send boðini aftur' });
    await user.type(within(resend).getByRole('textbox', { name: 'Orsøk' }), 'Mál #77');
    await user.click(within(resend).getByRole('button', { name: 'Send aftur' }));
    expect(await screen.findByText('Boðini eru send aftur til gudrun@demo.alda.fo.')).toBeTruthy();
    expect(calls.some((c) => c.path.includes(CODE_MESSAGE_ID))).toBe(false);
  });

  it('offers no support actions to the provisioning role, and no payment links', async () => {
    const user = userEvent.setup();
    renderConsole({
      path: `/customers/${CUSTOMER_ID}?tab=sessions`,
      session: aSession('provisioning'),
      handler: viewOf(() => aCustomerView()),
    });
    await screen.findByRole('heading', { level: 1, name: 'Guðrun Poulsen' });
    expect(screen.queryByRole('button', { name: 'Rita kundan út allastaðni' })).toBeNull();
    await user.click(screen.getByRole('tab', { name: /^Send boð/ }));
    expect(screen.queryByRole('button', { name: /Send .* aftur/ })).toBeNull();
    await user.click(screen.getByRole('tab', { name: /^Gjøld/ }));
    expect(within(screen.getByRole('tabpanel')).queryByRole('link')).toBeNull();
  });
});
