import type { Locale } from '@alda/contract/locale';
import type { NotificationType } from '@alda/contract/schemas/notifications';
import type { NotificationKind } from '@alda/contract/schemas/push';
import type { NotificationParams } from '../../db/schema/data-transfers';
import { notificationTexts } from '../notifications/notify';

interface Texts {
  title: string;
  body: string;
}

/*
 * What a push says on the lock screen (ADR 0096): only what anyone holding the phone may read —
 * no amounts, no phone numbers, no names of others. The app shows the whole notification when
 * it is opened. Titles of the free-text notifications (orders, payments, status) carry none of
 * these and are used as they are.
 */

function usage(raw: NotificationParams, locale: Locale): Texts {
  const eu = raw.kind === 'eu';
  const member = raw.name != null && raw.name !== '';
  const full = raw.threshold === 100;
  if (locale === 'fo') {
    const what = eu ? 'ES-pakkanum' : 'datanum';
    if (member) {
      return {
        title: full ? 'Data brúkt í familjuni' : '80 % brúkt í familjuni',
        body: full
          ? `Ein linja í familjuni hevur brúkt alt av ${what} í hesum mánaði.`
          : `Ein linja í familjuni hevur brúkt 80 % av ${what} í hesum mánaði.`,
      };
    }
    if (full) {
      return eu
        ? {
            title: 'ES-pakkin er brúktur',
            body: 'Data, ið tú brúkar í ES, verður nú tikið av datanum heima.',
          }
        : {
            title: 'Alt datað er brúkt',
            body: 'Tú hevur brúkt alt datað í hesum mánaði. Keyp ein eykapakka í appini.',
          };
    }
    return {
      title: eu ? '80 % av ES-pakkanum er brúkt' : '80 % av datanum er brúkt',
      body: `Tú hevur brúkt 80 % av ${what} í hesum mánaði.`,
    };
  }
  const what = eu ? 'EU package' : 'data';
  if (member) {
    return {
      title: full ? 'Data used up in your family' : '80% used in your family',
      body: full
        ? `A line in your family has used all of this month's ${what}.`
        : `A line in your family has used 80% of this month's ${what}.`,
    };
  }
  if (full) {
    return eu
      ? {
          title: 'EU package used up',
          body: 'Data you use in the EU now comes out of your data at home.',
        }
      : {
          title: 'Data used up',
          body: "You have used all of this month's data. Buy an extra package in the app.",
        };
  }
  return {
    title: eu ? '80% of the EU package used' : '80% of your data used',
    body: `You have used 80% of this month's ${what}.`,
  };
}

const OPEN: Record<Locale, string> = {
  fo: 'Lat Alda upp fyri at síggja meira.',
  en: 'Open Alda to see more.',
};

const FIXED: Record<Locale, Partial<Record<NotificationType, Texts>>> = {
  fo: {
    package_request: {
      title: 'Umbøn um eykapakka',
      body: 'Ein í familjuni biður teg um at keypa ein eykapakka.',
    },
    package_request_declined: {
      title: 'Umbønin um eykapakka er avvíst',
      body: 'Eigarin av kontuni keypti ikki eykapakkan.',
    },
    package: {
      title: 'Eykapakkin er keyptur',
      body: 'Eigarin av kontuni keypti eykapakkan, sum tú bað um.',
    },
    data_request: { title: 'Umbøn um data', body: 'Ein í familjuni biður teg um data.' },
    data_paused: {
      title: 'Mobildatað er steðgað',
      body: 'Eigarin av kontuni hevur steðgað mobildatanum. Tú kanst framvegis ringja og senda SMS.',
    },
    data_resumed: {
      title: 'Mobildatað er í gongd aftur',
      body: 'Eigarin av kontuni hevur sett mobildatað í gongd aftur.',
    },
    sim_changed: {
      title: 'Nýtt SIM',
      body: 'Nummarið hjá tær hevur fingið nýtt SIM. Var tað ikki tú? Ring til Alda beinan vegin.',
    },
    number_unlock_scheduled: {
      title: 'Nummarið verður latið upp',
      body: 'Var tað ikki tú? Lat Alda upp og steðga upplæsingini.',
    },
    number_unlocked: {
      title: 'Nummarið er latið upp',
      body: 'Nummarið er ikki longur læst. Tú kanst læsa tað aftur í appini.',
    },
    support_answer: {
      title: 'Svar frá Alda',
      body: 'Vit hava svarað tær. Lat samrøðuna upp fyri at lesa svarið.',
    },
  },
  en: {
    package_request: {
      title: 'Extra package request',
      body: 'Someone in your family asks you to buy an extra package.',
    },
    package_request_declined: {
      title: 'Extra package request declined',
      body: 'The account owner did not buy the extra package.',
    },
    package: {
      title: 'Extra package bought',
      body: 'The account owner bought the extra package you asked for.',
    },
    data_request: { title: 'Data request', body: 'Someone in your family asks you for data.' },
    data_paused: {
      title: 'Mobile data paused',
      body: 'The account owner paused your mobile data. You can still call and text.',
    },
    data_resumed: {
      title: 'Mobile data resumed',
      body: 'The account owner turned your mobile data back on.',
    },
    sim_changed: {
      title: 'New SIM',
      body: 'Your number has a new SIM. Was it not you? Call Alda at once.',
    },
    number_unlock_scheduled: {
      title: 'Your number will be unlocked',
      body: 'Was it not you? Open Alda and stop the unlock.',
    },
    number_unlocked: {
      title: 'Your number is unlocked',
      body: 'Your number is no longer locked. You can lock it again in the app.',
    },
    support_answer: {
      title: 'Answer from Alda',
      body: 'We have answered you. Open the conversation to read it.',
    },
  },
};

function roaming(raw: NotificationParams, locale: Locale): Texts {
  const stopped = raw.threshold === 100;
  if (locale === 'fo') {
    return stopped
      ? {
          title: 'Data uttanlands er steðgað',
          body: 'Útreiðsluloftið uttanlands er nátt, og data uttanlands er steðgað.',
        }
      : {
          title: '80 % av útreiðsluloftinum uttanlands',
          body: 'Data uttanlands nærkast útreiðsluloftinum í hesum mánaði.',
        };
  }
  return stopped
    ? {
        title: 'Data abroad stopped',
        body: 'The roaming spend cap is reached and data abroad has stopped.',
      }
    : {
        title: '80% of your roaming spend cap',
        body: 'Data abroad is nearing this month’s spend cap.',
      };
}

function portOut(raw: NotificationParams, locale: Locale): Texts {
  const accepted = raw.outcome === 'accepted';
  if (locale === 'fo') {
    return accepted
      ? { title: 'Nummarið verður flutt', body: 'Nummarið verður flutt til ein annan veitara.' }
      : {
          title: 'Flyting av nummarinum avvíst',
          body: 'Ein annar veitari bað um at flyta nummarið. Vit avvístu umbønina.',
        };
  }
  return accepted
    ? { title: 'Your number is moving', body: 'Your number is moving to another provider.' }
    : {
        title: 'Number transfer refused',
        body: 'Another provider asked to move your number. We refused.',
      };
}

/** The push's title and body for a notification of `kind`, in the reader's language. */
export function pushTexts(
  kind: NotificationKind,
  type: NotificationType,
  params: NotificationParams,
  locale: Locale,
): Texts {
  if (type === 'usage_alert') return usage(params, locale);
  if (type === 'roaming_cap') return roaming(params, locale);
  if (type === 'port_out') return portOut(params, locale);
  const fixed = FIXED[locale][type];
  if (fixed) return fixed;
  // Orders, payments and urgent status messages: their own title (no personal data), and for
  // status messages their own body, which staff write for everyone.
  const texts = notificationTexts(type, params, locale);
  return { title: texts.title, body: kind === 'status' ? texts.body : OPEN[locale] };
}
