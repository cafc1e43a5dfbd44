import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { StaffRole } from '@alda/contract/schemas/staff';
import { aSession, renderConsole, type Call, type Handler } from '@/test/render';
import {
  aBill,
  aBillSummary,
  aCustomerView,
  anOpenBillSummary,
  BILL_ID,
  CUSTOMER_ID,
  OPEN_BILL_ID,
} from './fixtures';

const VIEW = `/api/staff/customers/${CUSTOMER_ID}`;
const BILLS = `${VIEW}/bills`;
const billPath = (id: string) => `/api/staff/bills/${id}`;
const resendPath = (id: string) => `/api/staff/bills/${id}/resend`;

type Answer = { status: number; body?: unknown };

/** The customer, their bills (`bills`), each bill in full, and the resend (`resend`). */
function api({
  bills = () => ({
    status: 200,
    body: { data: { items: [anOpenBillSummary(), aBillSummary()] } },
  }),
  resend = () => ({
    status: 200,
    body: { data: { ok: true, sentTo: 'gudrun@demo.alda.fo' } },
  }),
}: { bills?: () => Answer; resend?: (call: Call) => Answer } = {}): Handler {
  return (call) => {
    if (call.method === 'GET' && call.path === VIEW)
      return { status: 200, body: { data: aCustomerView() } };
    if (call.method === 'GET' && call.path === BILLS) return bills();
    if (call.method === 'GET' && call.path === billPath(BILL_ID))
      return { status: 200, body: { data: aBill() } };
    if (call.method === 'GET' && call.path === billPath(OPEN_BILL_ID))
      return {
        status: 200,
        body: {
          data: aBill({
            ...anOpenBillSummary(),
            sections: [
              {
                phoneNumber: '557812',
                holder: null,
                own: false,
                items: [
                  {
                    id: 'c1',
                    kind: 'plan',
                    description: 'Alda 10 GB, juni',
                    price: { net: 7_920, vat: 1_980, gross: 9_900 },
                    paid: false,
                    payment: null,
                  },
                ],
                subtotal: { net: 7_920, vat: 1_980, gross: 9_900 },
              },
            ],
            bankTransfer: {
              account: '6460 1234567',
              iban: 'FO9264600001234567',
              reference: '000000570',
              amountOere: 9_900,
              dueDate: '2026-07-14',
            },
          }),
        },
      };
    if (call.method === 'POST' && call.path.endsWith('/resend')) return resend(call);
    return undefined;
  };
}

function openBills(role: StaffRole = 'support', handler: Handler = api(), locale?: 'en') {
  const user = userEvent.setup();
  const view = renderConsole({
    path: `/customers/${CUSTOMER_ID}?tab=bills`,
    session: aSession(role),
    handler,
    locale,
  });
  return { user, ...view };
}

/** The table's body rows, as text. */
async function billRows(name = 'Rokningar') {
  const table = await screen.findByRole('table', { name });
  return within(table).getAllByRole('row').slice(1);
}

const resendCalls = (calls: Call[]) => calls.filter((c) => c.method === 'POST');

describe('the customer\'s bills ("Rokningar" tab, ADR 0098)', () => {
  it('lists each bill: number, month, total, the state in words, when and how paid or when due', async () => {
    const overdue = aBillSummary({
      id: 'bill-3',
      number: 'R-000031',
      period: '2026-04',
      dueDate: '2026-05-14',
      paidOere: 5_000,
      state: 'overdue',
      payment: {
        method: 'mobilepay',
        paidAt: '2026-05-02T10:00:00.000Z',
        cardBrand: null,
        cardLast4: null,
      },
    });
    const { calls } = openBills(
      'support',
      api({
        bills: () => ({
          status: 200,
          body: { data: { items: [anOpenBillSummary(), aBillSummary(), overdue] } },
        }),
      }),
    );
    const rows = await billRows();
    expect(screen.getByRole('tab', { name: 'Rokningar' }).getAttribute('aria-selected')).toBe(
      'true',
    );
    expect(rows).toHaveLength(3);
    // Newest first, as the API answers.
    expect(rows[0]?.textContent).toContain('R-000057');
    expect(rows[0]?.textContent).toContain('juni 2026');
    expect(rows[0]?.textContent).toContain('99,00 kr.');
    expect(rows[0]?.textContent).toContain('Ógoldin');
    expect(rows[0]?.textContent).toContain('Seinasti gjaldsdagur 14.07.2026');

    expect(rows[1]?.textContent).toContain('R-000042');
    expect(rows[1]?.textContent).toContain('mai 2026');
    expect(rows[1]?.textContent).toContain('149,00 kr.');
    expect(rows[1]?.textContent).toContain('Goldin');
    expect(rows[1]?.textContent).toContain('Goldið 01.06.2026');
    expect(rows[1]?.textContent).toContain('Gjaldsavtala · Visa •••• 4242');
    expect(rows[1]?.textContent).not.toContain('Seinasti gjaldsdagur');

    expect(rows[2]?.textContent).toContain('apríl 2026');
    expect(rows[2]?.textContent).toContain('Ikki goldin til tíðar');
    expect(rows[2]?.textContent).toContain('50,00 kr. av 149,00 kr. goldið');
    expect(rows[2]?.textContent).toContain('Seinasti gjaldsdagur var 14.05.2026');

    expect(calls.filter((c) => c.path === BILLS)).toHaveLength(1);
  });

  it('says so when the customer has no bills', async () => {
    openBills('support', api({ bills: () => ({ status: 200, body: { data: { items: [] } } }) }));
    const rows = await billRows();
    expect(rows.map((row) => row.textContent)).toEqual([
      'Kundin hevur ongar rokningar fingið enn.',
    ]);
  });

  it("shows a failed fetch with the server's reason, and tries again", async () => {
    let fail = true;
    const { user } = openBills(
      'support',
      api({
        bills: () =>
          fail
            ? {
                status: 403,
                body: { error: { code: 'FORBIDDEN', message: 'Tú hevur ikki atgongd til hetta.' } },
              }
            : { status: 200, body: { data: { items: [aBillSummary()] } } },
      }),
    );
    // The tab's own alert (the view has one of its own, for the rejected port).
    const alert = await within(await screen.findByRole('tabpanel')).findByRole('alert');
    expect(alert.textContent).toContain('Vit kundu ikki heinta rokningarnar.');
    expect(alert.textContent).toContain('Tú hevur ikki atgongd til hetta.');
    expect(screen.queryByRole('table', { name: 'Rokningar' })).toBeNull();
    fail = false;
    await user.click(within(alert).getByRole('button', { name: 'Royn aftur' }));
    expect((await billRows())[0]?.textContent).toContain('R-000042');
  });

  it('opens a bill: each number with its items and subtotal, VAT, the total and the payment', async () => {
    const { user, calls } = openBills();
    await billRows();
    await user.click(screen.getByRole('button', { name: 'Vís rokning R-000042' }));
    const dialog = await screen.findByRole('dialog', { name: 'Rokning R-000042' });
    await within(dialog).findByText('Alda 10 GB, mai');
    expect(calls.some((c) => c.method === 'GET' && c.path === billPath(BILL_ID))).toBe(true);
    expect(dialog.textContent).toContain('Fyri mai 2026');

    const own = within(dialog).getByRole('table', { name: 'Tað, sum er roknað fyri 55 78 12' });
    expect(within(dialog).getByRole('heading', { name: /55 78 12/ }).textContent).toContain(
      'Nummarið hjá kundanum sjálvum',
    );
    const ownRows = within(own)
      .getAllByRole('row')
      .map((row) => row.textContent);
    expect(ownRows).toEqual([
      'HvatGoldiðPrísur við MVG',
      'Alda 10 GB, maiGoldið 01.06.2026Gjaldsavtala · Visa •••• 424299,00 kr.',
      'Eykapakki 1 GBGoldið 01.06.2026Gjaldsavtala · Visa •••• 424239,00 kr.',
      'Tilsamans fyri 55 78 12138,00 kr.',
    ]);
    const son = within(dialog).getByRole('table', { name: 'Tað, sum er roknað fyri 55 78 13' });
    expect(within(dialog).getByRole('heading', { name: /55 78 13/ }).textContent).toContain(
      'Jógvan',
    );
    expect(son.textContent).toContain('Ferðing í apríl');
    expect(son.textContent).toContain('Tilsamans fyri 55 78 1311,00 kr.');

    const totals = within(dialog).getByRole('heading', { name: 'Tilsamans' }).parentElement!;
    expect(totals.textContent).toContain('Uttan MVG119,20 kr.');
    expect(totals.textContent).toContain('MVG 25 %29,80 kr.');
    expect(totals.textContent).toContain('Tilsamans við MVG149,00 kr.');
    expect(totals.textContent).toContain('Eftir at gjalda0,00 kr.');
    expect(dialog.textContent).toContain(
      'Seinasta gjald01.06.2026 · Gjaldsavtala · Visa •••• 4242',
    );
    expect(within(dialog).queryByRole('heading', { name: 'Bankaflyting' })).toBeNull();

    await user.click(within(dialog).getByRole('button', { name: 'Lat aftur' }));
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('shows how to pay an unpaid bill by bank transfer', async () => {
    const { user } = openBills();
    await billRows();
    await user.click(screen.getByRole('button', { name: 'Vís rokning R-000057' }));
    const dialog = await screen.findByRole('dialog', { name: 'Rokning R-000057' });
    const bank = (await within(dialog).findByRole('heading', { name: 'Bankaflyting' }))
      .parentElement!;
    expect(bank.textContent).toContain('Reg.nr. og konto6460 1234567');
    expect(bank.textContent).toContain('IBANFO9264600001234567');
    expect(bank.textContent).toContain('Tilvísing000000570');
    expect(bank.textContent).toContain('Upphædd99,00 kr.');
    expect(bank.textContent).toContain('Seinasti gjaldsdagur14.07.2026');
    expect(dialog.textContent).toContain('Ikki goldið');
    expect(dialog.textContent).toContain('Einki gjald enn');
  });

  it('resends a bill only with a reason of 3–500 characters, sends it and says where it went', async () => {
    const { user, calls } = openBills();
    await billRows();
    await user.click(screen.getByRole('button', { name: 'Send rokning R-000042 aftur' }));
    const dialog = await screen.findByRole('dialog', { name: 'Send rokningina aftur' });
    expect(dialog.textContent).toContain('Rokning R-000042 (mai 2026) verður send kundanum aftur');
    const reason = within(dialog).getByRole('textbox', { name: 'Orsøk' });
    const send = within(dialog).getByRole('button', { name: 'Send aftur' });

    // Missing, too short, and too short once trimmed: refused here, nothing sent.
    await user.click(send);
    expect(within(dialog).getByText('Skriva eina orsøk, í minsta lagi 3 tekin.')).toBeTruthy();
    expect(reason.getAttribute('aria-invalid')).toBe('true');
    await user.type(reason, 'ab');
    await user.click(send);
    await user.clear(reason);
    await user.type(reason, '   ab   ');
    await user.click(send);
    expect(within(dialog).getByText('Skriva eina orsøk, í minsta lagi 3 tekin.')).toBeTruthy();
    expect(resendCalls(calls)).toEqual([]);
    // No more than 500 characters can be written.
    expect(reason.getAttribute('maxlength')).toBe('500');

    await user.clear(reason);
    await user.type(reason, '  Mál #88: fekk ikki rokningina  ');
    await user.click(send);
    expect(
      await screen.findByText('Sent til gudrun@demo.alda.fo (rokning R-000042).'),
    ).toBeTruthy();
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(resendCalls(calls).map((c) => [c.path, c.body])).toEqual([
      [resendPath(BILL_ID), { reason: 'Mál #88: fekk ikki rokningina' }],
    ]);
  });

  it("shows the API's refusal in the dialog and keeps it open to try again", async () => {
    const { user, calls } = openBills(
      'support',
      api({
        resend: () => ({
          status: 409,
          body: {
            error: { code: 'CONFLICT', message: 'Kundin hevur ongan teldupost at senda til.' },
          },
        }),
      }),
    );
    await billRows();
    await user.click(screen.getByRole('button', { name: 'Send rokning R-000057 aftur' }));
    const dialog = await screen.findByRole('dialog', { name: 'Send rokningina aftur' });
    await user.type(within(dialog).getByRole('textbox', { name: 'Orsøk' }), 'Samtala 14:02');
    await user.click(within(dialog).getByRole('button', { name: 'Send aftur' }));
    expect((await within(dialog).findByRole('alert')).textContent).toContain(
      'Kundin hevur ongan teldupost at senda til.',
    );
    expect(screen.getByRole('dialog', { name: 'Send rokningina aftur' })).toBeTruthy();
    expect(screen.queryByText(/^Sent til/)).toBeNull();
    expect(resendCalls(calls).map((c) => c.path)).toEqual([resendPath(OPEN_BILL_ID)]);
  });

  it("resends from the bill's own dialog", async () => {
    const { user, calls } = openBills();
    await billRows();
    await user.click(screen.getByRole('button', { name: 'Vís rokning R-000042' }));
    const details = await screen.findByRole('dialog', { name: 'Rokning R-000042' });
    await user.click(within(details).getByRole('button', { name: 'Send aftur' }));
    const dialog = await screen.findByRole('dialog', { name: 'Send rokningina aftur' });
    await user.type(within(dialog).getByRole('textbox', { name: 'Orsøk' }), 'Mál #90');
    await user.click(within(dialog).getByRole('button', { name: 'Send aftur' }));
    expect(
      await screen.findByText('Sent til gudrun@demo.alda.fo (rokning R-000042).'),
    ).toBeTruthy();
    expect(resendCalls(calls).map((c) => [c.path, c.body])).toEqual([
      [resendPath(BILL_ID), { reason: 'Mál #90' }],
    ]);
  });

  it('offers no resend to the provisioning role, in the list or in a bill', async () => {
    const { user } = openBills('provisioning');
    const rows = await billRows();
    expect(rows).toHaveLength(2);
    expect(screen.queryByRole('columnheader', { name: 'Send aftur' })).toBeNull();
    expect(screen.queryByRole('button', { name: /aftur$/ })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Vís rokning R-000042' }));
    const dialog = await screen.findByRole('dialog', { name: 'Rokning R-000042' });
    await within(dialog).findByText('Alda 10 GB, mai');
    expect(within(dialog).queryByRole('button', { name: 'Send aftur' })).toBeNull();
  });

  it('speaks English too', async () => {
    const { user } = openBills('admin', api(), 'en');
    const rows = await billRows('Bills');
    expect(rows[0]?.textContent).toContain('June 2026');
    expect(rows[0]?.textContent).toContain('Unpaid');
    expect(rows[0]?.textContent).toContain('Due 14.07.2026');
    expect(rows[1]?.textContent).toContain('Paid 01.06.2026');
    await user.click(screen.getByRole('button', { name: 'Resend bill R-000042' }));
    const dialog = await screen.findByRole('dialog', { name: 'Resend the bill' });
    await user.type(within(dialog).getByRole('textbox', { name: 'Reason' }), 'Call 12');
    await user.click(within(dialog).getByRole('button', { name: 'Resend' }));
    expect(await screen.findByText('Sent to gudrun@demo.alda.fo (bill R-000042).')).toBeTruthy();
  });
});
