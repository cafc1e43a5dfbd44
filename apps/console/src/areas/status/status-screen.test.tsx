import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { StaffStatusMessage } from '@alda/contract/schemas/staff-status';
import { aSession, renderConsole, type Call, type Handler } from '@/test/render';

const LIST = '/api/staff/status-messages';

const aMessage = (over: Partial<StaffStatusMessage> = {}): StaffStatusMessage => ({
  id: '6a1f7a52-2c0d-4b4e-9d55-0f6c1e2a3b4c',
  titleFo: 'Viðlíkahald í nátt',
  titleEn: 'Maintenance tonight',
  bodyFo: 'Appin er niðri frá kl. 23.',
  bodyEn: 'The app is down from 23:00.',
  activeFrom: '2026-06-15T12:00:00.000Z',
  activeTo: null,
  createdAt: '2026-06-15T12:00:00.000Z',
  state: 'active',
  urgent: false,
  ...over,
});

/** The fake API: the list, a publish that answers what was sent, an end that ends it. */
function api(items: StaffStatusMessage[] = []): Handler {
  return (call) => {
    if (call.method === 'GET' && call.path === LIST)
      return { status: 200, body: { data: { items } } };
    if (call.method === 'POST' && call.path === LIST) {
      const body = call.body as Record<string, string | null> & { urgent?: boolean };
      return {
        status: 201,
        body: {
          data: aMessage({
            id: '7b2f8b63-3d1e-4c5f-8e66-1a7d2f3b4c5d',
            titleFo: String(body.titleFo),
            titleEn: String(body.titleEn),
            bodyFo: String(body.bodyFo),
            bodyEn: String(body.bodyEn),
            activeFrom: body.activeFrom ?? '2026-06-15T12:00:00.000Z',
            activeTo: body.activeTo ?? null,
            state: body.activeFrom ? 'scheduled' : 'active',
            urgent: body.urgent === true,
          }),
        },
      };
    }
    const end = /^\/api\/staff\/status-messages\/([^/]+)\/end$/.exec(call.path);
    if (call.method === 'POST' && end) {
      const found = items.find((m) => m.id === end[1]);
      return found
        ? {
            status: 200,
            body: { data: { ...found, state: 'ended', activeTo: '2026-06-15T12:05:00.000Z' } },
          }
        : { status: 404, body: { error: { code: 'NOT_FOUND', message: 'Ikki funnið.' } } };
    }
    return undefined;
  };
}

const posts = (calls: Call[], path = LIST) =>
  calls.filter((c) => c.method === 'POST' && c.path === path);

describe('the status messages screen (issue 31 "Status messages")', () => {
  it('previews what is typed as the app shows it, in Faroese and — toggled or typing in English — in English', async () => {
    const user = userEvent.setup();
    renderConsole({ path: '/status', session: aSession('content'), handler: api() });
    expect(await screen.findByRole('heading', { level: 1, name: 'Støðuboð' })).toBeTruthy();
    const preview = screen.getByTestId('status-preview');
    // Empty: the preview says where the title and the text will be, with the app's button.
    expect(within(preview).getByText('Heitið á boðunum')).toBeTruthy();
    expect(within(preview).getByText('Lat aftur')).toBeTruthy();

    await user.type(screen.getByLabelText('Heiti á føroyskum'), 'Viðlíkahald');
    await user.type(screen.getByLabelText('Tekstur á føroyskum'), 'Niðri í nátt.');
    expect(within(preview).getByText('Viðlíkahald')).toBeTruthy();
    expect(within(preview).getByText('Niðri í nátt.')).toBeTruthy();
    expect(preview.getAttribute('lang')).toBe('fo');

    await user.type(screen.getByLabelText('Heiti á enskum'), 'Maintenance');
    // Typing in English shows the English message, with the app's English button.
    expect(within(preview).getByText('Maintenance')).toBeTruthy();
    expect(within(preview).getByText('Close')).toBeTruthy();
    expect(preview.getAttribute('lang')).toBe('en');

    const toggle = screen.getByRole('group', { name: 'Mál í appini' });
    await user.click(within(toggle).getByRole('button', { name: 'Føroyskt' }));
    expect(within(preview).getByText('Viðlíkahald')).toBeTruthy();
    expect(
      within(toggle).getByRole('button', { name: 'Føroyskt' }).getAttribute('aria-pressed'),
    ).toBe('true');
    expect(within(toggle).getByRole('button', { name: 'Enskt' }).getAttribute('aria-pressed')).toBe(
      'false',
    );
  });

  it('publishes both languages with the window in Faroese time, and says it is scheduled', async () => {
    const user = userEvent.setup();
    const { calls } = renderConsole({
      path: '/status',
      session: aSession('content'),
      handler: api(),
    });
    await screen.findByRole('table', { name: 'Støðuboð, nýggjastu fyrst' });
    await user.type(screen.getByLabelText('Heiti á føroyskum'), 'Viðlíkahald');
    await user.type(screen.getByLabelText('Heiti á enskum'), 'Maintenance');
    await user.type(screen.getByLabelText('Tekstur á føroyskum'), 'Niðri í nátt.');
    await user.type(screen.getByLabelText('Tekstur á enskum'), 'Down tonight.');
    // Summer: Faroese time is UTC+1.
    fireEvent.change(screen.getByLabelText('Frá (føroysk tíð)'), {
      target: { value: '2099-06-15T23:00' },
    });
    fireEvent.change(screen.getByLabelText('Til (føroysk tíð)'), {
      target: { value: '2099-06-16T01:00' },
    });
    await user.click(screen.getByRole('button', { name: 'Skipa boðini' }));

    await screen.findByText('Boðini eru skipað. Appin vísir tey frá 15.06.2099 23:00.');
    expect(posts(calls).map((c) => c.body)).toEqual([
      {
        titleFo: 'Viðlíkahald',
        titleEn: 'Maintenance',
        bodyFo: 'Niðri í nátt.',
        bodyEn: 'Down tonight.',
        activeFrom: '2099-06-15T22:00:00.000Z',
        activeTo: '2099-06-16T00:00:00.000Z',
        urgent: false,
      },
    ]);
    // The form is empty again for the next message.
    expect((screen.getByLabelText('Heiti á føroyskum') as HTMLInputElement).value).toBe('');
  });

  it('sends an urgent message as a push notification only when ticked, saying whom it reaches', async () => {
    const user = userEvent.setup();
    const { calls } = renderConsole({
      path: '/status',
      session: aSession('content'),
      handler: api(),
    });
    await screen.findByRole('table', { name: 'Støðuboð, nýggjastu fyrst' });
    const urgent = screen.getByRole('checkbox', {
      name: 'Áríðandi: send tey eisini sum fráboðan á telefonina',
    }) as HTMLInputElement;
    expect(urgent.checked).toBe(false);
    // The hint is read with the box: every customer with push on, even in quiet hours.
    expect(urgent.getAttribute('aria-describedby')).toBeTruthy();
    const hint = document.getElementById(urgent.getAttribute('aria-describedby') ?? '');
    expect(hint?.textContent).toContain(
      'Fráboðanin fer til allar kundar, sum hava slegið fráboðanir á telefonini til – eisini í kvirru tímunum.',
    );

    for (const [label, text] of [
      ['Heiti á føroyskum', 'Feilur á netinum'],
      ['Heiti á enskum', 'Network fault'],
      ['Tekstur á føroyskum', 'Netið er niðri.'],
      ['Tekstur á enskum', 'The network is down.'],
    ] as const) {
      await user.type(screen.getByLabelText(label), text);
    }
    await user.click(urgent);
    await user.click(screen.getByRole('button', { name: 'Send út nú' }));

    await screen.findByText(
      'Boðini eru send út. Appin vísir tey, tá ið hon verður opnað. Fráboðanin fer á telefonirnar hjá kundunum, tá ið boðini byrja.',
    );
    expect(posts(calls).map((c) => (c.body as { urgent: boolean }).urgent)).toEqual([true]);
    // The next message is not urgent unless ticked again.
    expect(urgent.checked).toBe(false);
  });

  it('refuses a missing language and an end before the start without calling the API', async () => {
    const user = userEvent.setup();
    const { calls } = renderConsole({
      path: '/status',
      session: aSession('content'),
      handler: api(),
    });
    await screen.findByRole('table', { name: 'Støðuboð, nýggjastu fyrst' });
    await user.type(screen.getByLabelText('Heiti á føroyskum'), 'Viðlíkahald');
    await user.type(screen.getByLabelText('Tekstur á føroyskum'), 'Niðri í nátt.');
    fireEvent.change(screen.getByLabelText('Frá (føroysk tíð)'), {
      target: { value: '2099-06-16T01:00' },
    });
    fireEvent.change(screen.getByLabelText('Til (føroysk tíð)'), {
      target: { value: '2099-06-15T23:00' },
    });
    await user.click(screen.getByRole('button', { name: 'Skipa boðini' }));
    expect(screen.getAllByText('Skriva hetta.')).toHaveLength(2);
    expect(screen.getByText('Endin má vera eftir byrjanina.')).toBeTruthy();
    expect(screen.getByLabelText('Heiti á enskum').getAttribute('aria-invalid')).toBe('true');
    expect(posts(calls)).toHaveLength(0);
  });

  it('shows the server’s refusal of a window next to the field', async () => {
    const user = userEvent.setup();
    renderConsole({
      path: '/status',
      session: aSession('content'),
      handler: (call) =>
        call.method === 'POST'
          ? {
              status: 400,
              body: {
                error: {
                  code: 'STATUS_WINDOW_INVALID',
                  field: 'activeTo',
                  message: 'Støðuboðini mugu enda eftir at tey byrja, og seinni enn nú.',
                },
              },
            }
          : api()(call),
    });
    await screen.findByRole('table', { name: 'Støðuboð, nýggjastu fyrst' });
    for (const [label, text] of [
      ['Heiti á føroyskum', 'A'],
      ['Heiti á enskum', 'B'],
      ['Tekstur á føroyskum', 'C'],
      ['Tekstur á enskum', 'D'],
    ] as const) {
      await user.type(screen.getByLabelText(label), text);
    }
    await user.click(screen.getByRole('button', { name: 'Send út nú' }));
    expect(
      await screen.findByText('Støðuboðini mugu enda eftir at tey byrja, og seinni enn nú.'),
    ).toBeTruthy();
    expect(screen.getByLabelText('Til (føroysk tíð)').getAttribute('aria-invalid')).toBe('true');
  });

  it('lists the messages with their state, filters them, and ends one now only with a reason', async () => {
    const user = userEvent.setup();
    const active = aMessage();
    const scheduled = aMessage({
      id: '8c3a9c74-4e2f-4d6a-9f77-2b8e3a4c5d6e',
      titleFo: 'Nýggj app',
      activeFrom: '2099-01-01T10:00:00.000Z',
      state: 'scheduled',
    });
    const ended = aMessage({
      id: '9d4bad85-5f3a-4e7b-8a88-3c9f4b5d6e7f',
      titleFo: 'Gomul boð',
      activeTo: '2026-06-01T10:00:00.000Z',
      state: 'ended',
      urgent: true,
    });
    const { calls } = renderConsole({
      path: '/status',
      session: aSession('content'),
      handler: api([scheduled, active, ended]),
    });
    const table = await screen.findByRole('table', { name: 'Støðuboð, nýggjastu fyrst' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map((r) => r.textContent)).toEqual([
      expect.stringContaining('Skipað'),
      expect.stringContaining('Vísast nú'),
      expect.stringContaining('Endað'),
    ]);
    // Only the urgent one, which was pushed to the customers' phones, says so.
    expect(rows.map((r) => within(r).queryByText('Áríðandi') !== null)).toEqual([
      false,
      false,
      true,
    ]);
    // An ended message cannot be ended again.
    expect(within(rows[2] as HTMLElement).queryByRole('button')).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Skipað (1)' }));
    expect(within(table).getAllByRole('row').slice(1)).toHaveLength(1);
    await user.click(screen.getByRole('button', { name: 'Øll (3)' }));

    await user.click(screen.getByRole('button', { name: 'Enda nú: „Viðlíkahald í nátt“' }));
    const dialog = screen.getByRole('dialog', { name: 'Enda boðini nú?' });
    await user.click(within(dialog).getByRole('button', { name: 'Enda nú' }));
    expect(within(dialog).getByText('Skriva eina orsøk (í minsta lagi 3 tekn).')).toBeTruthy();
    expect(posts(calls, `${LIST}/${active.id}/end`)).toHaveLength(0);

    await user.type(within(dialog).getByLabelText('Orsøk'), 'Liðugt');
    await user.click(within(dialog).getByRole('button', { name: 'Enda nú' }));
    await screen.findByText('Boðini „Viðlíkahald í nátt“ eru endað.');
    expect(posts(calls, `${LIST}/${active.id}/end`).map((c) => c.body)).toEqual([
      { reason: 'Liðugt' },
    ]);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });
});
