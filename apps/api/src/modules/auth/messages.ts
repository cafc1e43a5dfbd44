import type { Locale } from '@alda/contract/locale';
import type { EmailMessage } from '../../adapters/email/email-sender';
import { escapeHtml } from '../../html';

/*
 * What phone login and password reset send, in Faroese and English. Texts are plain and short:
 * an SMS must fit one segment where it can, and an e-mail must read well without its HTML.
 */

/**
 * The SMS with a one-time code. `minutes` is its lifetime. The Faroese text needs UCS-2 (á, ð:
 * not in GSM 03.38), where one SMS holds 70 characters; it is kept under that so the code arrives
 * as one message (issue 43, test/sms-texts.test.ts).
 */
export function pinCodeSms(locale: Locale, code: string, minutes: number): string {
  return locale === 'en'
    ? `Your Alda code is ${code}. It is valid for ${minutes} minutes. Never share it with anyone.`
    : `Kotan hjá tær til Alda er ${code}. Galdandi í ${minutes} min. Gev ongum hana.`;
}

/**
 * The SMS with a code that confirms signing other devices out (ADR 0059), for customers without
 * a password. It says what the code is for, so nobody is talked into reading it out as a login.
 */
export function confirmationCodeSms(locale: Locale, code: string, minutes: number): string {
  return locale === 'en'
    ? `Your Alda code to sign out other devices is ${code}. It is valid for ${minutes} minutes. Never share it with anyone.`
    : `Kotan til at rita aðrar eindir út hjá Alda er ${code}. Hon er galdandi í ${minutes} minuttir. Gev ongum kotuna.`;
}

/** What every e-mail of this module opens and closes with. */
const FRAME: Record<Locale, { greeting: (name: string) => string; signature: string }> = {
  fo: { greeting: (name) => `Hey ${name}`, signature: 'Vinarliga\nAlda' },
  en: { greeting: (name) => `Hi ${name}`, signature: 'Best regards\nAlda' },
};

/**
 * One block of an e-mail: lines (one paragraph each in HTML, one line each in the text), facts
 * (label and value), or a button to a link (in the text: the link; `spelledOut` also prints the
 * link under the button in HTML, for mail clients that break buttons).
 */
type Block =
  | { lines: string[] }
  | { facts: Array<[string, string]> }
  | { button: string; link: string; spelledOut?: boolean };

/**
 * An e-mail of `blocks` between the greeting and the signature, as plain text and as HTML with
 * the same content (the text must read well without the HTML).
 */
function composeEmail(
  locale: Locale,
  to: string,
  firstname: string,
  subject: string,
  blocks: Block[],
): EmailMessage {
  const frame = FRAME[locale];
  const all: Block[] = [
    { lines: [`${frame.greeting(firstname)},`] },
    ...blocks,
    { lines: [frame.signature] },
  ];
  const textOf = (block: Block): string => {
    if ('lines' in block) return block.lines.join('\n');
    if ('facts' in block)
      return block.facts.map(([label, value]) => `${label}: ${value}`).join('\n');
    return block.link;
  };
  const htmlOf = (block: Block): string => {
    if ('lines' in block) {
      return block.lines
        .map((line) => `<p style="margin:0 0 16px">${escapeHtml(line).replace(/\n/g, '<br>')}</p>`)
        .join('\n');
    }
    if ('facts' in block) {
      const rows = block.facts.map(
        ([label, value]) =>
          `<tr><td style="padding:4px 12px 4px 0;color:#4a5b6c">${escapeHtml(label)}</td><td style="padding:4px 0;font-weight:bold">${escapeHtml(value)}</td></tr>`,
      );
      return `<table style="margin:0 0 16px;border-collapse:collapse">\n${rows.join('\n')}\n</table>`;
    }
    const button = `<p style="margin:0 0 16px"><a href="${escapeHtml(block.link)}" style="display:inline-block;background:#0b5cab;color:#ffffff;text-decoration:none;padding:12px 20px;border-radius:8px;font-weight:bold">${escapeHtml(block.button)}</a></p>`;
    return block.spelledOut
      ? `${button}\n<p style="margin:0 0 16px;font-size:13px;color:#4a5b6c;word-break:break-all">${escapeHtml(block.link)}</p>`
      : button;
  };
  const text = `${all.map(textOf).join('\n\n')}\n`;
  const html = `<!doctype html>
<html lang="${locale}">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${escapeHtml(subject)}</title></head>
<body style="margin:0;padding:24px;background:#f4f6f8;font-family:Arial,Helvetica,sans-serif;color:#1a2b3c;line-height:1.5">
<div style="max-width:520px;margin:0 auto;background:#ffffff;border-radius:12px;padding:24px">
${all.map(htmlOf).join('\n')}
</div>
</body>
</html>
`;
  return { to, subject, text, html };
}

const RESET_TEXT: Record<
  Locale,
  { subject: string; intro: string; button: string; validity: string; ignore: string }
> = {
  fo: {
    subject: 'Nýtt loyniorð til Alda',
    intro:
      'Tú hevur biðið um at fáa nýtt loyniorð til brúkaran hjá tær hjá Alda. Trýst á leinkið fyri at velja eitt nýtt loyniorð.',
    button: 'Vel nýtt loyniorð',
    validity: 'Leinkið virkar bert eina ferð og í ein tíma.',
    ignore:
      'Hevur tú ikki biðið um hetta, kanst tú síggja burtur frá hesum teldubrævinum. Loyniorðið verður ikki broytt.',
  },
  en: {
    subject: 'Set a new password for Alda',
    intro:
      'You asked for a new password for your Alda user. Open the link to choose a new password.',
    button: 'Choose a new password',
    validity: 'The link works once, for one hour.',
    ignore:
      'If you did not ask for this, you can ignore this e-mail. Your password stays as it is.',
  },
};

/** The password reset e-mail: the same content as text and as HTML. */
export function passwordResetEmail(
  locale: Locale,
  values: { to: string; firstname: string; link: string },
): EmailMessage {
  const t = RESET_TEXT[locale];
  return composeEmail(locale, values.to, values.firstname, t.subject, [
    { lines: [t.intro] },
    { button: t.button, link: values.link, spelledOut: true },
    { lines: [t.validity, t.ignore] },
  ]);
}

const NEW_DEVICE_TEXT: Record<
  Locale,
  {
    subject: string;
    intro: string;
    device: string;
    time: string;
    place: string;
    unknownPlace: string;
    ifYou: string;
    ifNotYou: string;
    button: string;
  }
> = {
  fo: {
    subject: 'Innritað á eina nýggja eind',
    intro: 'Onkur er júst innritaður á brúkaran hjá tær hjá Alda frá eini eind, vit ikki kenna.',
    device: 'Eind',
    time: 'Nær',
    place: 'Hvar',
    unknownPlace: 'ókent',
    ifYou: 'Var hetta tú, so er einki at gera.',
    ifNotYou:
      'Var hetta ikki tú, so broyt loyniorðið beinanvegin og rita eindina út undir Mín brúkari → Innritaðar eindir.',
    button: 'Síggj innritaðar eindir',
  },
  en: {
    subject: 'New sign-in on a new device',
    intro: 'Someone has just signed in to your Alda user from a device we have not seen before.',
    device: 'Device',
    time: 'When',
    place: 'Where',
    unknownPlace: 'unknown',
    ifYou: 'If this was you, there is nothing to do.',
    ifNotYou:
      'If it was not you, change your password at once and sign the device out under My user → Signed-in devices.',
    button: 'See signed-in devices',
  },
};

/**
 * The e-mail about a sign-in on a device the user has not signed in on before (ADR 0059):
 * which device, when (Faroese time) and where (the country of the sign-in's IP address, or
 * "unknown"), and what to do if it was not them. The same content as text and as HTML.
 */
export function newDeviceEmail(
  locale: Locale,
  values: {
    to: string;
    firstname: string;
    device: string;
    /** Already formatted in Atlantic/Faroe. */
    at: string;
    /** The country's name in `locale`; null when unknown. */
    country: string | null;
    link: string;
  },
): EmailMessage {
  const t = NEW_DEVICE_TEXT[locale];
  return composeEmail(locale, values.to, values.firstname, t.subject, [
    { lines: [t.intro] },
    {
      facts: [
        [t.device, values.device],
        [t.time, values.at],
        [t.place, values.country ?? t.unknownPlace],
      ],
    },
    { lines: [t.ifYou, t.ifNotYou] },
    { button: t.button, link: values.link },
  ]);
}

const NEW_PASSKEY_TEXT: Record<
  Locale,
  {
    subject: string;
    intro: string;
    name: string;
    time: string;
    ifYou: string;
    ifNotYou: string;
    button: string;
  }
> = {
  fo: {
    subject: 'Nýggj lykilkoda løgd afturat',
    intro: 'Ein nýggj lykilkoda er júst løgd afturat brúkaranum hjá tær hjá Alda. Við henni kann ein rita inn uttan loyniorð.',
    name: 'Lykilkoda',
    time: 'Nær',
    ifYou: 'Var hetta tú, so er einki at gera.',
    ifNotYou:
      'Var hetta ikki tú, so strika lykilkoduna beinanvegin undir Mín brúkari → Lykilkodur, og broyt loyniorðið.',
    button: 'Síggj lykilkodurnar',
  },
  en: {
    subject: 'New passkey added',
    intro: 'A new passkey has just been added to your Alda user. It signs in without a password.',
    name: 'Passkey',
    time: 'When',
    ifYou: 'If this was you, there is nothing to do.',
    ifNotYou:
      'If it was not you, remove the passkey at once under My user → Passkeys, and change your password.',
    button: 'See your passkeys',
  },
};

/**
 * The e-mail about a passkey added to the user (ADR 0097), as a new device's (ADR 0059): which
 * passkey, when (Faroese time), and what to do if it was not them.
 */
export function newPasskeyEmail(
  locale: Locale,
  values: { to: string; firstname: string; name: string; at: string; link: string },
): EmailMessage {
  const t = NEW_PASSKEY_TEXT[locale];
  return composeEmail(locale, values.to, values.firstname, t.subject, [
    { lines: [t.intro] },
    {
      facts: [
        [t.name, values.name],
        [t.time, values.at],
      ],
    },
    { lines: [t.ifYou, t.ifNotYou] },
    { button: t.button, link: values.link },
  ]);
}
