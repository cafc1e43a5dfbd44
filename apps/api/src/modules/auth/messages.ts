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

interface NewDeviceEmailText {
  subject: string;
  greeting: (name: string) => string;
  intro: string;
  device: string;
  time: string;
  place: string;
  unknownPlace: string;
  ifYou: string;
  ifNotYou: string;
  button: string;
  signature: string;
}

const NEW_DEVICE_TEXT: Record<Locale, NewDeviceEmailText> = {
  fo: {
    subject: 'Innritað á eina nýggja eind',
    greeting: (name) => `Hey ${name}`,
    intro: 'Onkur er júst innritaður á brúkaran hjá tær hjá Alda frá eini eind, vit ikki kenna.',
    device: 'Eind',
    time: 'Nær',
    place: 'Hvar',
    unknownPlace: 'ókent',
    ifYou: 'Var hetta tú, so er einki at gera.',
    ifNotYou:
      'Var hetta ikki tú, so broyt loyniorðið beinanvegin og rita eindina út undir Mín brúkari → Innritaðar eindir.',
    button: 'Síggj innritaðar eindir',
    signature: 'Vinarliga\nAlda',
  },
  en: {
    subject: 'New sign-in on a new device',
    greeting: (name) => `Hi ${name}`,
    intro: 'Someone has just signed in to your Alda user from a device we have not seen before.',
    device: 'Device',
    time: 'When',
    place: 'Where',
    unknownPlace: 'unknown',
    ifYou: 'If this was you, there is nothing to do.',
    ifNotYou:
      'If it was not you, change your password at once and sign the device out under My user → Signed-in devices.',
    button: 'See signed-in devices',
    signature: 'Best regards\nAlda',
  },
};

/**
 * The e-mail about a sign-in on a device the user has not signed in on before (ADR 0059):
 * which device, when (Faroese time) and where (unknown without an IP-country lookup), and what
 * to do if it was not them. The same content as text and as HTML.
 */
export function newDeviceEmail(
  locale: Locale,
  values: {
    to: string;
    firstname: string;
    device: string;
    /** Already formatted in Atlantic/Faroe. */
    at: string;
    country: string | null;
    link: string;
  },
): EmailMessage {
  const t = NEW_DEVICE_TEXT[locale];
  const facts: Array<[string, string]> = [
    [t.device, values.device],
    [t.time, values.at],
    [t.place, values.country ?? t.unknownPlace],
  ];
  const text = [
    `${t.greeting(values.firstname)},`,
    '',
    t.intro,
    '',
    ...facts.map(([label, value]) => `${label}: ${value}`),
    '',
    t.ifYou,
    t.ifNotYou,
    '',
    values.link,
    '',
    t.signature,
    '',
  ].join('\n');
  const paragraph = (content: string) =>
    `<p style="margin:0 0 16px">${escapeHtml(content).replace(/\n/g, '<br>')}</p>`;
  const rows = facts
    .map(
      ([label, value]) =>
        `<tr><td style="padding:4px 12px 4px 0;color:#4a5b6c">${escapeHtml(label)}</td><td style="padding:4px 0;font-weight:bold">${escapeHtml(value)}</td></tr>`,
    )
    .join('\n');
  const html = `<!doctype html>
<html lang="${locale}">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${escapeHtml(t.subject)}</title></head>
<body style="margin:0;padding:24px;background:#f4f6f8;font-family:Arial,Helvetica,sans-serif;color:#1a2b3c;line-height:1.5">
<div style="max-width:520px;margin:0 auto;background:#ffffff;border-radius:12px;padding:24px">
${paragraph(`${t.greeting(values.firstname)},`)}
${paragraph(t.intro)}
<table style="margin:0 0 16px;border-collapse:collapse">
${rows}
</table>
${paragraph(t.ifYou)}
${paragraph(t.ifNotYou)}
<p style="margin:0 0 16px"><a href="${escapeHtml(values.link)}" style="display:inline-block;background:#0b5cab;color:#ffffff;text-decoration:none;padding:12px 20px;border-radius:8px;font-weight:bold">${escapeHtml(t.button)}</a></p>
${paragraph(t.signature)}
</div>
</body>
</html>
`;
  return { to: values.to, subject: t.subject, text, html };
}
