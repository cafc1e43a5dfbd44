import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it } from 'vitest';
import type { StaffPartner } from '@alda/contract/schemas/staff-partners';
import { aSession, renderConsole, type Handler } from '@/test/render';

/* Issue 32: the partner clients of the CAMARA SIM Swap API (admin). */

const admin = aSession('admin');

const banki: StaffPartner = {
  id: '11111111-1111-4111-8111-111111111111',
  clientId: 'alda_0123456789abcdef01234567',
  name: 'Føroya Banki',
  scopes: ['sim-swap'],
  createdBy: 'staff:eyd@alda.fo',
  createdAt: '2026-11-02T10:00:00.000Z',
  disabledAt: null,
  lastCallAt: '2026-11-24T09:00:00.000Z',
  callCount: 12,
};

function api(extra: Handler = () => undefined): Handler {
  return async (call) => {
    if (call.method === 'GET' && call.path === '/api/staff/partners')
      return { status: 200, body: { data: { items: [banki] } } };
    return extra(call);
  };
}

beforeAll(async () => {
  await import('./partners-screen');
}, 20_000);

describe('partners (/console/partners, admin)', () => {
  it('lists partners with client_id, scopes and their calls', async () => {
    renderConsole({ path: '/partners', session: admin, handler: api() });
    const table = await screen.findByRole('table', { name: 'Samstarvspartar' });
    const [, row] = within(table).getAllByRole('row');
    expect(row?.textContent).toContain('Føroya Banki');
    expect(row?.textContent).toContain('alda_0123456789abcdef01234567');
    expect(row?.textContent).toContain('sim-swap');
    expect(row?.textContent).toContain('12 fyrispurningar');
  });

  it('adds a partner and shows the secret once, saying it will not be seen again', async () => {
    let body: unknown;
    renderConsole({
      path: '/partners',
      session: admin,
      handler: api((call) => {
        if (call.method === 'POST' && call.path === '/api/staff/partners') {
          body = call.body;
          return {
            status: 201,
            body: {
              data: { partner: { ...banki, name: 'Nýggi Banki' }, clientSecret: 'S3cr3t-once' },
            },
          };
        }
        return undefined;
      }),
    });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Legg samstarvspart afturat' }));
    const dialog = await screen.findByRole('dialog');
    await user.type(within(dialog).getByLabelText('Navn á samstarvsparti'), 'Nýggi Banki');
    await user.click(within(dialog).getByRole('button', { name: 'Legg afturat' }));
    const secret = await screen.findByRole('dialog', { name: 'Nýggi Banki: atgongdarupplýsingar' });
    expect(body).toEqual({ name: 'Nýggi Banki', scopes: ['sim-swap'] });
    expect(secret.textContent).toContain('S3cr3t-once');
    expect(secret.textContent).toContain('Tú fært ikki at síggja tað aftur.');
    within(secret).getByRole('button', { name: 'Avrita loyniorð' });
    await user.click(within(secret).getByRole('button', { name: 'Eg havi goymt tað' }));
    expect(screen.queryByText('S3cr3t-once')).toBeNull();
  });

  it('disables a partner with a reason', async () => {
    let body: unknown;
    renderConsole({
      path: '/partners',
      session: admin,
      handler: api((call) => {
        if (
          call.method === 'POST' &&
          call.path === `/api/staff/partners/${banki.clientId}/disable`
        ) {
          body = call.body;
          return {
            status: 200,
            body: { data: { ...banki, disabledAt: '2026-11-25T10:00:00.000Z' } },
          };
        }
        return undefined;
      }),
    });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Ger Føroya Banki óvirknan' }));
    const dialog = await screen.findByRole('dialog');
    await user.type(within(dialog).getByLabelText('Orsøk'), 'Mál 4711');
    await user.click(within(dialog).getByRole('button', { name: 'Ger óvirknan' }));
    await screen.findByText('Føroya Banki er gjørdur óvirkin.');
    expect(body).toEqual({ reason: 'Mál 4711' });
  });
});
