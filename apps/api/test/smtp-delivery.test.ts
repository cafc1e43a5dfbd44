import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { SMTPServer, type SMTPServerAddress } from 'smtp-server';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SMTP_MAX_ATTEMPTS } from '../src/adapters/email/smtp';
import { users } from '../src/db/schema/users';
import { passwordResetEmail } from '../src/modules/auth/messages';
import { seedDemoData } from '../src/seed/seed';
import { createTestApp, demoUser, LogCapture, type TestApp, waitFor } from './helper';
import { findPart, parseMime } from './mime';

/*
 * Issue 43 §4: e-mail through the SMTP adapter (nodemailer) to a real SMTP server in the process
 * (`smtp-server`, the server behind nodemailer's own tests). A Faroese subject travels as an RFC
 * 2047 encoded word and arrives, with the Faroese body, exactly as the product wrote it; a
 * recipient the server refuses (550) is logged with its SMTP code — never the address — counted,
 * and not tried again; a server that defers (451) is tried again a bounded number of times.
 */

interface Received {
  to: string[];
  raw: string;
}

/** What the server answers at RCPT TO, by mailbox (everything else is accepted). */
const REFUSED = 'no-such-mailbox@alda.test';
const DEFERRED_TWICE = 'greylisted@alda.test';
const ALWAYS_DEFERRED = 'full-mailbox@alda.test';

/** Every letter of Faroese that is not in English. */
const FAROESE_LETTERS = ['ð', 'á', 'ø', 'æ', 'í', 'ó', 'ú', 'ý'];

describe('e-mail over SMTP to a real server (issue 43 §4)', () => {
  const inbox: Received[] = [];
  const rcptAttempts = new Map<string, number>();
  const logs = new LogCapture();
  let server: SMTPServer;
  let t: TestApp;

  /** The server's RCPT TO answer, as real ones word it (the reply quotes the address). */
  function onRcptTo(
    address: SMTPServerAddress,
    _session: unknown,
    callback: (error?: Error | null) => void,
  ) {
    const mailbox = address.address;
    const attempt = (rcptAttempts.get(mailbox) ?? 0) + 1;
    rcptAttempts.set(mailbox, attempt);
    const reply = (code: number, text: string) =>
      callback(Object.assign(new Error(`${text} <${mailbox}>`), { responseCode: code }));
    if (mailbox === REFUSED) return reply(550, '5.1.1 Recipient address rejected: User unknown');
    if (mailbox === ALWAYS_DEFERRED || (mailbox === DEFERRED_TWICE && attempt <= 2))
      return reply(451, '4.2.2 Mailbox temporarily unavailable, try again later');
    callback();
  }

  beforeAll(async () => {
    server = new SMTPServer({
      // A plain local relay: no TLS certificate to trust, no login.
      disabledCommands: ['STARTTLS', 'AUTH'],
      logger: false,
      onRcptTo,
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          inbox.push({
            to: session.envelope.rcptTo.map((r) => r.address),
            raw: Buffer.concat(chunks).toString('utf8'),
          });
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.server.address() as AddressInfo;
    t = await createTestApp(
      {
        SMTP_URL: `smtp://127.0.0.1:${port}`,
        MAIL_FROM: 'Alda <no-reply@alda.fo>',
        APP_URL: 'https://minsida.alda.fo',
        // Retries after 5 ms and 20 ms instead of 2 s and 8 s.
        SMTP_RETRY_DELAY_MS: '5',
        LOG_LEVEL: 'info',
      },
      { logStream: logs },
    );
    await seedDemoData(t.app.db);
  });
  afterAll(async () => {
    await t.close();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  beforeEach(() => {
    logs.lines.length = 0;
  });

  /** Gives a demo customer this address and asks for a password reset, as the customer would. */
  async function resetFor(firstname: string, email: string) {
    await t.app.db
      .update(users)
      .set({ email })
      .where(eq(users.email, demoUser(firstname).email));
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/forgot-password',
      payload: { email },
    });
    expect(res.json()).toEqual({ data: { ok: true } });
    await t.app.background.idle();
  }
  const stats = () => {
    const { stats: now } = t.app.email;
    if (!now) throw new Error('the SMTP adapter keeps no stats');
    return { ...now };
  };
  const lines = (msg: string) => logs.lines.filter((l) => l.msg === msg);

  it('issue 43 §4: a Faroese subject (RFC 2047) and body arrive exactly as the product wrote them', async () => {
    const jóannes = demoUser('Jóannes');
    // A first name with ø: the reset text has every other Faroese letter itself.
    await t.app.db
      .update(users)
      .set({ firstname: 'Jóannes Bjørn', locale: 'fo' })
      .where(eq(users.email, jóannes.email));
    const before = stats();
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/forgot-password',
      payload: { email: jóannes.email },
    });
    expect(res.statusCode).toBe(200);
    const mail = await waitFor(async () => inbox.find((m) => m.to.includes(jóannes.email)));
    // The server has the message before the client has its reply to DATA: wait for the send.
    await t.app.background.idle();

    // On the wire the headers are 7-bit: the subject is an encoded word, not raw UTF-8.
    const headerBlock = mail.raw.slice(0, mail.raw.search(/\r?\n\r?\n/));
    expect(headerBlock).toMatch(/^[\x20-\x7e\r\n\t]*$/);
    expect(headerBlock).toMatch(/^Subject: =\?UTF-8\?[BQ]\?/im);
    expect(headerBlock).not.toContain('Nýtt loyniorð');

    const message = parseMime(mail.raw);
    const text = findPart(message, 'text/plain');
    const html = findPart(message, 'text/html');
    expect(text?.headers.get('content-type')).toMatch(/charset=utf-8/i);
    const link = /https:\/\/minsida\.alda\.fo\/nytt-loyniord\?token=[A-Za-z0-9_%-]+/.exec(
      text?.body ?? '',
    )?.[0];
    expect(link).toBeDefined();
    // What the product sent, made again with the same link: every character arrived.
    const sent = passwordResetEmail('fo', {
      to: jóannes.email,
      firstname: 'Jóannes Bjørn',
      link: link ?? '',
    });
    expect(message.headers.get('subject')).toBe('Nýtt loyniorð til Alda');
    expect(message.headers.get('subject')).toBe(sent.subject);
    // SMTP ends lines with CRLF; the text is the same line by line.
    const lf = (value: string | undefined) => (value ?? '').replace(/\r\n/g, '\n');
    expect(lf(text?.body)).toBe(sent.text);
    expect(lf(html?.body)).toBe(sent.html);
    for (const letter of FAROESE_LETTERS) expect(lf(text?.body)).toContain(letter);
    expect(stats()).toEqual({ ...before, sent: before.sent + 1 });
  });

  it('issue 43 §4: a recipient the server refuses (550) is logged with the SMTP code, counted, and not tried again', async () => {
    const before = stats();
    await resetFor('Sunneva', REFUSED);
    expect(rcptAttempts.get(REFUSED)).toBe(1);
    expect(stats()).toEqual({ ...before, refused: before.refused + 1 });
    expect(lines('e-mail refused by the mail server, not retried')).toEqual([
      expect.objectContaining({
        level: 40,
        smtpCode: 550,
        smtpStatus: '5.1.1',
        command: 'RCPT TO',
        attempt: 1,
      }),
    ]);
    // The background task's own line names the task and the code, not the address.
    expect(lines('background task failed')).toEqual([
      expect.objectContaining({
        task: 'password reset e-mail',
        err: expect.objectContaining({
          type: 'EmailNotSentError',
          message: 'mail server refused the e-mail (550) after 1 attempt',
        }),
      }),
    ]);
    expect(logs.lines.filter((l) => JSON.stringify(l).includes(REFUSED))).toEqual([]);
    expect(inbox.some((m) => m.to.includes(REFUSED))).toBe(false);
  });

  it('issue 43 §4: a server that defers (451) gets the e-mail on a later attempt', async () => {
    const before = stats();
    await resetFor('Guðrun', DEFERRED_TWICE);
    expect(rcptAttempts.get(DEFERRED_TWICE)).toBe(3);
    expect(inbox.filter((m) => m.to.includes(DEFERRED_TWICE))).toHaveLength(1);
    expect(stats()).toEqual({ ...before, sent: before.sent + 1, retried: before.retried + 2 });
    expect(lines('e-mail not taken for now, retrying')).toEqual([
      expect.objectContaining({
        level: 40,
        smtpCode: 451,
        smtpStatus: '4.2.2',
        attempt: 1,
        retryInMs: 5,
      }),
      expect.objectContaining({
        level: 40,
        smtpCode: 451,
        smtpStatus: '4.2.2',
        attempt: 2,
        retryInMs: 20,
      }),
    ]);
    expect(lines('e-mail sent after a retry')).toEqual([
      expect.objectContaining({ level: 30, attempts: 3 }),
    ]);
    expect(logs.lines.filter((l) => JSON.stringify(l).includes(DEFERRED_TWICE))).toEqual([]);
  });

  it(`issue 43 §4: a server that keeps deferring is tried ${SMTP_MAX_ATTEMPTS} times in all, then the e-mail is given up and counted`, async () => {
    const before = stats();
    await resetFor('Rói', ALWAYS_DEFERRED);
    expect(rcptAttempts.get(ALWAYS_DEFERRED)).toBe(SMTP_MAX_ATTEMPTS);
    expect(stats()).toEqual({
      ...before,
      retried: before.retried + SMTP_MAX_ATTEMPTS - 1,
      failed: before.failed + 1,
    });
    expect(lines('e-mail not sent: giving up')).toEqual([
      expect.objectContaining({ level: 50, smtpCode: 451, attempts: SMTP_MAX_ATTEMPTS }),
    ]);
    expect(inbox.some((m) => m.to.includes(ALWAYS_DEFERRED))).toBe(false);
    expect(logs.lines.filter((l) => JSON.stringify(l).includes(ALWAYS_DEFERRED))).toEqual([]);
  });
});
