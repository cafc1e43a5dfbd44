import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataEnvelope } from '@alda/contract/envelope';
import { billResponse } from '@alda/contract/schemas/bills';
import { resendBillResponse, staffBillsResponse } from '@alda/contract/schemas/staff-bills';
import type { EmailMessage } from '../src/adapters/email/email-sender';
import { operatorActions } from '../src/db/schema/provisioning';
import { seedDemoData } from '../src/seed/seed';
import { createTestApp, demoUser, parse, type TestApp } from './helper';
import { expectError } from './purchases-fixtures';
import { signInStaff, type TestStaff } from './staff-helper';

/*
 * A customer's monthly bills in the staff console (docs/decisions/0098-monthly-bill.md): read
 * once the customer is opened with a reason, and resent to the customer with a reason that the
 * audit log keeps.
 */
const NOW = new Date('2026-03-10T10:00:00.000Z');
const JOANNES = demoUser('Jóannes');

describe('staff: a customer’s bills, and resending one (support, audited)', () => {
  let t: TestApp;
  let support: TestStaff;
  let provisioning: TestStaff;
  const sent: EmailMessage[] = [];

  beforeAll(async () => {
    t = await createTestApp(
      { MONTH_END_INTERVAL_S: '0' },
      {
        now: () => NOW,
        messaging: {
          email: {
            kind: 'outbox',
            send: async (m) => {
              sent.push(m);
            },
            close: async () => {},
          },
        },
      },
    );
    await seedDemoData(t.app.db, NOW, undefined, { bills: true });
    support = await signInStaff(t.app, 'support', () => NOW);
    provisioning = await signInStaff(t.app, 'provisioning', () => NOW);
  });
  afterAll(() => t?.close());

  const list = (staff: TestStaff) =>
    t.app.inject({ url: `/api/staff/customers/${JOANNES.id}/bills`, headers: staff.headers });

  it('needs the customer opened with a reason, then lists the bills and shows one', async () => {
    expectError(await list(support), 403, 'STAFF_REASON_REQUIRED');
    expectError(await list(provisioning), 403, 'FORBIDDEN');
    const opened = await t.app.inject({
      method: 'POST',
      url: `/api/staff/customers/${JOANNES.id}/access`,
      headers: support.headers,
      payload: { reason: 'Call 10:05, asks about February' },
    });
    expect(opened.statusCode, opened.body).toBe(201);
    const bills = parse(dataEnvelope(staffBillsResponse), await list(support)).data.items;
    expect(bills.map((b) => [b.period, b.state])).toEqual([
      ['2026-02', 'paid'],
      ['2026-01', 'paid'],
    ]);
    const one = parse(
      dataEnvelope(billResponse),
      await t.app.inject({
        url: `/api/staff/bills/${bills[0]?.id}`,
        headers: { ...support.headers, 'accept-language': 'en' },
      }),
    ).data;
    expect(one.sections.map((s) => s.phoneNumber)).toEqual(['214455', '214466', '214456']);
    expectError(
      await t.app.inject({
        url: '/api/staff/bills/00000000-0000-4000-8000-000000000000',
        headers: support.headers,
      }),
      404,
      'NOT_FOUND',
    );
  });

  it('resends a bill to the customer with the PDF, and the audit log keeps who, why and which', async () => {
    const bills = parse(dataEnvelope(staffBillsResponse), await list(support)).data.items;
    const id = bills[0]?.id ?? '';
    const resend = (payload: { reason: string }) =>
      t.app.inject({
        method: 'POST',
        url: `/api/staff/bills/${id}/resend`,
        headers: support.headers,
        payload,
      });
    expectError(await resend({ reason: 'x' }), 400, 'VALIDATION_FAILED');
    const before = sent.length;
    const res = await resend({ reason: 'Ticket #5120: lost the e-mail' });
    expect(parse(dataEnvelope(resendBillResponse), res).data).toEqual({
      ok: true,
      sentTo: JOANNES.email,
    });
    expect(sent.slice(before)).toHaveLength(1);
    expect(sent.at(-1)?.to).toBe(JOANNES.email);
    expect(sent.at(-1)?.attachments?.[0]?.contentType).toBe('application/pdf');
    const [entry] = await t.app.db
      .select()
      .from(operatorActions)
      .where(and(eq(operatorActions.verb, 'bill.resend'), eq(operatorActions.target, id)));
    expect(entry).toMatchObject({
      operator: `staff:${support.email}`,
      kind: 'change',
      reason: 'Ticket #5120: lost the e-mail',
    });
  });
});
