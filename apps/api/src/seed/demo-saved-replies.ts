import type { supportSavedReplies } from '../db/schema/support';

/*
 * The desk's saved replies in the demo (issue 46): what a content editor would have written for
 * the questions a telecom desk answers most, in Faroese and English. Fixed ids, so seeding again
 * adds nothing.
 */
export function demoSavedReplies(now: Date): (typeof supportSavedReplies.$inferInsert)[] {
  const reply = (n: number, texts: Omit<typeof supportSavedReplies.$inferInsert, 'updatedAt'>) => ({
    ...texts,
    id: `5a7ed000-0046-4000-8000-00000000000${n}`,
    updatedAt: now,
  });
  return [
    reply(1, {
      titleFo: 'Flyting avvíst: SIM-kortnummarið',
      titleEn: 'Port rejected: the SIM card number',
      bodyFo:
        'Takk fyri boðini. Hin veitarin avvísti flytingina, tí SIM-kortnummarið (ICCID) passaði ikki við nummarið. Tú kanst rætta tað undir bíleggingini í appini, so biðja vit um flytingina aftur.',
      bodyEn:
        'Thank you for writing. The other provider rejected the move because the SIM card number (ICCID) did not match the number. You can correct it under the order in the app, and we will ask for the move again.',
    }),
    reply(2, {
      titleFo: 'Gjald: royn eitt annað kort',
      titleEn: 'Payment: try another card',
      bodyFo:
        'Gjaldið gekk ikki ígjøgnum hjá bankanum. Einki er tikið av kontuni. Royn aftur við einum øðrum korti ella MobilePay.',
      bodyEn:
        'The payment did not go through at the bank. Nothing was taken from your account. Please try again with another card or MobilePay.',
    }),
    reply(3, {
      titleFo: 'Takk, vit kanna tað',
      titleEn: 'Thanks, we are looking into it',
      bodyFo: 'Takk fyri boðini. Vit kanna tað og svara tær so skjótt sum gjørligt.',
      bodyEn:
        'Thank you for writing. We are looking into it and will answer you as soon as we can.',
    }),
  ];
}
