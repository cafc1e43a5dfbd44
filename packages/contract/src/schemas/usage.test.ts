import { describe, expect, it } from 'vitest';
import { USAGE_RECORDS_MAX } from '../constants';
import { subscriptionDetailResponse, subscriptionsQuery } from './subscriptions';
import { usageRecordsRequest, usageRecordsResponse } from './usage';

const record = {
  recordId: 'cdr-2026-06-01:0001',
  phoneNumber: '298214455',
  usedMb: 120,
  kind: 'domestic',
  occurredAt: '2026-06-01T12:00:00.000Z',
};

describe('usage feed schemas', () => {
  it('stores numbers the charging system sends with 298 as 6 digits (SPEC §5 phone number)', () => {
    const parsed = usageRecordsRequest.parse({
      records: [record, { ...record, recordId: 'b', phoneNumber: '+298 21 44 55' }],
    });
    expect(parsed.records.map((r) => r.phoneNumber)).toEqual(['214455', '214455']);
    expect(usageRecordsRequest.parse(parsed)).toEqual(parsed);
  });

  it('takes whole MB, known kinds, 1 to USAGE_RECORDS_MAX records', () => {
    const bad = (patch: object) =>
      usageRecordsRequest.safeParse({ records: [{ ...record, ...patch }] }).success;
    expect(bad({ usedMb: 1.5 })).toBe(false);
    expect(bad({ usedMb: -1 })).toBe(false);
    expect(bad({ kind: 'roaming' })).toBe(false);
    expect(bad({ phoneNumber: '12345' })).toBe(false);
    expect(bad({ recordId: 'has space' })).toBe(false);
    expect(usageRecordsRequest.safeParse({ records: [] }).success).toBe(false);
    const many = Array.from({ length: USAGE_RECORDS_MAX + 1 }, (_, i) => ({
      ...record,
      recordId: `r${i}`,
    }));
    expect(usageRecordsRequest.safeParse({ records: many }).success).toBe(false);
  });

  it('answers counts and rejected records', () => {
    const answer = {
      accepted: 1,
      duplicates: 0,
      rejected: [{ recordId: 'x', reason: 'UNKNOWN_NUMBER' }],
    };
    expect(usageRecordsResponse.parse(answer)).toEqual(answer);
  });
});

describe('subscription query and detail (SPEC §3, §6)', () => {
  it('reads the current line from the query, normalised (SPEC §5)', () => {
    expect(subscriptionsQuery.parse({ line: '+298 214455' })).toEqual({ line: '214455' });
    expect(subscriptionsQuery.parse({})).toEqual({});
    expect(subscriptionsQuery.safeParse({ line: '1234' }).success).toBe(false);
  });

  it('describes one member with its plan and monthly price', () => {
    const detail = {
      accountId: 'a1',
      accountType: 'family_plan',
      isOwner: true,
      member: {
        id: 's1',
        phoneNumber: '214456',
        user: { id: 'u2', firstname: 'Sunneva', lastname: 'Joensen' },
        planId: 'family-20',
        givenData: { current: 0, max: 5_120 },
        dataRemaining: { domestic: 8_000, eu: 10_000 },
        dataTotal: { domestic: 20_480, eu: 15_360 },
        status: 'active',
        expiresAt: null,
        simType: 'PHYSICAL',
        phoneBookVisible: false,
        rolloverMb: 0,
        dataUpdatedAt: '2026-06-01T12:00:00.000Z',
        prepaidBalance: null,
      },
      plan: null,
      monthlyPrice: { net: 7_920, vat: 1_980, gross: 9_900 },
      euPackage: true,
    };
    expect(subscriptionDetailResponse.parse(detail)).toEqual(detail);
  });
});
