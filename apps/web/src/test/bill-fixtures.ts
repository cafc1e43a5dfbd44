import type {
  BillResponse,
  BillSummary,
  BillUsageItem,
  BillUsageResponse,
} from '@alda/contract/schemas/bills';

/** Monthly bills (ADR 0098) of the demo payer, Rannvá (214365), whose family has Sunneva (551122). */

const price = (gross: number) => {
  const net = Math.round(gross / 1.25);
  return { net, vat: gross - net, gross };
};

export const billSummary = (overrides: Partial<BillSummary> = {}): BillSummary => ({
  id: 'bill-12',
  number: 'R-000042',
  period: '2026-11',
  issuedAt: '2026-12-01T02:00:00.000Z',
  dueDate: '2026-12-15',
  total: { net: 39760, vat: 9940, gross: 49700 },
  paidOere: 0,
  state: 'open',
  payment: null,
  scope: 'payer',
  ...overrides,
});

/** Newest first, one bill in each state. */
export const billList: BillSummary[] = [
  billSummary(),
  billSummary({
    id: 'bill-11',
    number: 'R-000031',
    period: '2026-10',
    issuedAt: '2026-11-01T02:00:00.000Z',
    dueDate: '2026-11-15',
    total: price(29900),
    paidOere: 29900,
    state: 'paid',
    payment: {
      method: 'mobilepay',
      paidAt: '2026-11-03T10:15:00.000Z',
      cardBrand: null,
      cardLast4: null,
    },
  }),
  billSummary({
    id: 'bill-10',
    number: 'R-000020',
    period: '2026-09',
    issuedAt: '2026-10-01T01:00:00.000Z',
    dueDate: '2026-10-15',
    total: price(29900),
    paidOere: 10000,
    state: 'partly_paid',
    payment: {
      method: 'card',
      paidAt: '2026-10-05T09:00:00.000Z',
      cardBrand: 'Visa',
      cardLast4: '4242',
    },
  }),
  billSummary({
    id: 'bill-9',
    number: 'R-000009',
    period: '2026-08',
    issuedAt: '2026-09-01T01:00:00.000Z',
    dueDate: '2026-09-15',
    total: price(29900),
    state: 'overdue',
  }),
];

/** November 2026, unpaid: Rannvá's own number and Sunneva's, owed by bank transfer. */
export const openBill: BillResponse = {
  ...billSummary(),
  vatRate: 25,
  sections: [
    {
      phoneNumber: '214365',
      holder: null,
      own: true,
      items: [
        {
          id: 'item-1',
          kind: 'plan',
          description: 'Familja 50 GB',
          price: price(29900),
          paid: false,
          payment: null,
        },
      ],
      subtotal: price(29900),
    },
    {
      phoneNumber: '551122',
      holder: 'Sunneva',
      own: false,
      items: [
        {
          id: 'item-2',
          kind: 'member',
          description: 'Limur í familjuhaldi',
          price: price(9900),
          paid: false,
          payment: null,
        },
        {
          id: 'item-3',
          kind: 'package',
          description: 'Eykapakki 10 GB',
          price: price(9900),
          paid: false,
          payment: null,
        },
      ],
      subtotal: price(19800),
    },
  ],
  bankTransfer: {
    account: '6460 1234567',
    iban: 'FO97 6460 0001 2345 67',
    reference: '000000422',
    amountOere: 49700,
    dueDate: '2026-12-15',
  },
};

/** October 2026, paid with a card. */
export const paidBill: BillResponse = {
  ...openBill,
  id: 'bill-11',
  number: 'R-000031',
  period: '2026-10',
  paidOere: 49700,
  state: 'paid',
  payment: {
    method: 'card',
    paidAt: '2026-11-03T10:15:00.000Z',
    cardBrand: 'Visa',
    cardLast4: '4242',
  },
  bankTransfer: null,
};

/** What Sunneva, a family member, sees of the November bill: her own number's part. */
export const memberBill: BillResponse = {
  ...openBill,
  scope: 'member',
  total: price(19800),
  sections: [{ ...openBill.sections[1]!, holder: null, own: true }],
  bankTransfer: null,
};

export const usageItem = (overrides: Partial<BillUsageItem> = {}): BillUsageItem => ({
  occurredAt: '2026-11-02T08:15:00.000Z',
  type: 'voice',
  otherParty: '316•••',
  quantity: 205,
  unit: 's',
  zone: 'domestic',
  chargeOere: 0,
  included: true,
  ...overrides,
});

export const usagePage = (
  items: BillUsageItem[],
  overrides: Partial<BillUsageResponse> = {},
): BillUsageResponse => ({
  items,
  total: items.length,
  page: 1,
  perPage: 50,
  fullNumbers: false,
  expired: false,
  ...overrides,
});
