import type { BillResponse, BillSummary } from '@alda/contract/schemas/bills';
import type { StaffCustomerHit, StaffCustomerView } from '@alda/contract/schemas/staff-customers';

/** Customers as the staff API answers them, for the area's tests. */

export const CUSTOMER_ID = '5b1f0c2e-0003-4a6e-9b1a-0a1f00000003';
export const ORDER_ID = '9c2d1e3f-0008-4b7e-a1c3-9d8e7f6a5b08';
export const PAYMENT_ID = '7d0c7a52-2c1e-4a8e-9d43-5c1f0e9b7a10';
export const MESSAGE_ID = '3e4f5a6b-7c8d-4e9f-8a0b-1c2d3e4f5a6b';
export const CODE_MESSAGE_ID = '4f5a6b7c-8d9e-4f0a-9b1c-2d3e4f5a6b7c';

export function aHit(overrides: Partial<StaffCustomerHit> = {}): StaffCustomerHit {
  return {
    id: CUSTOMER_ID,
    name: 'Guðrun Poulsen',
    email: 'gudrun@demo.alda.fo',
    numbers: ['557812', '557813'],
    matchedOn: 'name',
    ...overrides,
  };
}

/**
 * Guðrun: two numbers (the first locked, with two port-outs refused; the second unlocked), a port
 * the other provider rejected, a paid package with a refund.
 */
export function aCustomerView(overrides: Partial<StaffCustomerView> = {}): StaffCustomerView {
  return {
    profile: {
      id: CUSTOMER_ID,
      firstname: 'Guðrun',
      lastname: 'Poulsen',
      email: 'gudrun@demo.alda.fo',
      phoneNumber: '557812',
      address: 'Niels Finsens gøta 12',
      postCode: '100',
      city: 'Tórshavn',
      locale: 'fo',
      hasPassword: true,
      createdAt: '2025-03-02T10:00:00.000Z',
    },
    lines: [
      {
        id: '7a2e4b1c-0003-4c3d-8e2f-0b2f00000001',
        msisdn: '557812',
        status: 'active',
        planId: 'alda-10',
        planName: 'Alda 10 GB',
        simType: 'physical',
        iccid: '8929802000000300558',
        esimInstalled: false,
        prepaid: false,
        familyRole: 'none',
        userName: 'Guðrun Poulsen',
        usedByCustomer: true,
        dataPaused: false,
        createdAt: '2025-03-02T10:00:00.000Z',
        activatedAt: '2025-03-03T10:00:00.000Z',
        expiresAt: null,
        lock: { state: 'locked', unlockAt: null },
        simChangedAt: '2026-05-20T14:30:00.000Z',
        portOutAttempts: [
          {
            at: '2026-06-15T10:15:00.000Z',
            provider: 'Hey',
            outcome: 'refused',
            reason: 'NUMBER_LOCKED',
          },
          {
            at: '2026-06-14T16:40:00.000Z',
            provider: 'Hey',
            outcome: 'refused',
            reason: 'PORT_OUT_CODE_INVALID',
          },
        ],
      },
      {
        id: '7a2e4b1c-0003-4c3d-8e2f-0b2f00000002',
        msisdn: '557813',
        status: 'processing',
        planId: 'alda-5',
        planName: 'Alda 5 GB',
        simType: 'esim',
        iccid: null,
        esimInstalled: false,
        prepaid: false,
        familyRole: 'none',
        userName: 'Guðrun Poulsen',
        usedByCustomer: true,
        dataPaused: false,
        createdAt: '2026-06-14T12:00:00.000Z',
        activatedAt: null,
        expiresAt: null,
        lock: { state: 'unlocked', unlockAt: null },
        simChangedAt: null,
        portOutAttempts: [],
      },
    ],
    family: null,
    orders: [
      {
        id: ORDER_ID,
        kind: 'new_subscription',
        lifecycleAction: null,
        msisdn: '557813',
        planName: 'Alda 5 GB',
        priceOere: null,
        paymentStatus: 'not_required',
        isComplete: false,
        isCancelled: false,
        createdAt: '2026-06-14T12:00:00.000Z',
        completedAt: null,
        placedByCustomer: true,
        provisioning: {
          steps: [
            { step: 'received', at: '2026-06-14T12:00:00.000Z', actor: 'customer', reason: null },
            {
              step: 'esim_ready',
              at: '2026-06-14T13:00:00.000Z',
              actor: 'network',
              reason: null,
            },
            {
              step: 'port_requested',
              at: '2026-06-14T14:00:00.000Z',
              actor: 'network',
              reason: null,
            },
            {
              step: 'port_rejected',
              at: '2026-06-15T09:00:00.000Z',
              actor: 'network',
              reason:
                'SIM-kortnummarið passar ikki við tað, sum núverandi veitarin hevur skrásett.',
            },
          ],
          upcoming: ['port_requested', 'port_date_set', 'number_moved', 'active'],
          waitingFor: 'customer_correction',
          expectedAt: null,
          delivery: 'esim',
          isPorting: true,
          portDate: null,
          porting: {
            simcardNumber: '8929802990017420000',
            rejection: {
              at: '2026-06-15T09:00:00.000Z',
              reason:
                'SIM-kortnummarið passar ikki við tað, sum núverandi veitarin hevur skrásett.',
            },
            correction: 'waiting',
          },
        },
      },
    ],
    payments: [
      {
        id: PAYMENT_ID,
        orderId: '0e5b1c44-8f2a-4b7e-a1c3-9d8e7f6a5b40',
        orderKind: 'extra_package',
        amountOere: 3_900,
        method: 'card',
        state: 'paid',
        card: { brand: 'Visa', last4: '4242' },
        failureReason: null,
        createdAt: '2026-06-10T09:12:00.000Z',
        refunds: [
          {
            id: '8e1d2c3b-4a5f-4e6d-8c7b-9a0f1e2d3c4b',
            amountOere: 1_000,
            state: 'pending',
            requestedBy: 'staff:anna@alda.fo',
            reason: 'Mál #12: tvígoldið',
            createdAt: '2026-06-15T10:00:00.000Z',
            refundedAt: null,
          },
        ],
      },
    ],
    receipts: [
      {
        id: '1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d',
        number: 'K-2026-000042',
        grossOere: 3_900,
        issuedAt: '2026-06-10T09:13:00.000Z',
        orderKind: 'extra_package',
      },
    ],
    notifications: [
      {
        id: '2b3c4d5e-6f7a-4b8c-9d0e-1f2a3b4c5d6e',
        type: 'system',
        title: 'Flytingin avvíst',
        body: 'Hin veitarin vísti flytingini aftur.',
        createdAt: '2026-06-15T09:00:00.000Z',
        readAt: null,
      },
    ],
    messages: {
      kept: { sms: true, email: true },
      items: [
        {
          id: MESSAGE_ID,
          channel: 'email',
          to: 'gudrun@demo.alda.fo',
          subject: 'Alda: Flytingin avvíst',
          text: 'Hey Guðrun\n\nHin veitarin vísti flytingini aftur.',
          kind: 'message',
          resendable: true,
          createdAt: '2026-06-15T09:00:05.000Z',
          delivery: { state: 'kept', error: null, at: '2026-06-15T09:00:05.000Z' },
        },
        {
          id: CODE_MESSAGE_ID,
          channel: 'sms',
          to: '298557812',
          subject: null,
          text: null,
          kind: 'one_time_code',
          resendable: false,
          createdAt: '2026-06-15T08:00:00.000Z',
          delivery: {
            state: 'failed',
            error: 'UNDELIV err:001',
            at: '2026-06-15T08:00:09.000Z',
          },
        },
      ],
    },
    sessions: [
      {
        id: '6f7a8b9c-0d1e-4f2a-8b3c-4d5e6f7a8b9c',
        deviceName: 'iPhone hjá Guðrun',
        platform: 'ios',
        model: 'iPhone 15',
        userAgent: null,
        country: 'FO',
        createdAt: '2026-06-01T08:00:00.000Z',
        lastSeenAt: '2026-06-15T11:55:00.000Z',
        revokedAt: null,
        revokedReason: null,
      },
    ],
    activity: [
      {
        id: '0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d',
        type: 'package_purchased',
        text: 'Eykapakki keyptur: 1 GB',
        msisdn: '557812',
        actorName: null,
        amountOere: 3_900,
        createdAt: '2026-06-10T09:13:00.000Z',
      },
    ],
    ...overrides,
  };
}

export const BILL_ID = '6c7d8e9f-0a1b-4c2d-8e3f-4a5b6c7d8e9f';
export const OPEN_BILL_ID = '6c7d8e9f-0a1b-4c2d-8e3f-4a5b6c7d8ea0';

/** Guðrun's May bill: paid by card on the agreement on the day it was issued. */
export function aBillSummary(overrides: Partial<BillSummary> = {}): BillSummary {
  return {
    id: BILL_ID,
    number: 'R-000042',
    period: '2026-05',
    issuedAt: '2026-05-31T22:05:00.000Z',
    dueDate: '2026-06-14',
    total: { net: 11_920, vat: 2_980, gross: 14_900 },
    paidOere: 14_900,
    state: 'paid',
    payment: {
      method: 'agreement',
      paidAt: '2026-06-01T06:00:00.000Z',
      cardBrand: 'Visa',
      cardLast4: '4242',
    },
    scope: 'payer',
    ...overrides,
  };
}

/** Guðrun's June bill, unpaid: to be paid by bank transfer. */
export function anOpenBillSummary(overrides: Partial<BillSummary> = {}): BillSummary {
  return aBillSummary({
    id: OPEN_BILL_ID,
    number: 'R-000057',
    period: '2026-06',
    issuedAt: '2026-06-30T22:05:00.000Z',
    dueDate: '2026-07-14',
    total: { net: 7_920, vat: 1_980, gross: 9_900 },
    paidOere: 0,
    state: 'open',
    payment: null,
    ...overrides,
  });
}

/** The May bill in full: two numbers, the second a family member's (her son Jógvan). */
export function aBill(overrides: Partial<BillResponse> = {}): BillResponse {
  const payment = aBillSummary().payment;
  return {
    ...aBillSummary(),
    vatRate: 25,
    sections: [
      {
        phoneNumber: '557812',
        holder: null,
        own: false,
        items: [
          {
            id: 'b1',
            kind: 'plan',
            description: 'Alda 10 GB, mai',
            price: { net: 7_920, vat: 1_980, gross: 9_900 },
            paid: true,
            payment,
          },
          {
            id: 'b2',
            kind: 'package',
            description: 'Eykapakki 1 GB',
            price: { net: 3_120, vat: 780, gross: 3_900 },
            paid: true,
            payment,
          },
        ],
        subtotal: { net: 11_040, vat: 2_760, gross: 13_800 },
      },
      {
        phoneNumber: '557813',
        holder: 'Jógvan',
        own: false,
        items: [
          {
            id: 'b3',
            kind: 'roaming',
            description: 'Ferðing í apríl',
            price: { net: 880, vat: 220, gross: 1_100 },
            paid: true,
            payment,
          },
        ],
        subtotal: { net: 880, vat: 220, gross: 1_100 },
      },
    ],
    bankTransfer: null,
    ...overrides,
  };
}
