import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import QRCode from 'qrcode';
import { beforeAll, describe, expect, it } from 'vitest';
import type { StaffEnrolment, StaffMember } from '@alda/contract/schemas/staff';
import { aSession, renderConsole, type Handler } from '@/test/render';
import { qrModulesPath } from '../../../../web/src/features/sim/qr-symbol';

const admin = aSession('admin');

const member = (overrides: Partial<StaffMember>): StaffMember => ({
  id: '11111111-1111-4111-8111-111111111111',
  email: 'ragna@alda.fo',
  name: 'Ragna Dam',
  role: 'support',
  disabledAt: null,
  createdAt: '2026-03-02T10:00:00.000Z',
  ...overrides,
});

const ragna = member({});
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

function api(extra: Handler = () => undefined): Handler {
  return async (call) => {
    if (call.method === 'GET' && call.path === '/api/staff/accounts') {
      return { status: 200, body: { data: { items: [admin.staff, ragna, jonas] } } };
    }
    return extra(call);
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
});
