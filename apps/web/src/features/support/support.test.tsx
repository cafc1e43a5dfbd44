import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Order } from '@alda/contract/schemas/orders';
import type {
  SupportConversation,
  SupportConversationSummary,
  SupportMessage,
} from '@alda/contract/schemas/support';
import { connection } from '@/shared/api/connectivity';
import { fakeHubConnection } from '@/shared/payments/fake-hub-connection';
import { ownerData } from '@/test/account-fixtures';
import { dialogClosed } from '@/test/dialogs';
import { fail, json, ok, quietPolls, type Handler, type RecordedRequest } from '@/test/fake-api';
import { demoUser } from '@/test/fixtures';
import { renderApp, type TestAppOptions } from '@/test/render';
import { SupportHubClient } from './support-hub-client';

/** The support hub the screens load lazily: a fake connection the test plays the server of. */
let hub: ReturnType<typeof fakeHubConnection>;
vi.mock('./support-hub', () => ({
  createSupportHub: () => new SupportHubClient(hub.connection),
}));

const CONVERSATION = '6f1c2b7e-3d4a-4b8c-9e0f-1a2b3c4d5e01';
const OTHER = '6f1c2b7e-3d4a-4b8c-9e0f-1a2b3c4d5e02';
const PHOTO = '6f1c2b7e-3d4a-4b8c-9e0f-1a2b3c4d5e03';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

let messageCount = 0;
const message = (author: SupportMessage['author'], body: string): SupportMessage => {
  messageCount += 1;
  return {
    id: `6f1c2b7e-3d4a-4b8c-9e0f-${String(messageCount).padStart(12, '0')}`,
    author,
    authorName: author === 'staff' ? 'Sunnvá' : null,
    body,
    attachments: [],
    createdAt: `2026-11-20T10:${String(messageCount % 60).padStart(2, '0')}:00.000Z`,
  };
};

const thread = (overrides: Partial<SupportConversation> = {}): SupportConversation => ({
  id: CONVERSATION,
  subject: { type: 'order', id: 'order-new', reference: '557813' },
  state: 'waiting',
  createdAt: '2026-11-20T10:00:00.000Z',
  closedAt: null,
  reopenUntil: null,
  canRate: false,
  rating: null,
  messages: [
    message('customer', 'Flytingin varð avvíst.'),
    message('staff', 'Vit hava hugt eftir tí.'),
  ],
  ...overrides,
});

const summary = (overrides: Partial<SupportConversationSummary>): SupportConversationSummary => ({
  id: CONVERSATION,
  subject: { type: 'order', id: 'order-new', reference: '557813' },
  state: 'waiting',
  lastMessage: 'Vit hava hugt eftir tí.',
  lastMessageAt: '2026-11-20T10:05:00.000Z',
  unread: 2,
  createdAt: '2026-11-20T10:00:00.000Z',
  ...overrides,
});

const rejectedPort: Order = {
  id: 'order-new',
  kind: 'new_subscription',
  isComplete: false,
  isCancelled: false,
  isMainSubscription: true,
  planId: null,
  phoneNumber: '557813',
  price: null,
  paymentStatus: 'not_required',
  createdAt: '2026-11-19T09:00:00.000Z',
  completedAt: null,
};

/** The app signed in as the demo customer, at `path`, with the support calls of `api`. */
function open(path: string, api: Record<string, Handler> = {}, options: TestAppOptions = {}) {
  return renderApp({
    user: demoUser,
    data: ownerData,
    initialEntries: [path],
    ...options,
    api: {
      ...quietPolls,
      'GET /support/conversations': () => ok({ items: [], unread: 0 }),
      [`POST /support/conversations/${CONVERSATION}/read`]: () => ok(thread()),
      ...api,
    },
  });
}

const threadPath = `/menu/skriva-til-okkum/${CONVERSATION}`;
const bodyOf = (request: RecordedRequest | undefined) => request?.body;

/** A picture of `bytes` bytes, as the phone's picker gives it. */
const picture = (name: string, bytes: number, type = 'image/jpeg') =>
  new File([new Uint8Array(bytes)], name, { type });

beforeAll(async () => {
  // The screens' chunk, loaded once: each test's wait is then for the screen, not the module.
  await import('./support-screens');
}, 20_000);

beforeEach(() => {
  hub = fakeHubConnection();
  vi.spyOn(console, 'info').mockImplementation(() => undefined);
  // jsdom has no object URLs; the screens show photos through them.
  URL.createObjectURL = vi.fn(() => 'blob:photo');
  URL.revokeObjectURL = vi.fn();
});
afterEach(() => vi.restoreAllMocks());

describe('writing to support from the app (issue 46)', () => {
  it('the menu shows "Write to us" with the unread answers, and the list says what each conversation is about and where it stands', async () => {
    await open('/menu', {
      'GET /support/conversations': () =>
        ok({
          items: [
            summary({ unread: 2 }),
            summary({
              id: OTHER,
              subject: { type: 'general', id: null, reference: null },
              state: 'closed',
              lastMessage: 'Takk fyri hjálpina',
              unread: 0,
            }),
          ],
          unread: 2,
        }),
    });
    const main = await screen.findByRole('main');
    const row = await within(main).findByRole('link', { name: /Skriva til okkum.*2 ólisin svar/ });
    expect(within(row).getByText('2').getAttribute('aria-hidden')).toBe('true');
    await userEvent.click(row);

    const first = (await screen.findByText('Um bílegging 55 78 13')).closest('li');
    const second = screen.getByText('Almennur spurningur').closest('li');
    expect(first?.textContent).toContain('Um bílegging 55 78 13');
    expect(first?.textContent).toContain('Bíðar eftir tær');
    expect(first?.textContent).toContain('Vit hava hugt eftir tí.');
    expect(within(first!).getByText('2 ólisin svar').className).toContain('sr-only');
    expect(second?.textContent).toContain('Almennur spurningur');
    expect(second?.textContent).toContain('Latin aftur');
    expect(within(second!).getByRole('link').getAttribute('href')).toBe(
      `/menu/skriva-til-okkum/${OTHER}`,
    );
    // The menu's screen loads as a lazy chunk here first.
  }, 20_000);

  it('with no conversations yet, the list offers to write to us', async () => {
    await open('/menu/skriva-til-okkum');
    expect(
      await screen.findByRole('heading', { name: 'Tú hevur ongar samrøður við okkum enn' }),
    ).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Skriva til okkum' }).getAttribute('href')).toBe(
      '/menu/skriva-til-okkum/nytt',
    );
  });

  it('written from an order, the new conversation names the order and sends it as the subject with an id made on the device, then opens the thread', async () => {
    const started = thread({
      state: 'open',
      messages: [message('customer', 'Flytingin av nummarinum varð avvíst.')],
    });
    const app = await open('/menu/bilegingar/order-new', {
      'GET /orders/order-new': () => ok(rejectedPort),
      'POST /support/conversations': () => json(201, { data: started }),
      [`GET /support/conversations/${CONVERSATION}`]: () => ok(started),
    });
    await userEvent.click(await screen.findByRole('link', { name: 'Skriva til okkum um hetta' }));
    expect(await screen.findByText('Um bílegging 55 78 13')).toBeTruthy();

    await userEvent.type(screen.getByLabelText('Tíni boð'), 'Flytingin av nummarinum varð avvíst.');
    expect(screen.getByText('36 av 2.000 teknum')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Send' }));

    await waitFor(() => expect(app.router.state.location.pathname).toBe(threadPath));
    const [request] = app.api.callsTo('POST /support/conversations');
    expect(bodyOf(request)).toEqual({
      subject: { type: 'order', id: 'order-new' },
      body: 'Flytingin av nummarinum varð avvíst.',
      clientId: expect.stringMatching(UUID),
    });
    expect(await screen.findByText('Flytingin av nummarinum varð avvíst.')).toBeTruthy();
    // Sent, so leaving asks nothing.
    expect(screen.queryByRole('dialog')).toBeNull();
    // The order's screen loads as a lazy chunk here first.
  }, 20_000);

  it('refuses a message over 2,000 characters and a photo over 5 MB before sending anything, saying why in the customer’s language', async () => {
    const app = await open('/menu/skriva-til-okkum/nytt', {}, { locale: 'en' });
    const text = await screen.findByLabelText('Your message');
    fireEvent.change(text, { target: { value: 'a'.repeat(2001) } });
    expect(
      screen.getByText('The message is too long. You can write at most 2,000 characters.'),
    ).toBeTruthy();
    expect(screen.getByText('2,001 of 2,000 characters')).toBeTruthy();
    expect(text.getAttribute('aria-invalid')).toBe('true');
    await userEvent.click(screen.getByRole('button', { name: 'Send' }));

    // A picker that offers every file (the `accept` list is a hint to it, not a rule).
    const user = userEvent.setup({ applyAccept: false });
    await user.upload(screen.getByLabelText('Add a photo'), [
      picture('sim-card.jpg', 5 * 1024 * 1024 + 1),
      picture('notes.pdf', 100, 'application/pdf'),
    ]);
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain(
      '“sim-card.jpg” is larger than 5 MB. Choose a smaller photo.',
    );
    expect(alert.textContent).toContain('“notes.pdf” is not a photo we can take.');
    expect(screen.queryByRole('list', { name: 'Photos' })).toBeNull();
    expect(app.api.requests.filter((r) => r.method === 'POST')).toEqual([]);
  });

  it('sends up to 3 photos with a message: each uploaded as the image itself, then named in attachmentIds', async () => {
    const started = thread({ state: 'open', messages: [message('customer', 'Sí myndina')] });
    const app = await open('/menu/skriva-til-okkum/nytt', {
      'POST /support/attachments': () =>
        json(201, { data: { id: PHOTO, contentType: 'image/jpeg', width: 800, height: 600 } }),
      'POST /support/conversations': () => json(201, { data: started }),
      [`GET /support/conversations/${CONVERSATION}`]: () => ok(started),
    });
    // Some browsers give a HEIC photo no type, so the picker's `accept` cannot match it.
    const user = userEvent.setup({ applyAccept: false });
    await user.upload(await screen.findByLabelText('Legg mynd við'), [
      picture('sim.heic', 2048, ''),
    ]);
    const photos = await screen.findByRole('list', { name: 'Myndir' });
    expect(within(photos).getByRole('button', { name: 'Tak mynd 1 burtur' })).toBeTruthy();
    await userEvent.type(screen.getByLabelText('Tíni boð'), 'Sí myndina');
    await userEvent.click(screen.getByRole('button', { name: 'Send' }));

    await waitFor(() => expect(app.router.state.location.pathname).toBe(threadPath));
    const [upload] = app.api.callsTo('POST /support/attachments');
    // A HEIC photo the browser gave no type goes as image/heic; the server reads the bytes.
    expect(upload?.headers['content-type']).toBe('image/heic');
    expect(bodyOf(app.api.callsTo('POST /support/conversations')[0])).toEqual({
      subject: { type: 'general' },
      body: 'Sí myndina',
      clientId: expect.stringMatching(UUID),
      attachmentIds: [PHOTO],
    });
  });

  it('a message written offline is kept on the device, marked as waiting, and sent once with the same id when the connection is back', async () => {
    let current = thread();
    const app = await open(threadPath, {
      [`GET /support/conversations/${CONVERSATION}`]: () => ok(current),
      [`POST /support/conversations/${CONVERSATION}/messages`]: (request) => {
        const { body } = request.body as { body: string };
        current = thread({
          state: 'open',
          messages: [...current.messages, message('customer', body)],
        });
        return ok(current);
      },
    });
    expect(await screen.findByText('Vit hava hugt eftir tí.')).toBeTruthy();

    act(() => connection.set(false));
    await userEvent.type(screen.getByLabelText('Títt svar'), 'Eg royni aftur í morgin.');
    await userEvent.click(screen.getByRole('button', { name: 'Send' }));

    expect(
      await screen.findByText(
        'Bíðar eftir at verða sent – fer, so skjótt sum tú aftur hevur samband.',
      ),
    ).toBeTruthy();
    expect(screen.getByText('Eg royni aftur í morgin.')).toBeTruthy();
    expect(app.api.callsTo(`POST /support/conversations/${CONVERSATION}/messages`)).toEqual([]);
    const kept = JSON.parse(window.localStorage.getItem(`alda.support.outbox.${demoUser.id}`)!);
    const [clientId] = Object.keys(kept as object);
    expect(clientId).toMatch(UUID);

    act(() => connection.set(true));
    await waitFor(() =>
      expect(
        screen.queryByText(
          'Bíðar eftir at verða sent – fer, so skjótt sum tú aftur hevur samband.',
        ),
      ).toBeNull(),
    );
    const sent = app.api.callsTo(`POST /support/conversations/${CONVERSATION}/messages`);
    expect(sent.map(bodyOf)).toEqual([{ body: 'Eg royni aftur í morgin.', clientId }]);
    expect(screen.getByText('Eg royni aftur í morgin.')).toBeTruthy();
    expect(window.localStorage.getItem(`alda.support.outbox.${demoUser.id}`)).toBeNull();
  });

  it('a message kept offline goes when the connection is back, even with the customer elsewhere in the app', async () => {
    const app = await open(threadPath, {
      [`GET /support/conversations/${CONVERSATION}`]: () => ok(thread()),
      [`POST /support/conversations/${CONVERSATION}/messages`]: () => ok(thread()),
    });
    expect(await screen.findByText('Vit hava hugt eftir tí.')).toBeTruthy();
    act(() => connection.set(false));
    await userEvent.type(screen.getByLabelText('Títt svar'), 'Send meg seinni.');
    await userEvent.click(screen.getByRole('button', { name: 'Send' }));
    await screen.findByText(
      'Bíðar eftir at verða sent – fer, so skjótt sum tú aftur hevur samband.',
    );

    await act(() => app.router.navigate('/menu'));
    await screen.findByRole('link', { name: /Skriva til okkum/ });
    act(() => connection.set(true));
    await waitFor(() =>
      expect(
        app.api.callsTo(`POST /support/conversations/${CONVERSATION}/messages`).map(bodyOf),
      ).toEqual([{ body: 'Send meg seinni.', clientId: expect.stringMatching(UUID) as string }]),
    );
    await waitFor(() =>
      expect(window.localStorage.getItem(`alda.support.outbox.${demoUser.id}`)).toBeNull(),
    );
  });

  it('while the desk has the turn, the thread says what happens next; once answered it does not', async () => {
    await open(threadPath, {
      [`GET /support/conversations/${CONVERSATION}`]: () => ok(thread({ state: 'open' })),
    });
    expect(await screen.findByText(/Vit svara vanliga innan ein arbeiðsdag/)).toBeTruthy();
  });

  it('an answered thread (the customer’s turn) promises nothing', async () => {
    await open(threadPath, {
      [`GET /support/conversations/${CONVERSATION}`]: () => ok(thread({ state: 'waiting' })),
    });
    expect(await screen.findByText('Vit hava hugt eftir tí.')).toBeTruthy();
    expect(screen.queryByText(/Vit svara vanliga innan ein arbeiðsdag/)).toBeNull();
  });

  it('shows a web address in an answer as a safe link and markup as plain text', async () => {
    await open(threadPath, {
      [`GET /support/conversations/${CONVERSATION}`]: () =>
        ok(
          thread({
            messages: [
              message(
                'staff',
                'Les meira á https://alda.fo/hjalp?evni=flyting. <b>x</b> javascript:alert(1)',
              ),
            ],
          }),
        ),
    });
    const link = await screen.findByRole('link', { name: 'https://alda.fo/hjalp?evni=flyting' });
    expect(link.getAttribute('href')).toBe('https://alda.fo/hjalp?evni=flyting');
    expect(link.getAttribute('target')).toBe('_blank');
    expect(link.getAttribute('rel')).toBe('noopener noreferrer');
    const answer = screen.getByRole('article', { name: 'Sunnvá' });
    expect(answer.textContent).toContain('<b>x</b> javascript:alert(1)');
    expect(answer.querySelector('b')).toBeNull();
    expect(within(answer).getAllByRole('link')).toHaveLength(1);
  });

  it('marks the answers read when the thread opens, and a new answer that arrives live while it is open', async () => {
    let current = thread();
    const app = await open(threadPath, {
      [`GET /support/conversations/${CONVERSATION}`]: () => ok(current),
    });
    expect(await screen.findByText('Vit hava hugt eftir tí.')).toBeTruthy();
    await waitFor(() =>
      expect(app.api.callsTo(`POST /support/conversations/${CONVERSATION}/read`)).toHaveLength(1),
    );
    await waitFor(() => expect(hub.listeners('SupportUpdated')).toBe(1));

    current = thread({ messages: [...current.messages, message('staff', 'Nú virkar tað.')] });
    act(() => hub.emit('SupportUpdated', { conversationId: CONVERSATION }));

    expect(await screen.findByText('Nú virkar tað.')).toBeTruthy();
    await waitFor(() =>
      expect(app.api.callsTo(`POST /support/conversations/${CONVERSATION}/read`)).toHaveLength(2),
    );
  });

  it('without the live connection, an open thread reads the conversation again every minute', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    hub = fakeHubConnection({ startFails: true });
    const app = await open(threadPath, {
      [`GET /support/conversations/${CONVERSATION}`]: () => ok(thread()),
    });
    expect(await screen.findByText('Vit hava hugt eftir tí.')).toBeTruthy();
    const reads = app.api.callsTo(`GET /support/conversations/${CONVERSATION}`).length;
    await act(() => vi.advanceTimersByTimeAsync(60_000));
    expect(app.api.callsTo(`GET /support/conversations/${CONVERSATION}`).length).toBe(reads + 1);
  });

  it('closes the conversation after asking, then takes a rating of stars with a comment and thanks', async () => {
    const closed = thread({
      state: 'closed',
      closedAt: '2026-11-21T10:00:00.000Z',
      reopenUntil: '2099-12-05T10:00:00.000Z',
      canRate: true,
    });
    const app = await open(threadPath, {
      [`GET /support/conversations/${CONVERSATION}`]: () => ok(thread()),
      [`POST /support/conversations/${CONVERSATION}/close`]: () => ok(closed),
      [`POST /support/conversations/${CONVERSATION}/rating`]: (request) => {
        const { score, comment } = request.body as { score: number; comment: string | null };
        return ok({ ...closed, canRate: false, rating: { score, comment } });
      },
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Lat samrøðuna aftur' }));
    const dialog = await screen.findByRole('dialog', { name: 'Lat samrøðuna aftur?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Lat aftur' }));
    await dialogClosed();
    expect(app.api.callsTo(`POST /support/conversations/${CONVERSATION}/close`)).toHaveLength(1);
    expect(
      await screen.findByText(
        'Latin aftur – skrivar tú aftur í seinasta lagi 05.12.2099, verður samrøðan latin upp aftur.',
      ),
    ).toBeTruthy();

    const stars = screen.getByRole('group', { name: 'Hvussu væl hjálpti svarið tær?' });
    expect(within(stars).getAllByRole('radio')).toHaveLength(5);
    await userEvent.click(within(stars).getByRole('radio', { name: '4 stjørnur' }));
    await userEvent.type(screen.getByLabelText('Viðmerking (um tú vilt)'), 'Skjótt og greitt');
    await userEvent.click(screen.getByRole('button', { name: 'Send metingina' }));

    expect(await screen.findByText('Takk fyri metingina!')).toBeTruthy();
    expect(screen.getByText('Tú gavst 4 av 5 stjørnum.')).toBeTruthy();
    expect(
      bodyOf(app.api.callsTo(`POST /support/conversations/${CONVERSATION}/rating`)[0]),
    ).toEqual({ score: 4, comment: 'Skjótt og greitt' });
  });

  it('a conversation closed too long ago cannot be written in: it offers a new one about the same order', async () => {
    await open(threadPath, {
      [`GET /support/conversations/${CONVERSATION}`]: () =>
        ok(
          thread({
            state: 'closed',
            closedAt: '2026-01-01T10:00:00.000Z',
            reopenUntil: '2026-01-15T10:00:00.000Z',
          }),
        ),
    });
    expect(
      await screen.findByText(
        'Henda samrøðan er latin aftur. Hevur tú meira á hjarta, so byrja eina nýggja.',
      ),
    ).toBeTruthy();
    expect(screen.queryByLabelText('Títt svar')).toBeNull();
    expect(
      screen.getByRole('link', { name: 'Byrja eina nýggja samrøðu' }).getAttribute('href'),
    ).toBe('/menu/skriva-til-okkum/nytt?subject=order&id=order-new&ref=557813');
  });

  it('writing again after the 14 days offers a new conversation about the same order, taking the text along', async () => {
    const app = await open(threadPath, {
      [`GET /support/conversations/${CONVERSATION}`]: () =>
        ok(
          thread({
            state: 'closed',
            closedAt: '2026-11-21T10:00:00.000Z',
            reopenUntil: '2099-12-05T10:00:00.000Z',
          }),
        ),
      [`POST /support/conversations/${CONVERSATION}/messages`]: () =>
        fail(409, 'SUPPORT_CONVERSATION_CLOSED'),
    });
    await userEvent.type(await screen.findByLabelText('Títt svar'), 'Tað virkar ikki enn.');
    await userEvent.click(screen.getByRole('button', { name: 'Send' }));

    await userEvent.click(await screen.findByRole('link', { name: 'Byrja eina nýggja samrøðu' }));
    await waitFor(() =>
      expect(app.router.state.location.pathname).toBe('/menu/skriva-til-okkum/nytt'),
    );
    // The router's location moves before React has drawn the new screen: wait for the screen.
    expect(await screen.findByText('Um bílegging 55 78 13')).toBeTruthy();
    expect(((await screen.findByLabelText('Tíni boð')) as HTMLTextAreaElement).value).toBe(
      'Tað virkar ikki enn.',
    );
  });

  it('a failed load says so and can be tried again', async () => {
    await open(threadPath, {
      [`GET /support/conversations/${CONVERSATION}`]: () => fail(503, 'SERVICE_UNAVAILABLE'),
    });
    expect(await screen.findByText('Vit kundu ikki heinta samrøðuna.')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Royn aftur' })).toBeTruthy();
  });
});
