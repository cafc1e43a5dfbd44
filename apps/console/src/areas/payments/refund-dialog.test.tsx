import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { StaffPaymentDetail } from '@alda/contract/schemas/staff-payments';
import { aSession, renderConsole, type Call, type Handler } from '@/test/render';
import { aPayment, PAYMENT_ID } from './fixtures';

const DETAIL = `/api/staff/payments/${PAYMENT_ID}`;
const REFUNDS = `${DETAIL}/refunds`;

/** The staff API of one payment; POST refunds answers `refundAnswer` (201 by default). */
function api(
  payment: StaffPaymentDetail,
  refundAnswer?: (call: Call) => { status: number; body?: unknown },
): Handler {
  return (call) => {
    if (call.method === 'GET' && call.path === DETAIL)
      return { status: 200, body: { data: payment } };
    if (call.method === 'POST' && call.path === REFUNDS) {
      if (refundAnswer) return refundAnswer(call);
      const body = call.body as { amountOere: number; reason: string };
      return {
        status: 201,
        body: {
          data: {
            id: '5f0e8c2a-7b1d-4c3e-9a8f-1e2d3c4b5a69',
            amountOere: body.amountOere,
            state: 'pending',
            requestedBy: 'staff:support@alda.fo',
            reason: body.reason,
            attempts: 0,
            lastError: null,
            createdAt: '2026-11-25T10:00:00.000Z',
            refundedAt: null,
          },
        },
      };
    }
    return undefined;
  };
}

async function openDialog(payment: StaffPaymentDetail, handler = api(payment)) {
  const user = userEvent.setup();
  const view = renderConsole({
    path: `/payments/${PAYMENT_ID}`,
    session: aSession('support'),
    handler,
  });
  await user.click(await screen.findByRole('button', { name: 'Endurgjalda' }));
  const dialog = await screen.findByRole('dialog', { name: 'Endurgjalda gjaldið' });
  return { user, dialog, ...view };
}

const refundCalls = (calls: Call[]) => calls.filter((c) => c.method === 'POST');

describe('the refund dialog (issue 31 "Payments": a full or partial refund)', () => {
  it('SPEC §9: starts with the remaining amount in kroner, formatted as the customer app formats money', async () => {
    const { dialog } = await openDialog(aPayment({ refundableOere: 2_900, refundedOere: 1_000 }));
    expect(within(dialog).getByLabelText('Upphædd í krónum')).toHaveProperty('value', '29,00');
    expect(dialog.textContent).toContain('Í mesta lagi 29,00 kr. kann endurgjaldast.');
  });

  it('refuses more than the remaining amount, and sends nothing', async () => {
    const { user, dialog, calls } = await openDialog(aPayment({ refundableOere: 2_900 }));
    const amount = within(dialog).getByLabelText('Upphædd í krónum');
    await user.clear(amount);
    await user.type(amount, '29,01');
    await user.type(within(dialog).getByLabelText('Orsøk'), 'Mál 4711');
    await user.click(within(dialog).getByRole('button', { name: 'Víðari' }));
    expect(within(dialog).getByText('Í mesta lagi 29,00 kr. kann endurgjaldast.')).toBeTruthy();
    expect(amount.getAttribute('aria-invalid')).toBe('true');
    expect(within(dialog).queryByRole('heading', { name: /\?$/ })).toBeNull();
    expect(refundCalls(calls)).toEqual([]);
  });

  it('refuses 0, text that is not an amount, and a missing reason', async () => {
    const { user, dialog, calls } = await openDialog(aPayment());
    const amount = within(dialog).getByLabelText('Upphædd í krónum');
    const next = within(dialog).getByRole('button', { name: 'Víðari' });
    await user.clear(amount);
    await user.type(amount, '0');
    await user.click(next);
    expect(within(dialog).getByText('Upphæddin má vera størri enn 0.')).toBeTruthy();
    expect(within(dialog).getByText('Skriva eina orsøk, í minsta lagi 3 tekin.')).toBeTruthy();
    await user.clear(amount);
    await user.type(amount, 'tjúgu');
    await user.click(next);
    expect(within(dialog).getByText('Skriva upphæddina í krónum, t.d. 39,00.')).toBeTruthy();
    expect(refundCalls(calls)).toEqual([]);
  });

  it('confirms naming the amount, then sends it in øre with the reason, shows progress and the result', async () => {
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const payment = aPayment();
    const base = api(payment);
    const { user, dialog, calls } = await openDialog(payment, async (call) => {
      if (call.method === 'POST') await held;
      return base(call);
    });
    const amount = within(dialog).getByLabelText('Upphædd í krónum');
    await user.clear(amount);
    await user.type(amount, '19,50');
    await user.type(within(dialog).getByLabelText('Orsøk'), '  Samtala 12, tvígoldið  ');
    await user.click(within(dialog).getByRole('button', { name: 'Víðari' }));

    expect(within(dialog).getByRole('heading', { name: 'Endurgjalda 19,50 kr.?' })).toBeTruthy();
    expect(dialog.textContent).toContain('19,50 kr. verður goldið aftur til Jóannes Joensen.');
    expect(refundCalls(calls)).toEqual([]);
    await user.click(within(dialog).getByRole('button', { name: 'Endurgjalda 19,50 kr.' }));

    expect(await within(dialog).findByText('Endurgjaldið verður skrásett…')).toBeTruthy();
    expect(
      within(dialog)
        .getByRole('button', { name: 'Endurgjalda 19,50 kr.' })
        .getAttribute('aria-busy'),
    ).toBe('true');
    release();
    expect(
      await within(dialog).findByRole('heading', { name: 'Endurgjaldið er skrásett' }),
    ).toBeTruthy();
    expect(dialog.textContent).toContain('19,50 kr. verður endurgoldið.');
    expect(refundCalls(calls).map((c) => c.body)).toEqual([
      { amountOere: 1_950, reason: 'Samtala 12, tvígoldið' },
    ]);
    // The payment is read again at once (the refund shows as pending).
    await waitFor(() =>
      expect(calls.filter((c) => c.method === 'GET' && c.path === DETAIL).length).toBeGreaterThan(
        1,
      ),
    );
    await user.click(within(dialog).getByRole('button', { name: 'Lat aftur' }));
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it("shows the server's refusal (409 REFUND_TOO_LARGE) and lets the amount be changed", async () => {
    const payment = aPayment();
    const { user, dialog } = await openDialog(
      payment,
      api(payment, () => ({
        status: 409,
        body: {
          error: {
            code: 'REFUND_TOO_LARGE',
            message: 'Endurgjaldið er størri enn tað, ið eftir er av gjaldinum.',
          },
        },
      })),
    );
    await user.type(within(dialog).getByLabelText('Orsøk'), 'Mál 4712');
    await user.click(within(dialog).getByRole('button', { name: 'Víðari' }));
    await user.click(within(dialog).getByRole('button', { name: 'Endurgjalda 39,00 kr.' }));
    expect((await within(dialog).findByRole('alert')).textContent).toContain(
      'Endurgjaldið er størri enn tað, ið eftir er av gjaldinum.',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Aftur' }));
    expect(within(dialog).getByLabelText('Upphædd í krónum')).toBeTruthy();
  });

  it('in English, takes English decimals and sends øre', async () => {
    const user = userEvent.setup();
    const payment = aPayment();
    const { calls } = renderConsole({
      path: `/payments/${PAYMENT_ID}`,
      session: aSession('support'),
      handler: api(payment),
      locale: 'en',
    });
    await user.click(await screen.findByRole('button', { name: 'Refund' }));
    const dialog = await screen.findByRole('dialog', { name: 'Refund the payment' });
    const amount = within(dialog).getByLabelText('Amount in kroner');
    expect(amount).toHaveProperty('value', '39.00');
    await user.clear(amount);
    await user.type(amount, '1.25');
    await user.type(within(dialog).getByLabelText('Reason'), 'Call 77');
    await user.click(within(dialog).getByRole('button', { name: 'Next' }));
    await user.click(within(dialog).getByRole('button', { name: 'Refund 1.25 kr.' }));
    await within(dialog).findByRole('heading', { name: 'The refund is registered' });
    expect(refundCalls(calls).map((c) => c.body)).toEqual([{ amountOere: 125, reason: 'Call 77' }]);
  });
});
