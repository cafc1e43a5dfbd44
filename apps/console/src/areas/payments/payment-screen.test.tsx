import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { StaffPaymentDetail } from '@alda/contract/schemas/staff-payments';
import { aSession, renderConsole } from '@/test/render';
import { aPayment, PAYMENT_ID } from './fixtures';

const DETAIL = `/api/staff/payments/${PAYMENT_ID}`;

function show(payment: StaffPaymentDetail | { status: number; body: unknown }) {
  return renderConsole({
    path: `/payments/${PAYMENT_ID}`,
    session: aSession('support'),
    handler: (call) =>
      call.path === DETAIL
        ? 'status' in payment && 'body' in payment
          ? payment
          : { status: 200, body: { data: payment } }
        : undefined,
  });
}

const section = async (name: string) => screen.findByRole('region', { name });

describe('one payment (issue 31: events from the provider, the reconciliation result)', () => {
  it('shows the payment, the money, "in agreement", the provider view and its events in order', async () => {
    show(aPayment());
    expect(await screen.findByRole('heading', { level: 1, name: 'Gjald 39,00 kr.' })).toBeTruthy();
    expect(screen.getByText('Avstemming við veitaran: Samsvarar')).toBeTruthy();
    expect(screen.getByText(/^Dagført kl\. \d{2}:\d{2}:\d{2}$/).tagName).toBe('SPAN');
    const money = await section('Peningur');
    expect(money.textContent).toContain('39,00 kr.');
    expect(money.textContent).toContain('DKK');
    const reconciliation = await section('Avstemming við veitaran');
    expect(reconciliation.textContent).toContain('Veitarin og vit siga tað sama: Goldið.');
    const provider = await section('Hvat veitarin sigur nú');
    expect(provider.textContent).toContain('Gjøgnumført');
    expect(provider.textContent).toContain('Visa •••• 4242 · 12/30');
    const events = within(await section('Boð frá veitaranum')).getAllByRole('listitem');
    expect(events.map((e) => e.querySelector('p')?.textContent)).toEqual([
      'Gjaldið er í viðgerð',
      'Gjaldið er gjøgnumført',
    ]);
    expect((await section('Um gjaldið')).textContent).toContain('K-2026-000042');
    expect(screen.getByText('Einki er endurgoldið av hesum gjaldinum.')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Endurgjalda' })).toBeTruthy();
  });

  it('"differs: ours X, provider Y" as a clear badge, with what settles it', async () => {
    show(
      aPayment({
        state: 'pending',
        providerCheck: {
          status: 'known',
          view: { state: 'succeeded', card: null, failureReason: null },
          reconciliation: {
            verdict: 'differs',
            ours: 'pending',
            provider: 'paid',
            next: 'advance',
          },
        },
        refundableOere: 0,
      }),
    );
    expect(await screen.findByText('Avstemming við veitaran: Ósamsvar')).toBeTruthy();
    const reconciliation = await section('Avstemming við veitaran');
    expect(reconciliation.textContent).toContain('Okkara støða: Í viðgerð. Veitarin: Goldið.');
    expect(reconciliation.textContent).toContain('næsta avstemming flytur okkara støðu fram');
    // Not paid: no refund.
    expect(screen.queryByRole('button', { name: 'Endurgjalda' })).toBeNull();
    expect(screen.getByText('Bert goldin gjøld kunnu endurgjaldast.')).toBeTruthy();
  });

  it('an unreachable provider does not fail the page: it says so and shows the rest', async () => {
    show(aPayment({ providerCheck: { status: 'unreachable' } }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Gjald 39,00 kr.' })).toBeTruthy();
    expect(screen.getAllByText('Veitarin svarar ikki').length).toBeGreaterThan(0);
    expect((await section('Boð frá veitaranum')).textContent).toContain('Gjaldið er gjøgnumført');
  });

  it('shows the refunds: pending until the job pays them, who asked and why, and the last error', async () => {
    show(
      aPayment({
        refundedOere: 1_000,
        refundingOere: 2_900,
        refundableOere: 0,
        refunds: [
          {
            id: '5f0e8c2a-7b1d-4c3e-9a8f-1e2d3c4b5a69',
            amountOere: 1_000,
            state: 'refunded',
            requestedBy: 'staff:bjork@alda.fo',
            reason: 'Mál 4711',
            attempts: 1,
            lastError: null,
            createdAt: '2026-11-25T10:00:00.000Z',
            refundedAt: '2026-11-25T10:01:00.000Z',
          },
          {
            id: '6a1f9d3b-8c2e-4d4f-8b9a-2f3e4d5c6b7a',
            amountOere: 2_900,
            state: 'pending',
            requestedBy: 'staff:bjork@alda.fo',
            reason: 'Mál 4712',
            attempts: 2,
            lastError: 'connect ECONNREFUSED',
            createdAt: '2026-11-25T10:05:00.000Z',
            refundedAt: null,
          },
        ],
      }),
    );
    const table = await screen.findByRole('table', { name: 'Endurgjøld av hesum gjaldinum' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows[0]?.textContent).toContain('10,00 kr.');
    expect(rows[0]?.textContent).toContain('Endurgoldið');
    expect(rows[0]?.textContent).toContain('bjork@alda.fo');
    expect(rows[1]?.textContent).toContain('Bíðar');
    expect(rows[1]?.textContent).toContain('Seinasta villa: connect ECONNREFUSED');
    expect(rows[1]?.textContent).toContain('2 royndir');
    expect(screen.queryByRole('button', { name: 'Endurgjalda' })).toBeNull();
    expect(
      screen.getByText('Alt er longu endurgoldið ella bíðar eftir at verða endurgoldið.'),
    ).toBeTruthy();
  });

  it('says when the payment does not exist', async () => {
    show({ status: 404, body: { error: { code: 'NOT_FOUND', message: 'Finst ikki.' } } });
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Hetta gjaldið finst ikki.' }),
    ).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Aftur til gjaldingarnar' }).getAttribute('href')).toBe(
      '/payments',
    );
  });
});
