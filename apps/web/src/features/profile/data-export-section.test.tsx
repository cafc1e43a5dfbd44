import { beforeAll, describe, expect, it, vi } from 'vitest';
import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { DataExport } from '@alda/contract/schemas/number-protection';
import { fail, json, ok } from '@/test/fake-api';
import { demoUser } from '@/test/fixtures';
import { renderApp } from '@/test/render';

const queued: DataExport = {
  id: 'exp-1',
  state: 'queued',
  progress: 0,
  createdAt: '2025-06-01T10:00:00.000Z',
  readyAt: null,
  expiresAt: null,
  downloadUrl: null,
};
const preparing: DataExport = { ...queued, state: 'preparing', progress: 40 };
const ready: DataExport = {
  ...queued,
  state: 'ready',
  progress: 100,
  readyAt: '2025-06-01T10:01:00.000Z',
  expiresAt: '2025-06-08T10:01:00.000Z',
  downloadUrl: '/api/data-exports/exp-1/download?sig=abc',
};

const open = (api = {}) => renderApp({ user: demoUser, initialEntries: ['/min-brukari'], api });

const section = async () => screen.findByRole('region', { name: 'Tak tínar dátur niður' });

beforeAll(async () => {
  await import('./profile-screen');
}, 20_000);

describe('download my data (issue 32, GDPR Art. 15 and 20)', () => {
  it('asks for an export, follows it every 2 s while it is prepared, then offers the ZIP until it expires', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      const answers = [[preparing], [ready]];
      let asked = false;
      const app = await open({
        'GET /profile/data-exports': () => ok(asked ? (answers.shift() ?? [ready]) : []),
        'POST /profile/data-exports': () => {
          asked = true;
          return json(202, { data: queued });
        },
      });
      await section();
      const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime.bind(vi) });
      await user.click(await screen.findByRole('button', { name: 'Bið um tínar dátur' }));
      expect(await screen.findByText('Vit gera tínar dátur klárar…')).toBeTruthy();
      await act(() => vi.advanceTimersByTimeAsync(2_100));
      expect((await screen.findByRole('progressbar')).getAttribute('aria-valuenow')).toBe('40');
      await act(() => vi.advanceTimersByTimeAsync(2_100));
      const link = await screen.findByRole('link', { name: 'Tak niður (ZIP)' });
      expect(link.getAttribute('href')).toMatch(/\/api\/data-exports\/exp-1\/download\?sig=abc$/);
      expect(screen.getByText('Leinkjan virkar til 08.06.2025 11:01.')).toBeTruthy();
      // Ready: no more polling.
      const reads = app.api.callsTo('GET /profile/data-exports').length;
      await act(() => vi.advanceTimersByTimeAsync(6_000));
      expect(app.api.callsTo('GET /profile/data-exports')).toHaveLength(reads);
    } finally {
      vi.useRealTimers();
    }
  });

  it('a failed or expired export can be asked for again', async () => {
    const app = await open({
      'GET /profile/data-exports': () => ok([{ ...queued, state: 'failed' }]),
      'POST /profile/data-exports': () => json(202, { data: queued }),
    });
    expect(await screen.findByText('Vit kundu ikki gera tínar dátur klárar.')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Bið um tær aftur' }));
    expect(await screen.findByText('Vit gera tínar dátur klárar…')).toBeTruthy();
    expect(app.api.callsTo('POST /profile/data-exports')).toHaveLength(1);
  });

  it('409 DATA_EXPORT_PENDING shows the export already on its way', async () => {
    let pending = false;
    await open({
      'GET /profile/data-exports': () =>
        ok(pending ? [preparing] : [{ ...ready, state: 'expired', downloadUrl: null }]),
      'POST /profile/data-exports': () => {
        pending = true;
        return fail(409, 'DATA_EXPORT_PENDING');
      },
    });
    expect(await screen.findByText('Leinkjan til tínar dátur er útgingin.')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Bið um tær aftur' }));
    expect(await screen.findByText('Vit gera tínar dátur klárar…')).toBeTruthy();
  });

  it('a failed load says so and retries', async () => {
    let calls = 0;
    await open({
      'GET /profile/data-exports': () => (++calls === 1 ? fail(500, 'INTERNAL') : ok([])),
    });
    expect(await screen.findByText(/Vit kundu ikki vísa, hvussu tað gongur/)).toBeTruthy();
    await userEvent.click(within(await section()).getByRole('button', { name: /Royn aftur/ }));
    expect(await screen.findByRole('button', { name: 'Bið um tínar dátur' })).toBeTruthy();
  });
});
