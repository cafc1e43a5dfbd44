/**
 * Sending e-mail (password reset). The built-in outbox keeps messages in the database for
 * development; the SMTP adapter delivers through a mail server (docs/decisions/0025-messaging-adapters.md).
 */
export interface EmailMessage {
  to: string;
  subject: string;
  /** Plain-text part. */
  text: string;
  /** HTML part of the same content (the message is multipart/alternative). */
  html: string;
  /** Files sent along (a receipt PDF); the message becomes multipart/mixed. */
  attachments?: EmailAttachment[];
}

export interface EmailAttachment {
  /** File name the mail client shows, e.g. `kvittan-K-2026-000042.pdf`. */
  filename: string;
  /** MIME type, e.g. `application/pdf`. */
  contentType: string;
  content: Buffer;
}

export interface EmailSender {
  readonly kind: 'outbox' | 'smtp';
  /** Resolves once the message is accepted by the outbox or the mail server. */
  send(message: EmailMessage): Promise<void>;
  /** Closes connections (SMTP pool); called when the app closes. */
  close(): Promise<void>;
}
