import { describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ACTIONS_PAGE_SIZE, type Action } from '@alda/contract/schemas/actions';
import { fail, ok, type RecordedRequest, quietPolls } from '@/test/fake-api';
import { demoUser } from '@/test/fixtures';
import { renderApp } from '@/test/render';

const entry = (n: number): Action => ({
  id: `a-${n}`,
  type: 'data_given',
  text: `Tú gavst data nr. ${n}`,
  phoneNumber: '551122',
  actor: null,
  dataAmount: 1024,
  amount: null,
  createdAt: '2026-11-20T10:00:00.000Z',
});

/** 25 entries: a full page of 20, then 5. */
const all = Array.from({ length: 25 }, (_, i) => entry(i + 1));

const pageOf = (request: RecordedRequest) => {
  const url = new URL(request.url, 'http://x');
  const page = Number(url.searchParams.get('page'));
  const perPage = Number(url.searchParams.get('perPage'));
  return ok(all.slice(page * perPage, (page + 1) * perPage));
};

describe('activity log /menu/virksemi', () => {
  it('is reached from the menu and shows the log a page at a time', async () => {
    const app = await renderApp({
      user: demoUser,
      initialEntries: ['/menu'],
      api: { ...quietPolls, 'GET /actions': pageOf },
    });
    await userEvent.click(await screen.findByRole('link', { name: 'Virksemi' }));
    expect(await screen.findByText('Tú gavst data nr. 1')).toBeTruthy();
    const list = () => within(screen.getByRole('main')).getAllByRole('listitem');
    expect(list()).toHaveLength(ACTIONS_PAGE_SIZE);
    expect(list()[0]?.textContent).toContain('551122 · 1 GB');
    await userEvent.click(screen.getByRole('button', { name: 'Vís eldri' }));
    expect(await screen.findByText('Tú gavst data nr. 25')).toBeTruthy();
    expect(list()).toHaveLength(25);
    expect(screen.queryByRole('button', { name: 'Vís eldri' })).toBeNull();
    expect(app.api.callsTo('GET /actions').map((r) => r.url)).toEqual([
      expect.stringContaining('page=0&perPage=20'),
      expect.stringContaining('page=1&perPage=20'),
    ]);
  });

  it('has its own message when the log cannot be fetched', async () => {
    await renderApp({
      user: demoUser,
      locale: 'en',
      initialEntries: ['/menu/virksemi'],
      api: { ...quietPolls, 'GET /actions': () => fail(500, 'INTERNAL') },
    });
    expect(await screen.findByText('We could not fetch the activity log.')).toBeTruthy();
  });
});
