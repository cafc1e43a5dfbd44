import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type {
  StaffContentVersion,
  StaffContentVersionSummary,
} from '@alda/contract/schemas/staff-content';
import { aSession, renderConsole, type Call, type Handler } from '@/test/render';

const BASE = '/api/staff/content/terms/versions';
const LIVE_ID = '1a2b3c4d-0001-4a5b-8c6d-7e8f9a0b1c2d';
const DRAFT_ID = '1a2b3c4d-0002-4a5b-8c6d-7e8f9a0b1c2d';

const aVersion = (over: Partial<StaffContentVersion> = {}): StaffContentVersion => ({
  id: LIVE_ID,
  slug: 'terms',
  version: 1,
  titleFo: 'Treytir',
  titleEn: 'Terms',
  markdownFo: '# Treytir fyri mobiltænastur\n\nGomlu treytirnar.\n',
  markdownEn: '# Terms of mobile service\n\nThe old terms.\n',
  state: 'live',
  createdBy: 'system',
  createdAt: '2026-01-05T09:00:00.000Z',
  publishedBy: 'system',
  publishedAt: '2026-01-05T09:00:00.000Z',
  ...over,
});

const summary = ({ markdownFo: _fo, markdownEn: _en, ...rest }: StaffContentVersion) =>
  rest satisfies StaffContentVersionSummary;

/** A fake API over `versions` (newest first): list, one, new draft, edit, publish. */
function api(versions: StaffContentVersion[]): Handler {
  return (call) => {
    if (call.method === 'GET' && call.path === BASE)
      return { status: 200, body: { data: { slug: 'terms', items: versions.map(summary) } } };
    const one = new RegExp(`^${BASE}/([^/]+)$`).exec(call.path);
    if (call.method === 'GET' && one) {
      const found = versions.find((v) => v.id === one[1]);
      return found ? { status: 200, body: { data: found } } : undefined;
    }
    if (call.method === 'POST' && call.path === BASE) {
      const created = aVersion({
        ...(call.body as object),
        id: '1a2b3c4d-0009-4a5b-8c6d-7e8f9a0b1c2d',
        version: (versions[0]?.version ?? 0) + 1,
        state: 'draft',
        createdBy: 'staff:content@alda.fo',
        publishedAt: null,
        publishedBy: null,
      });
      versions.unshift(created);
      return { status: 201, body: { data: created } };
    }
    const publish = new RegExp(`^${BASE}/([^/]+)/publish$`).exec(call.path);
    if (call.method === 'POST' && publish) {
      const found = versions.find((v) => v.id === publish[1]);
      if (!found) return undefined;
      for (const v of versions) if (v.state === 'live') v.state = 'previous';
      Object.assign(found, {
        state: 'live',
        publishedAt: '2026-06-15T12:00:00.000Z',
        publishedBy: 'staff:content@alda.fo',
      });
      return { status: 200, body: { data: found } };
    }
    return undefined;
  };
}

const posts = (calls: Call[]) => calls.filter((c) => c.method === 'POST');

describe('the content screen (issue 31 "Content": versions, markdown, preview, publish)', () => {
  it('opens the latest version as a new draft, and the preview renders what is typed as the app does', async () => {
    const user = userEvent.setup();
    renderConsole({ path: '/content', session: aSession('content'), handler: api([aVersion()]) });
    expect(await screen.findByRole('heading', { level: 1, name: 'Innihald' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Treytir' }).getAttribute('aria-current')).toBe('page');
    const table = await screen.findByRole('table', { name: 'Útgávur av Treytir, nýggjastu fyrst' });
    expect(within(table).getAllByRole('row')[1]?.textContent).toContain('Í appini');

    // Prefilled from version 1.
    const markdown = await screen.findByLabelText('Tekstur í markdown: Føroyskt');
    expect((markdown as HTMLTextAreaElement).value).toBe(
      '# Treytir fyri mobiltænastur\n\nGomlu treytirnar.\n',
    );
    const preview = screen.getByTestId('content-preview');
    expect(within(preview).getByRole('heading', { level: 2 }).textContent).toBe(
      'Treytir fyri mobiltænastur',
    );

    await user.clear(markdown);
    await user.type(markdown, '# Nýggjar treytir{enter}{enter}- Binditíð: 6 mánaðir');
    expect(within(preview).getByRole('heading', { level: 2 }).textContent).toBe('Nýggjar treytir');
    expect(within(preview).getByRole('listitem').textContent).toBe('Binditíð: 6 mánaðir');
    expect(within(preview).getByText(/^Seinast dagført /)).toBeTruthy();

    // The English text, with the app's English words.
    await user.click(screen.getByRole('button', { name: 'Enskt' }));
    expect(within(preview).getByRole('heading', { level: 2 }).textContent).toBe(
      'Terms of mobile service',
    );
    expect(within(preview).getByText(/^Last updated /)).toBeTruthy();
  });

  it('saves a new draft from the editor and opens it', async () => {
    const user = userEvent.setup();
    const { calls } = renderConsole({
      path: '/content/terms',
      session: aSession('content'),
      handler: api([aVersion()]),
    });
    const markdown = await screen.findByLabelText('Tekstur í markdown: Føroyskt');
    await user.type(markdown, '\nNýtt stykki.');
    await user.click(screen.getByRole('button', { name: 'Goym sum nýtt uppskot' }));
    await screen.findByText('Uppskotið er goymt sum útgáva 2.');
    expect(posts(calls).map((c) => [c.path, c.body])).toEqual([
      [
        BASE,
        {
          titleFo: 'Treytir',
          titleEn: 'Terms',
          markdownFo: '# Treytir fyri mobiltænastur\n\nGomlu treytirnar.\n\nNýtt stykki.',
          markdownEn: '# Terms of mobile service\n\nThe old terms.\n',
        },
      ],
    ]);
    expect(
      await screen.findByRole('heading', { level: 2, name: 'Uppskot: útgáva 2' }),
    ).toBeTruthy();
  });

  it('publishes only after confirmation: Cancel sends nothing, Publish sends the reason', async () => {
    const user = userEvent.setup();
    const draft = aVersion({
      id: DRAFT_ID,
      version: 2,
      state: 'draft',
      markdownFo: '# Nýggjar treytir\n',
      publishedAt: null,
      publishedBy: null,
      createdBy: 'staff:content@alda.fo',
    });
    const { calls } = renderConsole({
      path: '/content/terms',
      session: aSession('content'),
      handler: api([draft, aVersion()]),
    });
    const editor = await screen.findByRole('region', { name: 'Uppskot: útgáva 2' });

    await user.click(within(editor).getByRole('button', { name: 'Útgev útgávu 2' }));
    let dialog = screen.getByRole('dialog', { name: 'Útgev útgávu 2: Treytir?' });
    expect(within(dialog).getByText(/Appin vísir hana beinanvegin/)).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Angra' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(posts(calls)).toHaveLength(0);

    // From the table's row as well.
    const table = screen.getByRole('table');
    await user.click(within(table).getByRole('button', { name: 'Útgev útgávu 2' }));
    dialog = screen.getByRole('dialog', { name: 'Útgev útgávu 2: Treytir?' });
    await user.type(within(dialog).getByLabelText('Orsøk (valfrítt)'), 'Mál 4411');
    expect(posts(calls)).toHaveLength(0);
    await user.click(within(dialog).getByRole('button', { name: 'Útgev' }));

    await screen.findByText('Útgáva 2 (Treytir) er útgivin. Appin vísir hana nú.');
    expect(posts(calls).map((c) => [c.path, c.body])).toEqual([
      [`${BASE}/${DRAFT_ID}/publish`, { reason: 'Mál 4411' }],
    ]);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('asks to save an edited draft before it can be published', async () => {
    const user = userEvent.setup();
    const draft = aVersion({ id: DRAFT_ID, version: 2, state: 'draft', publishedAt: null });
    renderConsole({
      path: '/content/terms',
      session: aSession('content'),
      handler: api([draft, aVersion()]),
    });
    const markdown = await screen.findByLabelText('Tekstur í markdown: Føroyskt');
    await user.type(markdown, 'x');
    const editor = screen.getByRole('region', { name: 'Uppskot: útgáva 2' });
    const publish = within(editor).getByRole('button', { name: 'Útgev útgávu 2' });
    expect((publish as HTMLButtonElement).disabled).toBe(true);
    expect(
      screen.getByText('Broytingarnar eru ikki goymdar. Goym tær, áðrenn tú útgevur.'),
    ).toBeTruthy();
  });

  it('refuses an empty text without calling the API', async () => {
    const user = userEvent.setup();
    const { calls } = renderConsole({
      path: '/content/terms',
      session: aSession('content'),
      handler: api([aVersion()]),
    });
    const markdown = await screen.findByLabelText('Tekstur í markdown: Føroyskt');
    await user.clear(markdown);
    await user.click(screen.getByRole('button', { name: 'Goym sum nýtt uppskot' }));
    expect(screen.getByText('Skriva hetta.')).toBeTruthy();
    expect(posts(calls)).toHaveLength(0);
  });
});
