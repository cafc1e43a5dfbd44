import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { aSession, renderConsole } from '@/test/render';
import {
  aContext,
  aConversation,
  callsTo,
  COLLEAGUE_ID,
  CONVERSATION_ID,
  IMAGE_ID,
  ME_ID,
  supportApi,
} from './fixtures';

const BASE = `/api/staff/support/conversations/${CONVERSATION_ID}`;
const PATH = `/support/${CONVERSATION_ID}`;

/** The composer's form. */
const composer = () => screen.getByRole('form', { name: 'Skriva í samrøðuna' });

afterEach(() => {
  Reflect.deleteProperty(URL, 'createObjectURL');
  Reflect.deleteProperty(URL, 'revokeObjectURL');
});

describe('a support conversation (issue 46 "The desk, in the console")', () => {
  it('issue 46: shows text as text — `<b>x</b>` is not HTML — and makes only http(s) links clickable', async () => {
    renderConsole({ path: PATH, session: aSession('support'), handler: supportApi() });
    const thread = await screen.findByRole('list', { name: 'Boð í samrøðuni, tey eldstu fyrst' });
    const message = within(thread).getByRole('article', { name: 'Boð frá kundanum' });
    expect(message.textContent).toContain('<b>x</b>');
    expect(message.querySelector('b')).toBeNull();
    const link = within(message).getByRole('link', { name: 'https://alda.fo/help' });
    expect(link.getAttribute('href')).toBe('https://alda.fo/help');
    expect(link.getAttribute('target')).toBe('_blank');
    expect(link.getAttribute('rel')).toContain('noopener');
    // The sentence's full stop is not part of the address.
    expect(message.textContent).toContain('https://alda.fo/help.');
  });

  it('issue 46: answering the customer sends {body, internal: false} and shows the answer', async () => {
    const user = userEvent.setup();
    const handler = supportApi();
    const { calls } = renderConsole({ path: PATH, session: aSession('support'), handler });
    await screen.findByRole('heading', { level: 1, name: 'Guðrun Poulsen' });

    await user.type(
      within(composer()).getByLabelText('Títt svar'),
      'Vit hyggja eftir tí beinanvegin.',
    );
    await user.click(within(composer()).getByRole('button', { name: 'Send svar' }));

    await screen.findByText('Svarið er sent kundanum.');
    expect(callsTo(calls, 'POST', `${BASE}/messages`).map((c) => c.body)).toEqual([
      { body: 'Vit hyggja eftir tí beinanvegin.', internal: false },
    ]);
    const answer = screen.getByRole('article', { name: 'Svar frá kundatænastuni' });
    expect(answer.textContent).toContain('Vit hyggja eftir tí beinanvegin.');
    expect(answer.textContent).toContain('Sólrun Joensen (kundatænastan)');
    expect(within(composer()).getByLabelText<HTMLTextAreaElement>('Títt svar').value).toBe('');
  });

  it('issue 46: an internal note sends internal: true and is labelled as one the customer does not see', async () => {
    const user = userEvent.setup();
    const { calls } = renderConsole({
      path: PATH,
      session: aSession('support'),
      handler: supportApi(),
    });
    await screen.findByRole('heading', { level: 1, name: 'Guðrun Poulsen' });

    await user.click(within(composer()).getByRole('radio', { name: 'Innanhýsis viðmerking' }));
    const field = within(composer()).getByLabelText('Tín viðmerking');
    expect(
      within(composer()).getByText('Bert fyri starvsfólk: kundin sær ikki hetta.'),
    ).toBeTruthy();
    await user.type(field, 'Ringdi til Føroya Tele um flytingina.');
    await user.click(within(composer()).getByRole('button', { name: 'Goym viðmerking' }));

    await screen.findByText('Viðmerkingin er goymd. Kundin sær hana ikki.');
    expect(callsTo(calls, 'POST', `${BASE}/messages`).map((c) => c.body)).toEqual([
      { body: 'Ringdi til Føroya Tele um flytingina.', internal: true },
    ]);
    const note = screen.getByRole('article', { name: 'Innanhýsis viðmerking' });
    expect(within(note).getByText('Innanhýsis viðmerking — kundin sær ikki hetta')).toBeTruthy();
    expect(note.textContent).toContain('Ringdi til Føroya Tele um flytingina.');
  });

  it('issue 46: a saved reply goes into the composer in English for an English-speaking customer', async () => {
    const user = userEvent.setup();
    const { calls } = renderConsole({
      path: PATH,
      session: aSession('support'),
      handler: supportApi({ context: aContext() }),
    });
    const picker = await within(
      await screen.findByRole('form', { name: 'Skriva í samrøðuna' }),
    ).findByLabelText('Goymt svar');
    // Titles in the console's language; the text in the customer's.
    await waitFor(() =>
      expect(
        within(composer()).getByText('Verður sett inn á enskum, málinum hjá kundanum.'),
      ).toBeTruthy(),
    );
    await user.selectOptions(picker, 'Avvíst flyting');
    await user.click(within(composer()).getByRole('button', { name: 'Set inn' }));

    const field = within(composer()).getByLabelText<HTMLTextAreaElement>('Títt svar');
    expect(field.value).toBe('Check the SIM card number and try again in the app.');
    // It can be changed before it is sent.
    await user.type(field, ' Best regards, Sólrun');
    await user.click(within(composer()).getByRole('button', { name: 'Send svar' }));
    await screen.findByText('Svarið er sent kundanum.');
    expect(callsTo(calls, 'POST', `${BASE}/messages`).map((c) => c.body)).toEqual([
      {
        body: 'Check the SIM card number and try again in the app. Best regards, Sólrun',
        internal: false,
      },
    ]);
  });

  it('issue 46: a saved reply is in Faroese when the customer is anonymised', async () => {
    const user = userEvent.setup();
    renderConsole({
      path: PATH,
      session: aSession('support'),
      handler: supportApi({
        conversation: aConversation({ customerName: null, customerId: null }),
        context: aContext({ customer: null, lines: [], openOrders: [], payments: [] }),
      }),
    });
    expect(await screen.findByRole('heading', { level: 1, name: 'Navnleysur kundi' })).toBeTruthy();
    await screen.findByText(/Kundin hevur strikað kontuna/);
    const picker = await within(composer()).findByLabelText('Goymt svar');
    await user.selectOptions(picker, 'Avvíst flyting');
    await user.click(within(composer()).getByRole('button', { name: 'Set inn' }));
    expect(within(composer()).getByLabelText<HTMLTextAreaElement>('Títt svar').value).toBe(
      'Kanna SIM-kortnummarið og royn aftur í appini.',
    );
  });

  it('issue 46: "Assign to me" sends the signed-in staff member’s id; a colleague can be chosen', async () => {
    const user = userEvent.setup();
    const { calls } = renderConsole({
      path: PATH,
      session: aSession('support'),
      handler: supportApi(),
    });
    const standing = await screen.findByRole('region', { name: 'Støðan á samrøðuni' });
    expect(within(standing).getByText('Eingin hevur tikið hana')).toBeTruthy();
    expect(within(standing).getByText('Seinkað')).toBeTruthy();

    await user.click(within(standing).getByRole('button', { name: 'Tak samrøðuna' }));
    await within(standing).findByText('Samrøðan er nú hjá tær.');
    expect(callsTo(calls, 'POST', `${BASE}/assign`).map((c) => c.body)).toEqual([
      { staffUserId: ME_ID },
    ]);
    expect(within(standing).getByText('Hjá tær')).toBeTruthy();
    expect(within(standing).queryByRole('button', { name: 'Tak samrøðuna' })).toBeNull();

    await user.selectOptions(within(standing).getByLabelText('Gev starvsfelaga'), 'Jógvan Hansen');
    await user.click(within(standing).getByRole('button', { name: 'Gev' }));
    await within(standing).findByText('Samrøðan er nú hjá Jógvan Hansen.');
    expect(callsTo(calls, 'POST', `${BASE}/assign`).map((c) => c.body)).toEqual([
      { staffUserId: ME_ID },
      { staffUserId: COLLEAGUE_ID },
    ]);
  });

  it('issue 46: closing asks first, then closes', async () => {
    const user = userEvent.setup();
    const { calls } = renderConsole({
      path: PATH,
      session: aSession('support'),
      handler: supportApi(),
    });
    const standing = await screen.findByRole('region', { name: 'Støðan á samrøðuni' });
    await user.click(within(standing).getByRole('button', { name: 'Lat samrøðuna aftur' }));
    const dialog = screen.getByRole('dialog', { name: 'Lat samrøðuna aftur?' });
    await user.click(within(dialog).getByRole('button', { name: 'Angra' }));
    expect(callsTo(calls, 'POST', `${BASE}/close`)).toHaveLength(0);

    await user.click(within(standing).getByRole('button', { name: 'Lat samrøðuna aftur' }));
    await user.click(
      within(screen.getByRole('dialog', { name: 'Lat samrøðuna aftur?' })).getByRole('button', {
        name: 'Lat aftur',
      }),
    );
    await within(standing).findByText('Samrøðan er latin aftur.');
    expect(callsTo(calls, 'POST', `${BASE}/close`)).toHaveLength(1);
    expect(within(standing).getByText('Latin aftur 15.06.2026 15:00')).toBeTruthy();
    expect(within(standing).queryByRole('button', { name: 'Lat samrøðuna aftur' })).toBeNull();
  });

  it('issue 46: beside the thread, the customer with the order the conversation is about marked and payments in kr.', async () => {
    const { calls } = renderConsole({
      path: PATH,
      session: aSession('support'),
      handler: supportApi(),
    });
    const panel = await screen.findByRole('complementary', { name: 'Kundin' });
    await within(panel).findByText('gudrun@demo.alda.fo');
    expect(within(panel).getByText('Samrøðan snýr seg um: Bílegging 55 78 13')).toBeTruthy();
    expect(within(panel).getByText('Enskt')).toBeTruthy();

    const orders = within(panel).getByRole('region', { name: 'Opnar bíleggingar' });
    const [subject, other] = within(orders).getAllByRole('listitem') as [HTMLElement, HTMLElement];
    expect(within(subject).getByText('Samrøðan snýr seg um hetta')).toBeTruthy();
    expect(within(subject).getByText('Flytingin avvíst')).toBeTruthy();
    expect(within(other).queryByText('Samrøðan snýr seg um hetta')).toBeNull();

    const payments = within(panel).getByRole('region', { name: 'Seinastu gjaldingar' });
    expect(within(payments).getByText('39,00 kr.')).toBeTruthy();
    // Opened once (each read is audited), with no reason to type.
    expect(callsTo(calls, 'GET', `${BASE}/context`)).toHaveLength(1);
    expect(within(panel).queryByRole('textbox')).toBeNull();
  });

  it('issue 46: shows an image of a message as a thumbnail fetched with the staff token', async () => {
    const createObjectURL = vi.fn(() => 'blob:console/1');
    Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() });
    const fetchImage = vi.fn(
      async () =>
        new Response(new Blob([new Uint8Array([0xff, 0xd8, 0xff])], { type: 'image/jpeg' }), {
          status: 200,
          headers: { 'content-type': 'image/jpeg' },
        }),
    );
    vi.stubGlobal('fetch', fetchImage);
    const conversation = aConversation();
    renderConsole({
      path: PATH,
      session: aSession('support'),
      handler: supportApi({
        conversation: {
          ...conversation,
          messages: conversation.messages.map((m) => ({
            ...m,
            attachments: [{ id: IMAGE_ID, contentType: 'image/jpeg', width: 1200, height: 900 }],
          })),
        },
      }),
    });
    const image = await screen.findByRole('img', { name: 'Mynd 1 í boðunum' });
    await waitFor(() => expect(image.getAttribute('src')).toBe('blob:console/1'));
    expect(fetchImage).toHaveBeenCalledWith(
      `/api/staff/support/attachments/${IMAGE_ID}`,
      expect.objectContaining({
        headers: expect.objectContaining({ authorization: 'Bearer alda_staff_test-token' }),
      }),
    );
  });
});
