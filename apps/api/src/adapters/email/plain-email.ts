import type { Locale } from '@alda/contract/locale';
import { escapeHtml } from '../../html';
import type { EmailMessage } from './email-sender';

/**
 * A short e-mail that tells one thing — an order's step, a usage alert: the title as subject
 * after "Alda:", a greeting by first name, the body and the signature, in the customer's
 * language; the HTML part is the same text in paragraphs.
 */
export function plainEmail(
  locale: Locale,
  firstname: string,
  title: string,
  body: string,
): Pick<EmailMessage, 'subject' | 'text' | 'html'> {
  const greeting = locale === 'en' ? `Hi ${firstname}` : `Hey ${firstname}`;
  const signature = locale === 'en' ? 'Best regards\nAlda' : 'Vinarligar heilsanir\nAlda';
  const text = `${greeting}\n\n${body}\n\n${signature}`;
  return {
    subject: `Alda: ${title}`,
    text,
    html: text
      .split('\n\n')
      .map((p) => `<p>${escapeHtml(p).replace(/\n/g, '<br>')}</p>`)
      .join(''),
  };
}
