import { describe, expect, it } from 'vitest';
import type { Locale } from '@alda/contract/locale';
import { splitSms, type SmsEncoding } from '../src/adapters/sms/gsm7';
import { confirmationCodeSms, pinCodeSms } from '../src/modules/auth/messages';
import { notificationSms, notificationTexts } from '../src/modules/notifications/texts';
import { PIN_TTL_S } from '../src/modules/auth/phone-login-service';
import { simChangeSmsText } from '../src/modules/sim/texts';

/*
 * Every SMS the product sends, in both languages, through the real text builders (issue 43:
 * "Every message of the product in both languages is checked in a test for its encoding and
 * number of parts"). The places that send SMS: phone login's code and the confirmation code
 * (modules/auth/phone-login-service.ts), the SIM change alert (modules/sim/service.ts), the
 * roaming cap SMS (modules/usage/service.ts). Password reset goes by e-mail. The expected
 * encoding and parts are written out, so a reworded text that costs another SMS (or drops to
 * GSM-7 and garbles a letter) is noticed here.
 *
 * Faroese texts are UCS-2 (á, í, ó, ú, ý, ð are not in GSM 03.38): more than 70 characters
 * take two parts of at most 67.
 */

const CODE = '123456';
const MINUTES = PIN_TTL_S / 60;
/** The default roaming cap (ROAMING_CAP_DEFAULT) and 80 % of it, as the alert shows them. */
const roaming = (locale: Locale, threshold: 80 | 100, canRaise: boolean) =>
  notificationSms(
    notificationTexts(
      'roaming_cap',
      {
        phoneNumber: '214456',
        name: null,
        threshold,
        chargedOere: threshold === 100 ? 37_300 : 29_840,
        capOere: 37_300,
        canRaise,
      },
      locale,
    ),
  );

const TEXTS: Array<[name: string, text: string, encoding: SmsEncoding, parts: number]> = [
  ['login code, fo', pinCodeSms('fo', CODE, MINUTES), 'ucs2', 1],
  ['login code, en', pinCodeSms('en', CODE, MINUTES), 'gsm7', 1],
  ['sign-out confirmation code, fo', confirmationCodeSms('fo', CODE, MINUTES), 'ucs2', 2],
  ['sign-out confirmation code, en', confirmationCodeSms('en', CODE, MINUTES), 'gsm7', 1],
  [
    'SIM change alert with the support number, fo',
    simChangeSmsText('fo', '214455', '112233'),
    'ucs2',
    2,
  ],
  [
    'SIM change alert with the support number, en',
    simChangeSmsText('en', '214455', '112233'),
    'gsm7',
    1,
  ],
  [
    'SIM change alert without a support number, fo',
    simChangeSmsText('fo', '214455', undefined),
    'ucs2',
    2,
  ],
  [
    'SIM change alert without a support number, en',
    simChangeSmsText('en', '214455', undefined),
    'gsm7',
    1,
  ],
  ['roaming cap 80 %, owner, fo', roaming('fo', 80, true), 'ucs2', 3],
  ['roaming cap 80 %, owner, en', roaming('en', 80, true), 'gsm7', 1],
  ['roaming cap 80 %, member, fo', roaming('fo', 80, false), 'ucs2', 3],
  ['roaming cap 80 %, member, en', roaming('en', 80, false), 'gsm7', 1],
  ['roaming cap reached, owner, fo', roaming('fo', 100, true), 'ucs2', 3],
  ['roaming cap reached, owner, en', roaming('en', 100, true), 'gsm7', 2],
  ['roaming cap reached, member, fo', roaming('fo', 100, false), 'ucs2', 3],
  ['roaming cap reached, member, en', roaming('en', 100, false), 'gsm7', 2],
];

describe('every SMS text of the product: encoding and parts (issue 43)', () => {
  it.each(TEXTS)('%s', (_name, text, encoding, parts) => {
    const split = splitSms(text);
    expect({ encoding: split.encoding, parts: split.parts.length }).toEqual({ encoding, parts });
    expect(split.dataCoding).toBe(encoding === 'ucs2' ? 8 : 0);
    expect(split.parts.join('')).toBe(text);
  });
});
