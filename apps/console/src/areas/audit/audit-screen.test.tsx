import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it, onTestFinished, vi } from 'vitest';
import type { AuditEntry, AuditPage } from '@alda/contract/schemas/staff';
import { aSession, renderConsole, type Call, type Handler } from '@/test/render';

const entry = (n: number, overrides: Partial<AuditEntry> = {}): AuditEntry => ({
  id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
  at: '2026-06-15T12:00:05.000Z',
  kind: 'change',
  actor: 'staff:sigrid@alda.fo',
  action: 'number.release',
  targetType: 'number',
  targetId: '219950',
  reason: 'Mál 4711',
  details: { cancelledAt: '2026-06-05T12:00:00.000Z', releaseId: 'r-1' },
  ...overrides,
});

const firstPage: AuditPage = {
  items: [
    entry(1),
    entry(2, {
      kind: 'read',
      action: 'customer.view',
      targetType: 'customer',
      targetId: 'c0ffee00-0000-4000-8000-000000000001',
      reason: 'Samtala 88',
      details: null,
      at: '2026-01-10T08:30:00.000Z',
    }),
  ],
  nextBefore: '00000000-0000-4000-8000-000000000002',
};
const olderPage: AuditPage = {
  items: [
    entry(3, { actor: 'olaf', action: 'order.retry', targetType: 'order', reason: 'Ticket 12' }),
  ],
  nextBefore: null,
};

const query = (call: Call) => new URL(call.path, 'http://console').searchParams;

const api: Handler = (call) => {
  if (call.method !== 'GET' || !call.path.startsWith('/api/staff/audit?')) return undefined;
  return { status: 200, body: { data: query(call).get('before') ? olderPage : firstPage } };
};

beforeAll(async () => {
  await import('./audit-screen');
}, 20_000);

describe('the audit log (/console/audit, admin)', () => {
  it('shows each entry: time on the Tórshavn clock, read or change, who, what, target, why and the details', async () => {
    renderConsole({ path: '/audit', session: aSession('admin'), handler: api });
    expect(await screen.findByRole('heading', { level: 1, name: 'Eftirlitslogg' })).toBeTruthy();
    const table = await screen.findByRole('table', { name: /Skrásetingar í eftirlitsloggini/ });
    const [, change, read] = within(table).getAllByRole('row');
    // 12:00:05 UTC in June is 13:00:05 in Tórshavn (summer time); 08:30 UTC in January is 08:30.
    expect(change?.textContent).toContain('15.06.202613:00:05');
    expect(within(change!).getByText('13:00:05').closest('time')?.getAttribute('datetime')).toBe(
      '2026-06-15T12:00:05.000Z',
    );
    expect(change?.textContent).toContain('Broyting');
    // A staff member by e-mail (the `staff:` of the log left out).
    expect(change?.textContent).toContain('sigrid@alda.fo');
    expect(change?.textContent).not.toContain('staff:');
    expect(change?.textContent).toContain('Nummar frígivið');
    expect(change?.textContent).toContain('219950');
    expect(change?.textContent).toContain('Mál 4711');
    expect(change?.textContent).toContain('cancelledAt: 2026-06-05T12:00:00.000Z · releaseId: r-1');
    expect(read?.textContent).toContain('10.01.202608:30:00');
    expect(read?.textContent).toContain('Lesing');
  });

  it('puts the filters into the query (days as Tórshavn days) and pages on with before', async () => {
    const user = userEvent.setup();
    const { calls, router } = renderConsole({
      path: '/audit',
      session: aSession('admin'),
      handler: api,
    });
    await screen.findByRole('table');
    const filters = screen.getByRole('search', { name: 'Filtrera loggina' });
    await user.type(within(filters).getByRole('textbox', { name: 'Hvør' }), 'sigrid@');
    await user.type(within(filters).getByRole('combobox', { name: 'Atgerð' }), 'number.');
    await user.type(within(filters).getByRole('textbox', { name: 'Hvat (ID)' }), '219950');
    await user.type(within(filters).getByLabelText('Frá'), '2026-06-01');
    await user.type(within(filters).getByLabelText('Til'), '2026-06-15');
    await user.click(within(filters).getByRole('button', { name: 'Leita' }));

    await waitFor(() =>
      expect(router.state.location.search).toBe(
        '?actor=sigrid%40&action=number.&target=219950&from=2026-06-01&to=2026-06-15',
      ),
    );
    await waitFor(() => expect(calls.some((c) => query(c).get('actor') === 'sigrid@')).toBe(true));
    const asked = query(calls.findLast((c) => query(c).get('actor') === 'sigrid@')!);
    expect(Object.fromEntries(asked)).toEqual({
      actor: 'sigrid@',
      action: 'number.',
      targetId: '219950',
      // 1 June 00:00 and 15 June 24:00 in Tórshavn (UTC+1 in summer).
      from: '2026-05-31T23:00:00.000Z',
      to: '2026-06-15T22:59:59.999Z',
      limit: '100',
    });

    await user.click(await screen.findByRole('button', { name: 'Vís eldri' }));
    // An operator of the command line, named as logged.
    const older = await screen.findByRole('row', { name: /Bílegging roynd aftur/ });
    expect(older.textContent).toContain('olafÚr skipanarlinjuni');
    const next = calls.find((c) => query(c).get('before'));
    expect(query(next!).get('before')).toBe('00000000-0000-4000-8000-000000000002');
    expect(query(next!).get('actor')).toBe('sigrid@');
    expect(screen.queryByRole('button', { name: 'Vís eldri' })).toBeNull();
  });

  it('refuses a from day after the to day, and asks nothing', async () => {
    const user = userEvent.setup();
    const { calls } = renderConsole({ path: '/audit', session: aSession('admin'), handler: api });
    await screen.findByRole('table');
    const before = calls.length;
    await user.type(screen.getByLabelText('Frá'), '2026-06-15');
    await user.type(screen.getByLabelText('Til'), '2026-06-01');
    await user.click(screen.getByRole('button', { name: 'Leita' }));
    expect(screen.getByText('Fyrsti dagur kann ikki vera seinni enn seinasti dagur.')).toBeTruthy();
    expect(calls.slice(before).some((c) => query(c).get('from'))).toBe(false);
  });

  it('exports the CSV of the current filters with the staff token, and saves it as a file', async () => {
    const user = userEvent.setup();
    const csv = vi.fn(
      async (_url: string, _init: RequestInit) =>
        new Response('at,kind,actor\r\n', { status: 200, headers: { 'content-type': 'text/csv' } }),
    );
    vi.stubGlobal('fetch', csv);
    const createObjectURL = vi.fn((_blob: Blob) => 'blob:alda-audit');
    const revokeObjectURL = vi.fn();
    // jsdom has no object URLs: the test's own, taken away after the test.
    Object.assign(URL, { createObjectURL, revokeObjectURL });
    onTestFinished(() => {
      Reflect.deleteProperty(URL, 'createObjectURL');
      Reflect.deleteProperty(URL, 'revokeObjectURL');
    });
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});

    renderConsole({
      path: '/audit?action=customer.&from=2026-01-01',
      session: aSession('admin', 'alda_staff_admin-token'),
      handler: api,
    });
    await screen.findByRole('table');
    await user.click(screen.getByRole('button', { name: 'Tak út sum CSV' }));
    expect(await screen.findByText('CSV-fílan er tikin niður við somu filtrum.')).toBeTruthy();

    expect(csv).toHaveBeenCalledTimes(1);
    const [url, init] = csv.mock.calls[0]!;
    const asked = new URL(url, 'http://console');
    expect(asked.pathname).toBe('/api/staff/audit.csv');
    expect(Object.fromEntries(asked.searchParams)).toEqual({
      action: 'customer.',
      // 1 January 00:00 in Tórshavn (UTC+0 in winter).
      from: '2026-01-01T00:00:00.000Z',
    });
    expect((init.headers as Record<string, string>).authorization).toBe(
      'Bearer alda_staff_admin-token',
    );
    expect(await createObjectURL.mock.calls[0]![0].text()).toBe('at,kind,actor\r\n');
    expect(click).toHaveBeenCalledTimes(1);
    const link = click.mock.contexts[0] as HTMLAnchorElement;
    expect(link.href).toBe('blob:alda-audit');
    expect(link.download).toMatch(/^alda-audit-\d{4}-\d{2}-\d{2}\.csv$/);
  });

  it("says when the export is refused, with the server's message", async () => {
    const user = userEvent.setup();
    vi.stubGlobal(
      'fetch',
      vi.fn(
        async () =>
          new Response(
            JSON.stringify({ error: { code: 'FORBIDDEN', message: 'Tú hevur ikki loyvi.' } }),
            { status: 403, headers: { 'content-type': 'application/json' } },
          ),
      ),
    );
    renderConsole({ path: '/audit', session: aSession('admin'), handler: api });
    await screen.findByRole('table');
    await user.click(screen.getByRole('button', { name: 'Tak út sum CSV' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('CSV-fílan kundi ikki takast niður.');
    expect(alert.textContent).toContain('Tú hevur ikki loyvi.');
  });
});
