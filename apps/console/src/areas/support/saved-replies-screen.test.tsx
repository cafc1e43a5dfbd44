import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { SupportSavedReply } from '@alda/contract/schemas/staff-support';
import { aSession, renderConsole, type Handler } from '@/test/render';
import { aSavedReply, callsTo, REPLY_ID } from './fixtures';

const LIST = '/api/staff/support/saved-replies';
const NEW_ID = '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d';

/** The fake API of saved replies: list, create, change, delete, as the server would. */
function api(initial: SupportSavedReply[] = [aSavedReply()]): Handler {
  let items = initial;
  return (call) => {
    if (call.method === 'GET' && call.path === LIST)
      return { status: 200, body: { data: { items } } };
    if (call.method === 'POST' && call.path === LIST) {
      const created = { ...aSavedReply(), ...(call.body as object), id: NEW_ID };
      items = [...items, created];
      return { status: 201, body: { data: created } };
    }
    const one = /^\/api\/staff\/support\/saved-replies\/([^/]+)$/.exec(call.path);
    if (one && call.method === 'PUT') {
      const changed = { ...aSavedReply(), ...(call.body as object), id: one[1] ?? '' };
      items = items.map((item) => (item.id === changed.id ? changed : item));
      return { status: 200, body: { data: changed } };
    }
    if (one && call.method === 'DELETE') {
      items = items.filter((item) => item.id !== one[1]);
      return { status: 204 };
    }
    return undefined;
  };
}

describe('saved replies (issue 46 "saved replies, which the content role manages in both languages")', () => {
  it('issue 46: content writes a new reply in Faroese and English; all four fields are required', async () => {
    const user = userEvent.setup();
    const { calls } = renderConsole({
      path: '/saved-replies',
      session: aSession('content'),
      handler: api([]),
    });
    expect(await screen.findByRole('heading', { level: 1, name: 'Goymd svar' })).toBeTruthy();
    await screen.findByText(/Eingi goymd svar enn/);

    await user.click(screen.getByRole('button', { name: 'Nýtt svar' }));
    const dialog = screen.getByRole('dialog', { name: 'Nýtt goymt svar' });
    await user.type(within(dialog).getByLabelText('Heiti á føroyskum'), 'Gjald miseydnaðist');
    await user.click(within(dialog).getByRole('button', { name: 'Goym' }));
    expect(within(dialog).getAllByText('Skriva hetta.')).toHaveLength(3);
    expect(callsTo(calls, 'POST', LIST)).toHaveLength(0);

    await user.type(within(dialog).getByLabelText('Heiti á enskum'), 'Payment failed');
    await user.type(within(dialog).getByLabelText('Tekstur á føroyskum'), 'Royn eitt annað kort.');
    await user.type(within(dialog).getByLabelText('Tekstur á enskum'), 'Try another card.');
    await user.click(within(dialog).getByRole('button', { name: 'Goym' }));

    await screen.findByText('Svarið „Gjald miseydnaðist“ er goymt.');
    expect(callsTo(calls, 'POST', LIST).map((c) => c.body)).toEqual([
      {
        titleFo: 'Gjald miseydnaðist',
        titleEn: 'Payment failed',
        bodyFo: 'Royn eitt annað kort.',
        bodyEn: 'Try another card.',
      },
    ]);
    expect(
      await screen.findByRole('heading', { level: 2, name: 'Gjald miseydnaðist' }),
    ).toBeTruthy();
  });

  it('issue 46: edits a reply, and deletes one only after asking', async () => {
    const user = userEvent.setup();
    const { calls } = renderConsole({
      path: '/saved-replies',
      session: aSession('content'),
      handler: api(),
    });
    await user.click(await screen.findByRole('button', { name: 'Broyt „Avvíst flyting“' }));
    const dialog = screen.getByRole('dialog', { name: 'Broyt goymda svarið' });
    const body = within(dialog).getByLabelText('Tekstur á enskum');
    await user.clear(body);
    await user.type(body, 'Check the SIM card number.');
    await user.click(within(dialog).getByRole('button', { name: 'Goym' }));
    await screen.findByText('Svarið „Avvíst flyting“ er broytt.');
    expect(callsTo(calls, 'PUT', `${LIST}/${REPLY_ID}`).map((c) => c.body)).toEqual([
      {
        titleFo: 'Avvíst flyting',
        titleEn: 'Rejected port',
        bodyFo: 'Kanna SIM-kortnummarið og royn aftur í appini.',
        bodyEn: 'Check the SIM card number.',
      },
    ]);

    await user.click(screen.getByRole('button', { name: 'Strika „Avvíst flyting“' }));
    const confirm = screen.getByRole('dialog', { name: 'Strika goymda svarið?' });
    await user.click(within(confirm).getByRole('button', { name: 'Angra' }));
    expect(callsTo(calls, 'DELETE', `${LIST}/${REPLY_ID}`)).toHaveLength(0);

    await user.click(screen.getByRole('button', { name: 'Strika „Avvíst flyting“' }));
    await user.click(
      within(screen.getByRole('dialog', { name: 'Strika goymda svarið?' })).getByRole('button', {
        name: 'Strika',
      }),
    );
    await screen.findByText('Svarið „Avvíst flyting“ er strikað.');
    expect(callsTo(calls, 'DELETE', `${LIST}/${REPLY_ID}`)).toHaveLength(1);
    await screen.findByText(/Eingi goymd svar enn/);
  });

  it('issue 46: is for content (and admin): support is sent to its own landing page', async () => {
    const { router } = renderConsole({ path: '/saved-replies', session: aSession('support') });
    await waitFor(() => expect(router.state.location.pathname).toBe('/customers'));
  });
});
