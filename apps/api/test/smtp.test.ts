import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataEnvelope } from '@alda/contract/envelope';
import { tokens } from '@alda/contract/schemas/auth';
import { DEMO_PASSWORD } from '../src/seed/demo-users';
import { seedDemoData } from '../src/seed/seed';
import { createTestApp, demoUser, parse, type TestApp, waitFor } from './helper';
import { findPart, headerParam, parseMime } from './mime';

const jóannes = demoUser('Jóannes');

interface Received {
  from: string | undefined;
  to: string[];
  raw: string;
}

describe('e-mail over SMTP: a real listener receives the reset e-mail (ARCHITECTURE "Real parts")', () => {
  const inbox: Received[] = [];
  let server: SMTPServer;
  let t: TestApp;

  beforeAll(async () => {
    server = new SMTPServer({
      // A plain local relay: no TLS certificate to trust, no login.
      disabledCommands: ['STARTTLS', 'AUTH'],
      logger: false,
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          inbox.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : undefined,
            to: session.envelope.rcptTo.map((r) => r.address),
            raw: Buffer.concat(chunks).toString('utf8'),
          });
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.server.address() as AddressInfo;
    t = await createTestApp({
      SMTP_URL: `smtp://127.0.0.1:${port}`,
      MAIL_FROM: 'Alda <no-reply@alda.fo>',
      APP_URL: 'https://minsida.alda.fo',
    });
    await seedDemoData(t.app.db);
  });
  afterAll(async () => {
    await t.close();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('completes forgot → reset from the link in the received multipart message, in Faroese', async () => {
    const forgot = await t.app.inject({
      method: 'POST',
      url: '/api/auth/forgot-password',
      payload: { email: jóannes.email },
    });
    expect(forgot.json()).toEqual({ data: { ok: true } });

    const mail = await waitFor(async () => inbox.find((m) => m.to.includes(jóannes.email)));
    expect(mail.from).toBe('no-reply@alda.fo');
    const message = parseMime(mail.raw);
    expect(message.headers.get('subject')).toBe('Nýtt loyniorð til Alda');
    expect(message.headers.get('from')).toBe('Alda <no-reply@alda.fo>');
    expect(message.headers.get('to')).toBe(jóannes.email);
    expect(message.headers.get('content-type')).toMatch(/^multipart\/alternative;/);
    expect(headerParam(message.headers.get('content-type'), 'boundary')).toBeTruthy();

    const text = findPart(message, 'text/plain');
    const html = findPart(message, 'text/html');
    expect(text?.headers.get('content-type')).toMatch(/charset=utf-8/i);
    expect(text?.body).toContain('Hey Jóannes,');
    expect(html?.body).toContain('<html lang="fo">');

    const link = /https:\/\/minsida\.alda\.fo\/nytt-loyniord\?token=([A-Za-z0-9_-]+)/.exec(
      text?.body ?? '',
    );
    expect(link).not.toBeNull();
    const token = decodeURIComponent(link?.[1] ?? '');
    expect(html?.body).toContain(`href="${link?.[0]}"`);

    const reset = await t.app.inject({
      method: 'POST',
      url: '/api/auth/reset-password',
      payload: { token, password: 'Frá-teldupostinum1' },
    });
    expect(reset.statusCode).toBe(200);
    parse(dataEnvelope(tokens), reset);

    const login = (password: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/auth/email-login',
        payload: { email: jóannes.email, password },
      });
    expect((await login('Frá-teldupostinum1')).statusCode).toBe(200);
    expect((await login(DEMO_PASSWORD)).statusCode).toBe(401);
  });
});
