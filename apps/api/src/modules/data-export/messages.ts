import { formatDate } from '@alda/contract/format/date';
import type { Locale } from '@alda/contract/locale';
import type { EmailMessage } from '../../adapters/email/email-sender';
import { escapeHtml } from '../../html';

const TEXTS = {
  fo: {
    subject: 'Tínar dátur hjá Alda eru klárar',
    greeting: (name: string) => `Hey ${name},`,
    ready: (until: string) =>
      `Tínar dátur eru klárar. Tú kanst taka tær niður sum ZIP-fílu til ${until}.`,
    button: 'Tak dáturnar niður',
    notYou:
      'Baðst tú ikki sjálv/ur um hetta? So broyt loyniorðið í appini og set teg í samband við okkum.',
    signature: 'Vinarliga\nAlda',
  },
  en: {
    subject: 'Your data from Alda is ready',
    greeting: (name: string) => `Hi ${name},`,
    ready: (until: string) =>
      `Your data is ready. You can download it as a ZIP file until ${until}.`,
    button: 'Download your data',
    notYou: 'Did you not ask for this? Then change your password in the app and contact us.',
    signature: 'Best regards\nAlda',
  },
} as const;

/** The e-mail with the signed download link of a ready export, in the export's language. */
export function exportReadyEmail(
  locale: Locale,
  to: { email: string; firstname: string },
  link: string,
  expiresAt: Date,
): EmailMessage {
  const t = TEXTS[locale];
  const paragraphs = [t.greeting(to.firstname), t.ready(formatDate(expiresAt))];
  const after = [t.notYou, t.signature];
  const p = (text: string) =>
    `<p style="margin:0 0 16px">${escapeHtml(text).replace(/\n/g, '<br>')}</p>`;
  const button = `<p style="margin:0 0 16px"><a href="${escapeHtml(link)}" style="display:inline-block;background:#0b5cab;color:#ffffff;text-decoration:none;padding:12px 20px;border-radius:8px;font-weight:bold">${escapeHtml(t.button)}</a></p>`;
  return {
    to: to.email,
    subject: t.subject,
    text: [...paragraphs, link, ...after].join('\n\n'),
    html: [...paragraphs.map(p), button, p(link), ...after.map(p)].join('\n'),
  };
}
