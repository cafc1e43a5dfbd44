import nodemailer from 'nodemailer';
import type { EmailSender } from './email-sender';

export interface SmtpOptions {
  /** `smtp://user:pass@host:587` (STARTTLS when offered) or `smtps://…:465` (TLS from the start). */
  url: string;
  /** `From` header, e.g. `Alda <no-reply@alda.fo>`. */
  from: string;
}

/**
 * E-mail through an SMTP server with nodemailer: a small connection pool, bounded waits, and a
 * multipart/alternative message (text and HTML) per e-mail. Failures reject with nodemailer's
 * error; the caller decides whether the customer must hear of it.
 */
export function createSmtpSender(options: SmtpOptions): EmailSender {
  const transport = nodemailer.createTransport({
    url: options.url,
    pool: true,
    maxConnections: 2,
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 20_000,
  });
  return {
    kind: 'smtp',
    async send(message) {
      await transport.sendMail({
        from: options.from,
        to: message.to,
        subject: message.subject,
        text: message.text,
        html: message.html,
        attachments: (message.attachments ?? []).map((a) => ({
          filename: a.filename,
          contentType: a.contentType,
          content: a.content,
        })),
      });
    },
    async close() {
      transport.close();
    },
  };
}
