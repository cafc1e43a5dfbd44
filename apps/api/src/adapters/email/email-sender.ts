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

/**
 * What an adapter has done since start, for the log and the metrics to come (issue 44): counts
 * of messages, not of attempts — except `retried`.
 */
export interface EmailStats {
  /** Accepted by the mail server (or stored in the outbox). */
  sent: number;
  /** Attempts made again after a temporary failure (SMTP 4xx, a lost connection). */
  retried: number;
  /** Refused for good by the mail server (SMTP 5xx, e.g. 550 for an unknown mailbox): not retried. */
  refused: number;
  /** Given up after the last attempt failed for the moment. */
  failed: number;
}

export interface EmailSender {
  readonly kind: 'outbox' | 'smtp';
  /** Resolves once the message is accepted by the outbox or the mail server. */
  send(message: EmailMessage): Promise<void>;
  /** Running counts (the SMTP adapter keeps them; test doubles need not). */
  readonly stats?: Readonly<EmailStats>;
  /** Closes connections (SMTP pool); called when the app closes. */
  close(): Promise<void>;
}
