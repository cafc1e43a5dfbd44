import type {
  StaffOrderDetail,
  StaffOrderRow,
  StaffOrdersPage,
} from '@alda/contract/schemas/staff-orders';

/* Orders as the staff API answers them, for the area's tests. */

export const ORDER_ID = '5e0f7c2a-0008-4d1b-8c3e-0de000000000';
export const CUSTOMER_ID = '6f1d2c3a-0003-4a6e-9b1a-0a1f00000003';
export const REJECTED_ICCID = '8942981100000000000';

export function aRow(overrides: Partial<StaffOrderRow> = {}): StaffOrderRow {
  return {
    id: ORDER_ID,
    createdAt: '2026-06-14T12:00:00.000Z',
    customer: { id: CUSTOMER_ID, name: 'Guðrun Poulsen' },
    msisdn: '557813',
    kind: 'new_subscription',
    isPorting: true,
    delivery: 'esim',
    state: 'waiting-network',
    waitingFor: 'network',
    lastStep: 'port_date_set',
    lastStepAt: '2026-06-14T17:00:00.000Z',
    nextStep: 'number_moved',
    nextAt: '2026-06-17T12:00:00.000Z',
    late: false,
    stopReason: null,
    ...overrides,
  };
}

export function aPage(items: StaffOrderRow[], overrides: Partial<StaffOrdersPage> = {}) {
  return {
    state: 'processing',
    items,
    nextBefore: null,
    counts: {
      processing: 4,
      'waiting-network': 2,
      'waiting-customer': 2,
      rejected: 1,
      failed: 1,
      'due-today': 1,
      late: 1,
    },
    stepS: 30,
    ...overrides,
  } satisfies StaffOrdersPage;
}

const allowed = { allowed: true, refusal: null };

/** Guðrun's port, waiting for the network (the demo's order 8). */
export function anOrder(overrides: Partial<StaffOrderDetail> = {}): StaffOrderDetail {
  return {
    ...aRow(),
    customer: { id: CUSTOMER_ID, name: 'Guðrun Poulsen', email: 'gudrun@example.fo' },
    line: { id: '7a2e3b4c-0001-4d5e-8f6a-1b2c3d4e5f60', msisdn: '557813', status: 'processing' },
    accountId: null,
    upcoming: ['number_moved', 'active'],
    steps: [
      {
        step: 'received',
        at: '2026-06-14T12:00:00.000Z',
        actor: 'customer',
        reasonCode: null,
        codeText: null,
        operatorReason: null,
      },
      {
        step: 'esim_ready',
        at: '2026-06-14T13:00:00.000Z',
        actor: 'network',
        reasonCode: null,
        codeText: null,
        operatorReason: null,
      },
    ],
    porting: {
      simcardNumber: '8929802990017421634',
      portDate: '2026-06-17T12:00:00.000Z',
      rejection: null,
      correction: null,
    },
    actions: {
      advance: allowed,
      complete: allowed,
      fail: allowed,
      retry: { allowed: false, refusal: 'not-retryable' },
      'port-correction': { allowed: false, refusal: 'not-rejected' },
    },
    history: [],
    networkOrders: [],
    ...overrides,
  };
}

/** A port the other provider rejected, waiting for the customer's correction. */
export function aRejectedPort(overrides: Partial<StaffOrderDetail> = {}): StaffOrderDetail {
  const base = anOrder();
  return anOrder({
    state: 'rejected',
    waitingFor: 'customer_correction',
    lastStep: 'port_rejected',
    lastStepAt: '2026-06-15T10:00:00.000Z',
    nextStep: 'port_requested',
    nextAt: null,
    upcoming: ['port_requested', 'port_date_set', 'number_moved', 'active'],
    steps: [
      ...base.steps,
      {
        step: 'port_requested',
        at: '2026-06-15T09:00:00.000Z',
        actor: 'network',
        reasonCode: null,
        codeText: null,
        operatorReason: null,
      },
      {
        step: 'port_rejected',
        at: '2026-06-15T10:00:00.000Z',
        actor: 'network',
        reasonCode: 'PORT_SIMCARD_MISMATCH',
        codeText: 'SIM-kortnummarið passar ikki við tað, sum núverandi veitarin hevur skrásett.',
        operatorReason: null,
      },
    ],
    porting: {
      simcardNumber: REJECTED_ICCID,
      portDate: null,
      rejection: {
        at: '2026-06-15T10:00:00.000Z',
        code: 'PORT_SIMCARD_MISMATCH',
        reason: 'SIM-kortnummarið passar ikki við tað, sum núverandi veitarin hevur skrásett.',
      },
      correction: { state: 'waiting', simcardNumber: null, at: null, by: null },
    },
    actions: {
      advance: allowed,
      complete: allowed,
      fail: allowed,
      retry: allowed,
      'port-correction': allowed,
    },
    ...overrides,
  });
}

/** An order stopped by `fail`. */
export function aFailedOrder(): StaffOrderDetail {
  return anOrder({
    state: 'failed',
    waitingFor: 'none',
    lastStep: 'failed',
    nextStep: null,
    nextAt: null,
    upcoming: [],
    actions: {
      advance: { allowed: false, refusal: 'failed' },
      complete: allowed,
      fail: { allowed: false, refusal: 'already-failed' },
      retry: allowed,
      'port-correction': { allowed: false, refusal: 'not-rejected' },
    },
  });
}
