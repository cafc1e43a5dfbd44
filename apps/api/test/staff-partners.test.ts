import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataEnvelope } from '@alda/contract/envelope';
import {
  staffPartner,
  staffPartnerCreated,
  staffPartnerList,
} from '@alda/contract/schemas/staff-partners';
import { operatorActions } from '../src/db/schema/provisioning';
import { createTestApp, parse, type TestApp } from './helper';
import { signInStaff, type TestStaff } from './staff-helper';

/* Issue 32: the console's partner clients (admin only), audited like the other staff changes. */

let t: TestApp;
let admin: TestStaff;
let support: TestStaff;
beforeAll(async () => {
  t = await createTestApp();
  admin = await signInStaff(t.app, 'admin');
  support = await signInStaff(t.app, 'support');
});
afterAll(async () => {
  await t?.close();
});

describe('/api/staff/partners (issue 32)', () => {
  it('lets an admin add a partner (secret once), list it and disable it with a reason, audited', async () => {
    const added = await t.app.inject({
      method: 'POST',
      url: '/api/staff/partners',
      headers: admin.headers,
      payload: { name: 'Norðurlanda Banki', scopes: ['sim-swap'] },
    });
    expect(added.statusCode, added.body).toBe(201);
    const { partner, clientSecret } = parse(dataEnvelope(staffPartnerCreated), added).data;
    expect(partner).toMatchObject({
      name: 'Norðurlanda Banki',
      scopes: ['sim-swap'],
      callCount: 0,
    });

    const list = await t.app.inject({ url: '/api/staff/partners', headers: admin.headers });
    const items = parse(dataEnvelope(staffPartnerList), list).data.items;
    expect(items.find((p) => p.clientId === partner.clientId)).toMatchObject({
      createdBy: `staff:${admin.email}`,
      disabledAt: null,
      lastCallAt: null,
    });
    expect(list.body).not.toContain(clientSecret);
    // A newer client: the disable below answers the one it disabled, not the newest.
    await t.app.inject({
      method: 'POST',
      url: '/api/staff/partners',
      headers: admin.headers,
      payload: { name: 'Suðuroyar Banki', scopes: ['sim-swap'] },
    });

    const noReason = await t.app.inject({
      method: 'POST',
      url: `/api/staff/partners/${partner.clientId}/disable`,
      headers: admin.headers,
      payload: {},
    });
    expect(noReason.statusCode).toBe(400);
    const disabled = await t.app.inject({
      method: 'POST',
      url: `/api/staff/partners/${partner.clientId}/disable`,
      headers: admin.headers,
      payload: { reason: 'Ticket 4711' },
    });
    expect(disabled.statusCode, disabled.body).toBe(200);
    expect(parse(dataEnvelope(staffPartner), disabled).data).toMatchObject({
      clientId: partner.clientId,
      disabledAt: expect.any(String),
    });

    const audit = await t.app.db
      .select()
      .from(operatorActions)
      .where(eq(operatorActions.target, partner.clientId));
    expect(audit.map((a) => [a.verb, a.staffUserId, a.reason]).sort()).toEqual([
      ['partner.create', admin.id, null],
      ['partner.disable', admin.id, 'Ticket 4711'],
    ]);
  });

  it('refuses other roles (403)', async () => {
    const res = await t.app.inject({ url: '/api/staff/partners', headers: support.headers });
    expect(res.statusCode).toBe(403);
  });
});
