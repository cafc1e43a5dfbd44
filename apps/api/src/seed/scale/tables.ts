import { getTableColumns, getTableName } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import { accounts } from '../../db/schema/accounts';
import { actions } from '../../db/schema/actions';
import { paymentAgreements } from '../../db/schema/agreements';
import {
  givenDataCounters,
  lineBalances,
  prepaidBalances,
  usageAlerts,
  usageDaily,
  usageRecords,
} from '../../db/schema/balances';
import { dataTransfers, notifications } from '../../db/schema/data-transfers';
import { orders } from '../../db/schema/orders';
import { payments, receipts } from '../../db/schema/payments';
import { phoneLines } from '../../db/schema/phone-lines';
import { provisioningSteps } from '../../db/schema/provisioning';
import { refreshTokens, sessions } from '../../db/schema/sessions';
import { supportConversations, supportMessages } from '../../db/schema/support';
import { testProviderCards, testProviderPayments } from '../../db/schema/test-provider';
import { users } from '../../db/schema/users';

/*
 * The tables the seeder loads and the columns it writes, named by the drizzle schema's keys so a
 * renamed or dropped column fails the type check here rather than the load. Columns left out get
 * their database default (ids of support messages' `seq`, …).
 */

/** A value as the writers take it: numbers, text, booleans, null; objects are JSON. */
export type Value = string | number | boolean | null | undefined | object;

/**
 * The column types the writers know (binary.ts), from the schema. A `timestamptz` value is
 * epoch milliseconds (a number); a `date` is `yyyy-mm-dd`.
 */
export type ColumnType = 'uuid' | 'date' | 'int4' | 'text' | 'timestamptz' | 'bool' | 'jsonb';

const SQL_TYPES: Readonly<Record<string, ColumnType>> = {
  uuid: 'uuid',
  date: 'date',
  integer: 'int4',
  text: 'text',
  'timestamp with time zone': 'timestamptz',
  boolean: 'bool',
  jsonb: 'jsonb',
};

/** A row by the schema's keys (camelCase), values in the writers' form. */
export type RowOf<T extends PgTable> = { [K in keyof T['$inferInsert']]?: Value };

export interface TableSpec<T extends PgTable = PgTable> {
  table: T;
  /** SQL name of the table. */
  name: string;
  /** Schema keys of the columns written, in COPY order. */
  keys: readonly string[];
  /** SQL names of those columns. */
  columns: readonly string[];
  /** Their types, from the schema. */
  types: readonly ColumnType[];
}

function spec<T extends PgTable>(
  table: T,
  keys: readonly (keyof T['$inferInsert'] & string)[],
): TableSpec<T> {
  const all = getTableColumns(table) as Record<string, { name: string; getSQLType(): string }>;
  const column = (key: string) => {
    const found = all[key];
    if (!found) throw new Error(`${getTableName(table)} has no column ${key}`);
    return found;
  };
  return {
    table,
    name: getTableName(table),
    keys,
    columns: keys.map((key) => column(key).name),
    types: keys.map((key) => {
      const sqlType = column(key).getSQLType();
      const type = SQL_TYPES[sqlType];
      if (!type) throw new Error(`${getTableName(table)}.${key}: no writer for ${sqlType}`);
      return type;
    }),
  };
}

export const SPECS = {
  users: spec(users, [
    'id',
    'firstname',
    'lastname',
    'email',
    'phoneNumber',
    'birthDate',
    'address',
    'postCode',
    'city',
    'locale',
    'passwordHash',
    'showInPhoneBook',
    'usageAlert80',
    'usageAlert100',
    'usageAlertEmail',
    'createdAt',
  ]),
  accounts: spec(accounts, [
    'id',
    'ownerUserId',
    'type',
    'planId',
    'status',
    'euPackage',
    'createdAt',
    'statusChangedAt',
  ]),
  phoneLines: spec(phoneLines, [
    'id',
    'msisdn',
    'userId',
    'status',
    'accountId',
    'planId',
    'simType',
    'isPrepaid',
    'expiresAt',
    'createdAt',
    'statusChangedAt',
    'iccid',
    'simPin',
    'simPuk',
    'esimMatchingId',
    'esimInstalled',
    'activatedAt',
    'holderFirstname',
    'holderLastname',
    'phoneBookVisible',
    'dataPausedAt',
    'purchaseApproval',
    'numberLocked',
    'simChangedAt',
  ]),
  lineBalances: spec(lineBalances, [
    'lineId',
    'periodStart',
    'domesticTotalMb',
    'domesticRemainingMb',
    'domesticUsedMb',
    'euAllowanceMb',
    'euUsedMb',
    'rolloverMb',
    'updatedAt',
  ]),
  givenDataCounters: spec(givenDataCounters, ['lineId', 'month', 'givenMb', 'maxMb', 'updatedAt']),
  prepaidBalances: spec(prepaidBalances, ['lineId', 'balanceOere', 'updatedAt']),
  usageDaily: spec(usageDaily, ['lineId', 'day', 'domesticMb', 'euMb', 'roamingChargedOere']),
  usageRecords: spec(usageRecords, [
    'recordId',
    'lineId',
    'msisdn',
    'usageType',
    'quantity',
    'unit',
    'otherParty',
    'ratedOere',
    'usedMb',
    'kind',
    'occurredAt',
    'receivedAt',
  ]),
  usageAlerts: spec(usageAlerts, ['lineId', 'month', 'kind', 'threshold', 'raisedAt']),
  orders: spec(orders, [
    'id',
    'userId',
    'accountId',
    'lineId',
    'kind',
    'isMainSubscription',
    'planId',
    'msisdn',
    'memberFirstname',
    'memberLastname',
    'priceOere',
    'paymentStatus',
    'isComplete',
    'isCancelled',
    'createdAt',
    'completedAt',
    'cancelledAt',
    'idempotencyKey',
    'requestHash',
    'packageId',
    'billingPeriod',
    'simDelivery',
    'simPickupLocationId',
    'shippingAddress',
    'shippingPostCode',
    'shippingCity',
    'simcardNumber',
    'esimMatchingId',
    'portingSimcardNumber',
    'isPorting',
    'euPackage',
    'provisioningWaitingFor',
    'provisioningNextAt',
    'portDate',
    'lifecycleAction',
    'effectiveAt',
    'previousPlanId',
  ]),
  provisioningSteps: spec(provisioningSteps, [
    'id',
    'orderId',
    'step',
    'at',
    'reasonCode',
    'reasonText',
    'actor',
  ]),
  payments: spec(payments, [
    'id',
    'orderId',
    'userId',
    'amountOere',
    'method',
    'state',
    'provider',
    'providerPaymentId',
    'cardBrand',
    'cardLast4',
    'cardExpiry',
    'providerAgreementRef',
    'failureReason',
    'createdAt',
    'updatedAt',
    'fulfilledAt',
  ]),
  receipts: spec(receipts, [
    'id',
    'number',
    'userId',
    'orderId',
    'paymentId',
    'issuedAt',
    'lines',
    'vatRate',
    'netOere',
    'vatOere',
    'grossOere',
    'customerName',
    'customerAddress',
    'customerEmail',
    'cardBrand',
    'cardLast4',
  ]),
  paymentAgreements: spec(paymentAgreements, [
    'id',
    'userId',
    'status',
    'cardBrand',
    'cardLast4',
    'cardExpiry',
    'providerReference',
    'provider',
    'createdAt',
    'updatedAt',
  ]),
  testProviderCards: spec(testProviderCards, [
    'id',
    'brand',
    'last4',
    'expiry',
    'behaviour',
    'createdAt',
    'stoppedAt',
  ]),
  testProviderPayments: spec(testProviderPayments, [
    'id',
    'kind',
    'merchantReference',
    'amountOere',
    'state',
    'description',
    'settleAt',
    'cardId',
    'cardBrand',
    'cardLast4',
    'cardExpiry',
    'createdAt',
    'updatedAt',
  ]),
  actions: spec(actions, [
    'id',
    'userId',
    'lineId',
    'actorUserId',
    'type',
    'payload',
    'dataMb',
    'amountOere',
    'createdAt',
  ]),
  notifications: spec(notifications, [
    'id',
    'userId',
    'type',
    'params',
    'link',
    'createdAt',
    'readAt',
  ]),
  dataTransfers: spec(dataTransfers, [
    'id',
    'kind',
    'status',
    'requesterLineId',
    'requesterUserId',
    'recipientLineId',
    'recipientUserId',
    'dataMb',
    'createdAt',
    'decidedAt',
  ]),
  sessions: spec(sessions, [
    'id',
    'userId',
    'createdAt',
    'lastUsedAt',
    'revokedAt',
    'revokedReason',
    'userAgent',
    'deviceKey',
    'deviceName',
    'devicePlatform',
    'deviceModel',
    'deviceOsVersion',
    'country',
  ]),
  refreshTokens: spec(refreshTokens, [
    'id',
    'sessionId',
    'tokenHash',
    'parentId',
    'createdAt',
    'expiresAt',
    'usedAt',
    'revokedAt',
  ]),
  supportConversations: spec(supportConversations, [
    'id',
    'userId',
    'subjectType',
    'subjectId',
    'subjectReference',
    'state',
    'createdAt',
    'firstReplyDueAt',
    'firstReplyAt',
    'lastMessageAt',
    'customerReadAt',
    'closedAt',
    'closedBy',
    'ratingScore',
    'ratingComment',
  ]),
  supportMessages: spec(supportMessages, [
    'id',
    'conversationId',
    'kind',
    'authorName',
    'body',
    'clientId',
    'createdAt',
  ]),
} as const;

export type SpecName = keyof typeof SPECS;

/** Every table the seeder loads, in the order the summary lists them. */
export const LOADED_TABLES: readonly string[] = Object.values(SPECS).map((s) => s.name);
