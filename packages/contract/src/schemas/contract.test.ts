import { describe, expect, it } from 'vitest';
import { z } from 'zod/mini';
import * as actions from './actions';
import * as agreements from './agreements';
import * as auth from './auth';
import * as authRegister from './auth-register';
import * as common from './common';
import * as content from './content';
import * as dataTransfers from './data-transfers';
import * as familyMembers from './family-members';
import * as devOutbox from './dev-outbox';
import * as notifications from './notifications';
import * as orders from './orders';
import * as packages from './packages';
import * as plans from './plans';
import * as profile from './profile';
import * as signup from './signup';
import * as status from './status';
import * as subscriptions from './subscriptions';
import * as usage from './usage';

const modules = {
  actions,
  agreements,
  auth,
  authRegister,
  common,
  content,
  dataTransfers,
  familyMembers,
  devOutbox,
  notifications,
  orders,
  packages,
  plans,
  profile,
  signup,
  status,
  subscriptions,
  usage,
};
const schemas = Object.entries(modules).flatMap(([file, exports]) =>
  Object.entries(exports)
    .filter((entry): entry is [string, z.ZodMiniType] => entry[1] instanceof z.ZodMiniType)
    .map(([name, schema]) => [`${file}.${name}`, schema] as const),
);

const now = '2024-06-01T12:00:00.000Z';
const user = { id: 'u1', firstname: 'Jóannes', lastname: 'Patursson' };
const member = {
  id: 's1',
  phoneNumber: '211234',
  user,
  planId: 'p10',
  givenData: { current: 0, max: 10_240 },
  dataRemaining: { domestic: 8_000, eu: null },
  dataTotal: { domestic: 10_240 },
  status: 'active',
  expiresAt: null,
  simType: 'ESIM',
  phoneBookVisible: true,
  rolloverMb: 0,
};
const account = {
  id: 'a1',
  planId: 'p10',
  planTypeId: 'pt1',
  type: 'family_plan',
  members: [member],
  otherMembers: [],
  currentMember: member,
  euPackage: false,
};
const plan = {
  planId: 'p10',
  type: 'family_plan',
  name: '10 GB',
  dataMb: 10_240,
  maxMembers: 5,
  memberPrices: [{ price: 19_900 }, { price: 9_900 }],
  planTypeName: 'Familja',
  euPackage: { price: 4_900, dataMb: 51_200 },
  commitmentMonths: 6,
};
const order = {
  id: 'o1',
  kind: 'add_member',
  isComplete: false,
  isCancelled: false,
  isMainSubscription: false,
  planId: 'p10',
  phoneNumber: null,
  price: { net: 7_920, vat: 1_980, gross: 9_900 },
  paymentStatus: 'pending',
  createdAt: now,
  completedAt: null,
};

describe('contract schemas (SPEC §3, §7)', () => {
  it('parses realistic answers of every SPEC §7 call', () => {
    const answers: [z.ZodMiniType, unknown][] = [
      [
        subscriptions.subscriptionsResponse,
        { currentAccount: account, otherAccounts: [], isOwner: true, individuals: [] },
      ],
      [
        plans.plansResponse,
        [{ id: 'pt1', name: 'Familja', type: 'family_plan', dataPlanResponses: [plan] }],
      ],
      [orders.ordersResponse, [order]],
      [orders.orderPlacedResponse, { order, paymentUrl: 'https://pay.example/checkout/1' }],
      [orders.paymentUpdated, { orderId: 'o1', status: 'paid', order, updatedAt: now }],
      [
        packages.packagesResponse,
        [
          {
            id: 'k1',
            kind: 'data',
            name: '5 GB',
            dataMb: 5_120,
            price: { net: 3_920, vat: 980, gross: 4_900 },
            validUntil: now,
          },
        ],
      ],
      [
        dataTransfers.dataTransfersResponse,
        [
          {
            id: 't1',
            kind: 'request',
            status: 'pending',
            requester: { phoneNumber: '511234', name: 'Guðrun' },
            recipient: { phoneNumber: '211234', name: null },
            dataAmount: 1_024,
            createdAt: now,
            decidedAt: null,
          },
        ],
      ],
      [
        notifications.notificationsResponse,
        {
          totalUnread: 1,
          items: [
            {
              id: 'n1',
              type: 'data_request',
              title: 't',
              body: 'b',
              createdAt: now,
              readAt: null,
              link: '/',
            },
          ],
          page: 0,
          perPage: 15,
          total: 1,
        },
      ],
      [agreements.agreementResponse, null],
      [
        actions.actionsResponse,
        [
          {
            id: 'x1',
            type: 'data_given',
            text: 'Tú gavst 1 GB',
            phoneNumber: '211234',
            actor: null,
            dataAmount: 1_024,
            amount: null,
            createdAt: now,
          },
        ],
      ],
      [subscriptions.familyAccountExistsResponse, { exists: false, accountId: null }],
    ];
    for (const [schema, answer] of answers) expect(schema.parse(answer)).toEqual(answer);
  });

  it('defaults isOwner to true (SPEC §3 "isOwner: boolean, default true")', () => {
    const parsed = subscriptions.subscriptionsResponse.parse({
      currentAccount: null,
      otherAccounts: [],
      individuals: [],
    });
    expect(parsed.isOwner).toBe(true);
  });

  it('keeps money in whole øre with net + VAT = gross (SPEC §9)', () => {
    expect(common.priceBreakdown.safeParse({ net: 7_920, vat: 1_980, gross: 9_900 }).success).toBe(
      true,
    );
    expect(common.priceBreakdown.safeParse({ net: 7_920, vat: 1_000, gross: 9_900 }).success).toBe(
      false,
    );
    expect(common.priceBreakdown.safeParse({ net: 79.2, vat: 19.8, gross: 99 }).success).toBe(
      false,
    );
  });

  it('reads notification paging from the query string, 0 and 15 by default (SPEC §7, §9)', () => {
    expect(notifications.notificationsQuery.parse({})).toEqual({ page: 0, perPage: 15 });
    expect(notifications.notificationsQuery.parse({ page: '2', perPage: '30' })).toEqual({
      page: 2,
      perPage: 30,
    });
    expect(notifications.notificationsQuery.safeParse({ perPage: '1000' }).success).toBe(false);
  });

  it('takes either an EU toggle or new members on PATCH subscriptions (SPEC §7)', () => {
    expect(familyMembers.patchSubscriptionsRequest.safeParse({ euPackage: true }).success).toBe(
      true,
    );
    expect(
      familyMembers.patchSubscriptionsRequest.safeParse({ euPackage: true, addMembers: [] })
        .success,
    ).toBe(false);
    expect(subscriptions.updateSubscriptionRequest.safeParse({}).success).toBe(false);
  });

  it('checks a data transfer body: positive whole MB, normalised numbers (SPEC §5, §7)', () => {
    const body = dataTransfers.createDataTransferRequest.parse({
      kind: 'gift',
      fromPhoneNumber: '211234',
      phoneNumber: '+298 51 12 34',
      dataAmount: 1_024,
    });
    expect(body.phoneNumber).toBe('511234');
    expect(
      dataTransfers.createDataTransferRequest.safeParse({ ...body, dataAmount: 0 }).error?.issues[0]
        ?.message,
    ).toBe('INVALID');
  });

  it('turns every schema into JSON Schema for OpenAPI (ARCHITECTURE: swagger from the contract)', () => {
    expect(schemas.length).toBeGreaterThan(40);
    for (const [name, schema] of schemas) {
      expect(
        () => z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }),
        name,
      ).not.toThrow();
    }
  });

  it('keeps answers free of transforms, so they serialise as they are (ARCHITECTURE)', () => {
    const answers = schemas.filter(([name]) =>
      /Response$|^orders\.(order|paymentUpdated)$/.test(name),
    );
    expect(answers.length).toBeGreaterThan(15);
    for (const [name, schema] of answers) {
      expect(() => z.toJSONSchema(schema, { io: 'output' }), name).not.toThrow();
    }
  });
});
