import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import QRCode from 'qrcode';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Passkey } from '@alda/contract/schemas/passkeys';
import type {
  StaffAccount,
  StaffEnrolment,
  StaffMember,
  StaffRolePolicy,
} from '@alda/contract/schemas/staff';
import { aSession, renderConsole, type Handler } from '@/test/render';
import { qrModulesPath } from '../../../../web/src/features/sim/qr-symbol';

const admin = aSession('admin');

const member = (overrides: Partial<StaffAccount>): StaffAccount => ({
  id: '11111111-1111-4111-8111-111111111111',
  email: 'ragna@alda.fo',
  name: 'Ragna Dam',
  role: 'support',
  disabledAt: null,
  createdAt: '2026-03-02T10:00:00.000Z',
  passkeys: 0,
  ...overrides,
});

const ragna = member({ passkeys: 2 });
const jonas = member({
  id: '22222222-2222-4222-8222-222222222222',
  email: 'jonas@alda.fo',
  name: 'Jónas Hansen',
  role: 'provisioning',
  disabledAt: '2026-05-20T09:00:00.000Z',
});

const URI =
  'otpauth://totp/Alda:eyd%40alda.fo?secret=JBSWY3DPEHPK3PXPJBSWY3DP&period=30&digits=6&algorithm=SHA1&issuer=Alda';
const CODES = [
  'a1b2c-d3e4f',
  'g5h6i-j7k8l',
  'm9n0o-p1q2r',
  's3t4u-v5w6x',
  'y7z8a-b9c0d',
  'e1f2g-h3i4j',
  'k5l6m-n7o8p',
  'q9r0s-t1u2v',
  'w3x4y-z5a6b',
  'c7d8e-f9g0h',
];
const enrolment = (staff: StaffMember, password: string | null): StaffEnrolment => ({
  staff,
  password,
  totpSecret: 'JBSWY3DPEHPK3PXPJBSWY3DP',
  otpauthUri: URI,
  recoveryCodes: CODES,
});

/** Ragna's passkeys (ADR 0097). */
const RAGNAS_PASSKEYS: Passkey[] = [
  {
    id: '44444444-4444-4444-8444-444444444444',
    name: 'Chrome, Windows',
    backedUp: false,
    createdAt: '2026-04-01T08:00:00.000Z',
    lastUsedAt: '2026-06-10T07:30:00.000Z',
  },
  {
    id: '55555555-5555-4555-8555-555555555555',
    name: 'iPhone',
    backedUp: true,
    createdAt: '2026-05-01T08:00:00.000Z',
    lastUsedAt: null,
  },
];

const policy = (overrides: Partial<StaffRolePolicy>): StaffRolePolicy => ({
  role: 'support',
  requirePasskey: false,
  members: 4,
  membersWithoutPasskey: 3,
  updatedAt: null,
  ...overrides,
});
const POLICIES: StaffRolePolicy[] = [
  policy({}),
  policy({ role: 'provisioning', members: 1, membersWithoutPasskey: 1 }),
  policy({ role: 'content', members: 2, membersWithoutPasskey: 0 }),
  policy({ role: 'admin', members: 1, membersWithoutPasskey: 1 }),
];

function api(extra: Handler = () => undefined): Handler {
  return async (call) => {
    const answer = await extra(call);
    if (answer) return answer;
    if (call.method === 'GET' && call.path === '/api/staff/accounts') {
      return {
        status: 200,
        body: { data: { items: [{ ...admin.staff, passkeys: 1 }, ragna, jonas] } },
      };
    }
    if (call.method === 'GET' && call.path === '/api/staff/role-policies') {
      return { status: 200, body: { data: { items: POLICIES } } };
    }
    return undefined;
  };
}

beforeAll(async () => {
  await import('./staff-screen');
  await import('qrcode');
}, 20_000);

describe('staff accounts (/console/staff, admin)', () => {
  it('lists the accounts: name, e-mail, role, active or closed, created — and no actions on your own', async () => {
    renderConsole({ path: '/staff', session: admin, handler: api() });
    const table = await screen.findByRole('table', { name: 'Kontur hjá starvsfólkinum' });
    const [, self, ragnaRow, jonasRow] = within(table).getAllByRole('row');
    expect(self?.textContent).toContain('(tú)');
    expect(self?.textContent).toContain('Tín egna konta');
    expect(within(self!).queryAllByRole('button')).toHaveLength(0);
    expect(ragnaRow?.textContent).toContain('ragna@alda.fo');
    expect(ragnaRow?.textContent).toContain('Kundatænasta');
    expect(ragnaRow?.textContent).toContain('Virkin');
    expect(ragnaRow?.textContent).toContain('02.03.2026');
    expect(jonasRow?.textContent).toContain('Steingd 20.05.2026');
    expect(
      within(jonasRow!).getByRole('button', { name: 'Lat upp kontuna hjá Jónas Hansen' }),
    ).toBeTruthy();
  });

  it('adds a staff member and shows the enrolment once: the QR code of the otpauth URI, the key in fours, the first password and ten recovery codes', async () => {
    const user = userEvent.setup();
    const created = member({
      id: '33333333-3333-4333-8333-333333333333',
      email: 'eyd@alda.fo',
      name: 'Eyð Joensen',
      role: 'content',
    });
    const { calls } = renderConsole({
      path: '/staff',
      session: admin,
      handler: api((call) =>
        call.method === 'POST' && call.path === '/api/staff/accounts'
          ? { status: 201, body: { data: enrolment(created, 'Kvf7-Tz2q-Lm9x-Rb4w') } }
          : undefined,
      ),
    });
    await screen.findByRole('table');
    await user.click(screen.getByRole('button', { name: 'Legg starvsfólk afturat' }));
    const form = screen.getByRole('dialog', { name: 'Nýtt starvsfólk' });
    await user.click(within(form).getByRole('button', { name: 'Stovna kontu' }));
    expect(within(form).getByText('Skriva teldupostadressuna.')).toBeTruthy();
    await user.type(within(form).getByRole('textbox', { name: 'Teldupostur' }), 'eyd@alda.fo');
    await user.type(within(form).getByRole('textbox', { name: 'Navn' }), 'Eyð Joensen');
    await user.selectOptions(within(form).getByRole('combobox', { name: 'Leiklutur' }), 'content');
    await user.click(within(form).getByRole('button', { name: 'Stovna kontu' }));

    const panel = await screen.findByRole('dialog', { name: 'Innritan hjá Eyð Joensen' });
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({
      email: 'eyd@alda.fo',
      name: 'Eyð Joensen',
      role: 'content',
    });
    const qr = await within(panel).findByRole('img', {
      name: 'QR-kota til váttanarappina hjá Eyð Joensen',
    });
    // The very symbol of the otpauth:// URI, module for module.
    expect(qr.querySelector('path')?.getAttribute('d')).toBe(
      qrModulesPath(QRCode.create(URI, { errorCorrectionLevel: 'M' }).modules),
    );
    expect(within(panel).getByText('JBSW Y3DP EHPK 3PXP JBSW Y3DP')).toBeTruthy();
    expect(within(panel).getByText('Kvf7-Tz2q-Lm9x-Rb4w')).toBeTruthy();
    const codes = within(panel)
      .getAllByRole('listitem')
      .map((item) => item.textContent);
    expect(codes).toEqual(CODES);
    expect(within(panel).getByRole('heading', { name: '10 varakotur' })).toBeTruthy();

    await user.click(within(panel).getByRole('button', { name: 'Eg havi handað hetta víðari' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(screen.queryByText('a1b2c-d3e4f')).toBeNull();
    expect(screen.queryByText('Kvf7-Tz2q-Lm9x-Rb4w')).toBeNull();
    expect(
      screen.getByText('Innritanin hjá Eyð Joensen er handað víðari og verður ikki víst aftur.'),
    ).toBeTruthy();
  });

  it('changes a role with the reason given (PATCH { role, reason })', async () => {
    const user = userEvent.setup();
    const { calls } = renderConsole({
      path: '/staff',
      session: admin,
      handler: api((call) =>
        call.method === 'PATCH'
          ? {
              status: 200,
              body: { data: { ...ragna, ...(call.body as { role: StaffMember['role'] }) } },
            }
          : undefined,
      ),
    });
    await user.click(await screen.findByRole('button', { name: 'Broyt leiklut hjá Ragna Dam' }));
    const dialog = screen.getByRole('dialog', { name: 'Broyt leiklut hjá Ragna Dam' });
    await user.selectOptions(
      within(dialog).getByRole('combobox', { name: 'Nýggjur leiklutur' }),
      'provisioning',
    );
    // No reason: nothing is sent.
    await user.click(within(dialog).getByRole('button', { name: 'Broyt leiklut' }));
    expect(within(dialog).getByText('Skriva eina orsøk (í minsta lagi 3 tekin).')).toBeTruthy();
    expect(calls.some((c) => c.method === 'PATCH')).toBe(false);

    await user.type(
      within(dialog).getByRole('textbox', { name: 'Orsøk' }),
      'Mál 812: flutt til uppseting',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Broyt leiklut' }));
    expect(await screen.findByText('Ragna Dam hevur nú leiklutin Uppseting.')).toBeTruthy();
    const patch = calls.find((c) => c.method === 'PATCH');
    expect(patch?.path).toBe(`/api/staff/accounts/${ragna.id}`);
    expect(patch?.body).toEqual({ role: 'provisioning', reason: 'Mál 812: flutt til uppseting' });
  });

  it('closes an account with a reason, and shows a refusal in the dialog', async () => {
    const user = userEvent.setup();
    let refuse = true;
    const { calls } = renderConsole({
      path: '/staff',
      session: admin,
      handler: api((call) => {
        if (call.method !== 'PATCH') return undefined;
        if (refuse) {
          refuse = false;
          return {
            status: 409,
            body: {
              error: {
                code: 'STAFF_ACTION_NOT_ALLOWED',
                message: 'Hetta ber ikki til í hesi støðuni.',
              },
            },
          };
        }
        return {
          status: 200,
          body: { data: { ...ragna, disabledAt: '2026-06-15T12:00:00.000Z' } },
        };
      }),
    });
    await user.click(await screen.findByRole('button', { name: 'Steing kontuna hjá Ragna Dam' }));
    const dialog = screen.getByRole('dialog', { name: 'Steing kontuna hjá Ragna Dam' });
    await user.type(within(dialog).getByRole('textbox', { name: 'Orsøk' }), 'Fór úr starvi');
    await user.click(within(dialog).getByRole('button', { name: 'Steing kontuna' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe(
      'Hetta ber ikki til í hesi støðuni.',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Steing kontuna' }));
    expect(await screen.findByText('Kontan hjá Ragna Dam er steingd.')).toBeTruthy();
    expect(calls.filter((c) => c.method === 'PATCH').map((c) => c.body)).toEqual([
      { disabled: true, reason: 'Fór úr starvi' },
      { disabled: true, reason: 'Fór úr starvi' },
    ]);
  });

  it('re-enrols a lost phone with a reason and shows the new enrolment (the password stays)', async () => {
    const user = userEvent.setup();
    const { calls } = renderConsole({
      path: '/staff',
      session: admin,
      handler: api((call) =>
        call.method === 'POST' && call.path.endsWith('/reenrol')
          ? { status: 200, body: { data: enrolment(ragna, null) } }
          : undefined,
      ),
    });
    await user.click(await screen.findByRole('button', { name: 'Nýggj váttan til Ragna Dam' }));
    const dialog = screen.getByRole('dialog', { name: 'Nýggj váttan til Ragna Dam' });
    await user.type(within(dialog).getByRole('textbox', { name: 'Orsøk' }), 'Mist telefon, mál 90');
    await user.click(within(dialog).getByRole('button', { name: 'Ger nýggja váttan' }));
    const panel = await screen.findByRole('dialog', { name: 'Innritan hjá Ragna Dam' });
    expect(within(panel).getByText('Loyniorðið er tað sama sum áður.')).toBeTruthy();
    await waitFor(() => expect(within(panel).getByRole('img')).toBeTruthy());
    const post = calls.find((c) => c.path.endsWith('/reenrol'));
    expect(post?.path).toBe(`/api/staff/accounts/${ragna.id}/reenrol`);
    expect(post?.body).toEqual({ reason: 'Mist telefon, mál 90' });
  });

  it("shows each member's passkeys and revokes one with a reason", async () => {
    const user = userEvent.setup();
    const { calls } = renderConsole({
      path: '/staff',
      session: admin,
      handler: api((call) =>
        call.method === 'GET' && call.path === `/api/staff/accounts/${ragna.id}/passkeys`
          ? { status: 200, body: { data: { items: RAGNAS_PASSKEYS } } }
          : call.method === 'POST' && call.path.endsWith('/revoke')
            ? { status: 204 }
            : undefined,
      ),
    });
    const table = await screen.findByRole('table', { name: 'Kontur hjá starvsfólkinum' });
    const [, self, , jonasRow] = within(table).getAllByRole('row');
    // Counts only where there is nothing to open: one's own (under "My passkeys") and none.
    expect(self?.textContent).toContain('1 lykilkoda');
    expect(jonasRow?.textContent).toContain('0 lykilkodur');
    expect(within(jonasRow!).queryByRole('button', { name: /lykilkod/ })).toBeNull();

    await user.click(screen.getByRole('button', { name: '2 lykilkodur hjá Ragna Dam' }));
    const dialog = screen.getByRole('dialog', { name: 'Lykilkodurnar hjá Ragna Dam' });
    expect(await within(dialog).findByText('Chrome, Windows')).toBeTruthy();
    expect(within(dialog).getByText('Stovnað 01.05.2026 · ikki brúkt enn')).toBeTruthy();

    await user.click(within(dialog).getByRole('button', { name: 'Tak lykilkoduna iPhone aftur' }));
    expect(within(dialog).getByText('Tak lykilkoduna “iPhone” aftur')).toBeTruthy();
    // No reason: nothing is sent.
    await user.click(within(dialog).getByRole('button', { name: 'Tak lykilkoduna aftur' }));
    expect(within(dialog).getByText('Skriva eina orsøk (í minsta lagi 3 tekin).')).toBeTruthy();
    expect(calls.some((c) => c.path.endsWith('/revoke'))).toBe(false);
    await user.type(
      within(dialog).getByRole('textbox', { name: 'Orsøk' }),
      'Mál 913: mist telefon',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Tak lykilkoduna aftur' }));
    expect(
      await within(dialog).findByText(
        'Lykilkodan “iPhone” er tikin aftur, og Ragna Dam er ritað/ur út allastaðni.',
      ),
    ).toBeTruthy();
    const revoke = calls.find((c) => c.path.endsWith('/revoke'));
    expect(revoke?.path).toBe(
      `/api/staff/accounts/${ragna.id}/passkeys/${RAGNAS_PASSKEYS[1]!.id}/revoke`,
    );
    expect(revoke?.body).toEqual({ reason: 'Mál 913: mist telefon' });
  });

  it('requires a passkey of a role after a confirmation that says how many members have none', async () => {
    const user = userEvent.setup();
    let support = POLICIES[0]!;
    const { calls } = renderConsole({
      path: '/staff',
      session: admin,
      handler: api((call) => {
        if (call.method === 'GET' && call.path === '/api/staff/role-policies')
          return { status: 200, body: { data: { items: [support, ...POLICIES.slice(1)] } } };
        if (call.method === 'PUT' && call.path === '/api/staff/role-policies/support') {
          support = { ...support, requirePasskey: true, updatedAt: '2026-06-15T12:00:00.000Z' };
          return { status: 200, body: { data: support } };
        }
        return undefined;
      }),
    });
    const section = await screen.findByRole('region', { name: 'Krav um lykilkodu' });
    const toggle = await within(section).findByRole('switch', {
      name: 'Krev lykilkodu: Kundatænasta',
    });
    expect(toggle.getAttribute('aria-checked')).toBe('false');
    expect(section.textContent).toContain('4 virknir limir. 3 hava onga lykilkodu.');

    await user.click(toggle);
    const dialog = screen.getByRole('dialog', { name: 'Krev lykilkodu: Kundatænasta' });
    // Before anything is switched: who would be shut out.
    expect(dialog.textContent).toContain(
      '3 av 4 limum hava onga lykilkodu og kunnu ikki rita inn aftur við kotuni.',
    );
    expect(calls.some((c) => c.method === 'PUT')).toBe(false);
    await user.type(within(dialog).getByRole('textbox', { name: 'Orsøk' }), 'Mál 914: phishing');
    await user.click(within(dialog).getByRole('button', { name: 'Krev lykilkodu' }));

    expect(await screen.findByText('Kundatænasta ritar nú inn við lykilkodu.')).toBeTruthy();
    expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({
      requirePasskey: true,
      reason: 'Mál 914: phishing',
    });
    await waitFor(() =>
      expect(
        within(section)
          .getByRole('switch', { name: 'Krev lykilkodu: Kundatænasta' })
          .getAttribute('aria-checked'),
      ).toBe('true'),
    );
  });

  it('tells an admin without a passkey to add one before requiring them of admins', async () => {
    const user = userEvent.setup();
    renderConsole({
      path: '/staff',
      session: admin,
      handler: api((call) =>
        call.method === 'PUT'
          ? {
              status: 409,
              body: {
                error: {
                  code: 'STAFF_ACTION_NOT_ALLOWED',
                  message: 'Hetta ber ikki til í hesi støðuni.',
                },
              },
            }
          : undefined,
      ),
    });
    await user.click(await screen.findByRole('switch', { name: 'Krev lykilkodu: Umsitari' }));
    const dialog = screen.getByRole('dialog', { name: 'Krev lykilkodu: Umsitari' });
    await user.type(within(dialog).getByRole('textbox', { name: 'Orsøk' }), 'Mál 915');
    await user.click(within(dialog).getByRole('button', { name: 'Krev lykilkodu' }));
    expect((await within(dialog).findByRole('alert')).textContent).toContain(
      'Legg fyrst eina lykilkodu afturat til tín sjálvs undir “Mínar lykilkodur”',
    );
  });
});
