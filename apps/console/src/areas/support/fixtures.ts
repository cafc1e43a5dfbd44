import type {
  StaffSupportContext,
  StaffSupportConversation,
  StaffSupportSummary,
  SupportSavedReply,
} from '@alda/contract/schemas/staff-support';
import type { Call, Handler } from '@/test/render';

/** Support conversations as the staff API answers them, for the area's tests (issue 46). */

export const CONVERSATION_ID = 'e48ac051-cbcd-4b28-b938-cc7d83f9e7e8';
export const OTHER_CONVERSATION_ID = '5b48e729-8e9e-418c-b3ca-e8fe91466b1c';
export const CUSTOMER_ID = 'db48c728-baf3-4f15-880e-986994092768';
export const ORDER_ID = '05c19f41-6a87-443d-a0ae-0486cddef56e';
export const OTHER_ORDER_ID = 'f2119ac3-0be5-48e5-9d65-8717ca6a3e6e';
export const PAYMENT_ID = 'd380979d-597b-4118-8b11-81a755d56637';
export const REPLY_ID = 'd64bc90c-a8d8-48c7-844a-90ca38100439';
export const COLLEAGUE_ID = '321e552f-f2bd-45be-b57a-167b12a0fb9f';
export const IMAGE_ID = 'eaba014c-3150-406f-951a-6519ff98d819';
/** The signed-in staff member of `aSession()` (test/render.tsx). */
export const ME_ID = '0b6c1d2e-3f40-4a5b-8c6d-7e8f9a0b1c2d';

const MESSAGE_IDS = [
  '84b00f79-0808-410f-9124-3b3c4970eca7',
  '1c9e6f0a-8d2b-4c3e-9f4a-5b6c7d8e9f01',
  '2d0f7a1b-9e3c-4d4f-8a5b-6c7d8e9f0a12',
  '3e1a8b2c-0f4d-4e5a-9b6c-7d8e9f0a1b23',
  '4f2b9c3d-1a5e-4f6b-8c7d-8e9f0a1b2c34',
];

const HOUR = 3_600_000;

/** Guðrun's conversation about her rejected port, opened three hours ago, past its due time. */
export function aSummary(overrides: Partial<StaffSupportSummary> = {}): StaffSupportSummary {
  return {
    id: CONVERSATION_ID,
    subject: { type: 'order', id: ORDER_ID, reference: '557813' },
    state: 'open',
    customerName: 'Guðrun Poulsen',
    assignee: null,
    lastMessage: 'Flytingin av nummarinum varð avvíst. Hvat skal eg gera?',
    lastMessageAt: new Date(Date.now() - 3 * HOUR).toISOString(),
    createdAt: new Date(Date.now() - 3 * HOUR - 60_000).toISOString(),
    // 13:00 in Tórshavn (summer time, UTC+1).
    firstReplyDueAt: '2026-06-15T12:00:00.000Z',
    firstReplyAt: null,
    late: true,
    ...overrides,
  };
}

export function aConversation(
  overrides: Partial<StaffSupportConversation> = {},
): StaffSupportConversation {
  return {
    ...aSummary(),
    customerId: CUSTOMER_ID,
    closedAt: null,
    rating: null,
    messages: [
      {
        id: MESSAGE_IDS[0] ?? '',
        kind: 'customer',
        author: null,
        body: 'The port of my number was rejected. <b>x</b> What now? See https://alda.fo/help.',
        attachments: [],
        createdAt: '2026-06-15T09:00:00.000Z',
      },
    ],
    ...overrides,
  };
}

/** The customer beside it: English-speaking, a rejected port (the subject), one payment. */
export function aContext(overrides: Partial<StaffSupportContext> = {}): StaffSupportContext {
  return {
    customer: {
      id: CUSTOMER_ID,
      name: 'Guðrun Poulsen',
      email: 'gudrun@demo.alda.fo',
      phoneNumber: '557812',
      locale: 'en',
    },
    lines: [{ msisdn: '557812', status: 'active', planName: 'Alda 10 GB' }],
    openOrders: [
      {
        id: ORDER_ID,
        kind: 'new_subscription',
        msisdn: '557813',
        status: 'port_rejected',
        createdAt: '2026-06-14T10:00:00.000Z',
      },
      {
        id: OTHER_ORDER_ID,
        kind: 'extra_package',
        msisdn: '557812',
        status: 'pending',
        createdAt: '2026-06-14T11:00:00.000Z',
      },
    ],
    payments: [
      {
        id: PAYMENT_ID,
        amountOere: 3900,
        method: 'card',
        state: 'paid',
        createdAt: '2026-06-01T08:00:00.000Z',
      },
    ],
    subject: { type: 'order', id: ORDER_ID, reference: '557813' },
    ...overrides,
  };
}

export function aSavedReply(overrides: Partial<SupportSavedReply> = {}): SupportSavedReply {
  return {
    id: REPLY_ID,
    titleFo: 'Avvíst flyting',
    titleEn: 'Rejected port',
    bodyFo: 'Kanna SIM-kortnummarið og royn aftur í appini.',
    bodyEn: 'Check the SIM card number and try again in the app.',
    updatedAt: '2026-06-01T08:00:00.000Z',
    ...overrides,
  };
}

export const DESK = {
  items: [
    { id: ME_ID, name: 'Sólrun Joensen', role: 'support' as const },
    { id: COLLEAGUE_ID, name: 'Jógvan Hansen', role: 'support' as const },
  ],
};

const ok = (data: unknown) => ({ status: 200, body: { data } });

/**
 * The fake support API: the queues (`queues`), one live conversation that answers, assign and
 * close change as the server would, its context, the desk and the saved replies.
 */
export function supportApi({
  queues = {},
  conversation = aConversation(),
  context = aContext(),
  replies = [aSavedReply()],
}: {
  queues?: Partial<Record<string, StaffSupportSummary[]>>;
  conversation?: StaffSupportConversation;
  context?: StaffSupportContext;
  replies?: SupportSavedReply[];
} = {}): Handler & { thread: () => StaffSupportConversation } {
  let thread = conversation;
  let next = 1;
  const handler = (call: Call) => {
    const url = new URL(call.path, 'http://console.test');
    const base = `/api/staff/support/conversations/${thread.id}`;
    if (call.method === 'GET' && url.pathname === '/api/staff/support/conversations')
      return ok({ items: queues[url.searchParams.get('queue') ?? ''] ?? [] });
    if (call.method === 'GET' && url.pathname === base) return ok(thread);
    if (call.method === 'GET' && url.pathname === `${base}/context`) return ok(context);
    if (call.method === 'GET' && url.pathname === '/api/staff/support/desk') return ok(DESK);
    if (call.method === 'GET' && url.pathname === '/api/staff/support/saved-replies')
      return ok({ items: replies });
    if (call.method === 'POST' && url.pathname === `${base}/messages`) {
      const { body, internal } = call.body as { body: string; internal: boolean };
      thread = {
        ...thread,
        state: internal ? thread.state : 'waiting',
        messages: [
          ...thread.messages,
          {
            id: MESSAGE_IDS[next++] ?? '',
            kind: internal ? 'note' : 'staff',
            author: 'Sólrun Joensen',
            body,
            attachments: [],
            createdAt: '2026-06-15T13:30:00.000Z',
          },
        ],
      };
      return ok(thread);
    }
    if (call.method === 'POST' && url.pathname === `${base}/assign`) {
      const { staffUserId } = call.body as { staffUserId: string };
      const member = DESK.items.find((m) => m.id === staffUserId);
      thread = { ...thread, assignee: member ? { id: member.id, name: member.name } : null };
      return ok(thread);
    }
    if (call.method === 'POST' && url.pathname === `${base}/close`) {
      thread = { ...thread, state: 'closed', closedAt: '2026-06-15T14:00:00.000Z' };
      return ok(thread);
    }
    return undefined;
  };
  return Object.assign(handler, { thread: () => thread });
}

/** The calls made with `method` to `path` (without its query). */
export const callsTo = (calls: Call[], method: string, path: string) =>
  calls.filter((c) => c.method === method && c.path.split('?')[0] === path);
