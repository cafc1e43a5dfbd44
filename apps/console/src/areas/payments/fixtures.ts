import type { StaffPaymentDetail, StaffPaymentRow } from '@alda/contract/schemas/staff-payments';

/** Payments as the staff API answers them, for the area's tests. */

export const PAYMENT_ID = '7d0c7a52-2c1e-4a8e-9d43-5c1f0e9b7a10';
export const ORDER_ID = '0e5b1c44-8f2a-4b7e-a1c3-9d8e7f6a5b40';

export function aPaymentRow(overrides: Partial<StaffPaymentRow> = {}): StaffPaymentRow {
  return {
    id: PAYMENT_ID,
    orderId: ORDER_ID,
    createdAt: '2026-11-25T09:12:00.000Z',
    customer: { id: '6f1d2c3a-0001-4a6e-9b1a-0a1f00000001', name: 'Jóannes Joensen' },
    amountOere: 3_900,
    currency: 'DKK',
    method: 'card',
    state: 'paid',
    card: { brand: 'Visa', last4: '4242' },
    refundedOere: 0,
    refundingOere: 0,
    ...overrides,
  };
}

export function aPayment(overrides: Partial<StaffPaymentDetail> = {}): StaffPaymentDetail {
  return {
    ...aPaymentRow(),
    updatedAt: '2026-11-25T09:13:00.000Z',
    provider: 'test',
    providerPaymentId: 'tp_0123456789abcdef01234567',
    failureReason: null,
    order: { id: ORDER_ID, kind: 'extra_package' },
    events: [
      { eventId: 'evt_1', type: 'payment.pending', receivedAt: '2026-11-25T09:12:30.000Z' },
      { eventId: 'evt_2', type: 'payment.succeeded', receivedAt: '2026-11-25T09:12:31.000Z' },
    ],
    providerCheck: {
      status: 'known',
      view: {
        state: 'succeeded',
        card: { brand: 'Visa', last4: '4242', expiry: '12/30' },
        failureReason: null,
      },
      reconciliation: { verdict: 'agree', ours: 'paid', provider: 'paid', next: null },
    },
    refunds: [],
    receipt: {
      id: '3b7e9a10-1c2d-4e5f-8a9b-0c1d2e3f4a5b',
      number: 'K-2026-000042',
      issuedAt: '2026-11-25T09:12:31.000Z',
      grossOere: 3_900,
    },
    refundableOere: 3_900,
    ...overrides,
  };
}
