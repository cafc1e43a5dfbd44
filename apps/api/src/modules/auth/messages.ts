import type { Locale } from '@alda/contract/locale';
import type { EmailMessage } from '../../adapters/email/email-sender';
import { escapeHtml } from '../../html';

/*
 * What phone login and password reset send, in Faroese and English. Texts are plain and short:
 * an SMS must fit one segment where it can, and an e-mail must read well without its HTML.
 */

/** The SMS with a one-time code. `minutes` is its lifetime. */
export function pinCodeSms(locale: Locale, code: string, minutes: number): string {
  return locale === 'en'
    ? `Your Alda code is ${code}. It is valid for ${minutes} minutes. Never share it with anyone.`
    : `Kotan hjá tær til Alda er ${code}. Hon er galdandi í ${minutes} minuttir. Gev ongum kotuna.`;
}

interface ResetEmailText {
  subject: string;
  greeting: (name: string) => string;
  intro: string;
  button: string;
  validity: string;
  ignore: string;
  signature: string;
}

const RESET_TEXT: Record<Locale, ResetEmailText> = {
  fo: {
    subject: 'Nýtt loyniorð til Alda',
    greeting: (name) => `Hey ${name}`,
    intro:
      'Tú hevur biðið um at fáa nýtt loyniorð til brúkaran hjá tær hjá Alda. Trýst á leinkið fyri at velja eitt nýtt loyniorð.',
    button: 'Vel nýtt loyniorð',
    validity: 'Leinkið virkar bert eina ferð og í ein tíma.',
    ignore:
      'Hevur tú ikki biðið um hetta, kanst tú síggja burtur frá hesum teldubrævinum. Loyniorðið verður ikki broytt.',
    signature: 'Vinarliga\nAlda',
  },
  en: {
    subject: 'Set a new password for Alda',
    greeting: (name) => `Hi ${name}`,
    intro:
      'You asked for a new password for your Alda user. Open the link to choose a new password.',
    button: 'Choose a new password',
    validity: 'The link works once, for one hour.',
    ignore:
      'If you did not ask for this, you can ignore this e-mail. Your password stays as it is.',
    signature: 'Best regards\nAlda',
  },
};

/** The password reset e-mail: the same content as text and as HTML. */
export function passwordResetEmail(
  locale: Locale,
  values: { to: string; firstname: string; link: string },
): EmailMessage {
  const t = RESET_TEXT[locale];
  const text = [
    `${t.greeting(values.firstname)},`,
    '',
    t.intro,
    '',
    values.link,
    '',
    t.validity,
    t.ignore,
    '',
    t.signature,
    '',
  ].join('\n');
  const paragraph = (content: string) =>
    `<p style="margin:0 0 16px">${escapeHtml(content).replace(/\n/g, '<br>')}</p>`;
  const html = `<!doctype html>
<html lang="${locale}">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${escapeHtml(t.subject)}</title></head>
<body style="margin:0;padding:24px;background:#f4f6f8;font-family:Arial,Helvetica,sans-serif;color:#1a2b3c;line-height:1.5">
<div style="max-width:520px;margin:0 auto;background:#ffffff;border-radius:12px;padding:24px">
${paragraph(`${t.greeting(values.firstname)},`)}
${paragraph(t.intro)}
<p style="margin:0 0 16px"><a href="${escapeHtml(values.link)}" style="display:inline-block;background:#0b5cab;color:#ffffff;text-decoration:none;padding:12px 20px;border-radius:8px;font-weight:bold">${escapeHtml(t.button)}</a></p>
<p style="margin:0 0 16px;font-size:13px;color:#4a5b6c;word-break:break-all">${escapeHtml(values.link)}</p>
${paragraph(t.validity)}
${paragraph(t.ignore)}
${paragraph(t.signature)}
</div>
</body>
</html>
`;
  return { to: values.to, subject: t.subject, text, html };
}
