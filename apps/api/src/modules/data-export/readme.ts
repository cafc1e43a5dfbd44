import type { Locale } from '@alda/contract/locale';

/**
 * The README.md of a data export (issue 32, GDPR Art. 15 and 20) in the export's language: what
 * each file holds, what is left out and why, the formats, and the customer's rights.
 */
export function exportReadme(locale: Locale, madeOn: string): string {
  return (locale === 'en' ? EN : FO).replace('{date}', madeOn);
}

const FO = `# Tínar dátur hjá Alda

Hetta er eitt avrit av teimum persónsupplýsingum, sum Alda goymir um teg. Avritið varð gjørt {date}, tí tú baðst um tað í appini.

Tú hevur rætt til hetta eftir dátuverndarreglunum (GDPR): grein 15 (rætturin at fáa innlit í tínar upplýsingar) og grein 20 (rætturin at flyta tínar upplýsingar til ein annan).

## Fílurnar

- \`profile.json\` – tín brúkari: navn, teldupostur, telefonnummar, føðingardagur, bústaður, mál og nær tú gjørdist kundi. Loyniorðið er ikki við: vit goyma tað bert sum eitt hash, ið ikki kann lesast aftur.
- \`lines.json\` – tíni nummur og nummur í familjuni, sum tú eigur: støða, SIM-slag, nær tey vórðu virkin, nummarlás og steðgaðar dátur. ICCID (nummarið á SIM-kortinum) er fjalt uttan tey seinastu fýra tølini. PIN, PUK og eSIM-kotan eru ikki við: tað eru trygdarloyndarmál. Tú sært tey í appini, tá ið tú hevur skrivað loyniorðið.
- \`plans.json\` – tínar kontur og haldarar við navni, mánaðarprísi og dátum.
- \`orders.json\` – tínar bíleggingar (haldarar, eyka pakkar, nýtt SIM, broytingar).
- \`payments.json\` – gjaldingar, endurgjaldingar og skrásett gjaldskort: upphædd, støða og dagfesting. Av kortinum bert slag og tey seinastu fýra tølini. Vit goyma ongantíð kortnummur: kortið er hjá gjaldsveitaranum.
- \`receipts.json\` – tínar kvittanir.
- \`bills.json\` – tínar mánaðarrokningar við øllum postum, og postarnir fyri tíni nummur á rokningini hjá familjuni.
- \`notifications.json\` – fráboðanirnar í appini.
- \`activity.json\` – virksemisloggurin: tað, tú hevur gjørt, og tað, sum er hent við tínum nummurum.
- \`support.json\` – tínar samrøður við kundatænastuna: títt og okkara svar. Myndirnar, tú sendi, eru í mappuni \`support/\`.
- \`sessions.json\` – innritanir: eind, nær tær byrjaðu og seinast vóru nýttar, og land. Trygdarlyklar (token) eru ikki við.
- \`passkeys.json\` – tínar lykilkodur: navn, nær tær vórðu stovnaðar og seinast brúktar. Almenni lykilin er ikki við.
- \`consents.json\` – tíni val: telefonbókin, ávaringar um dátunýtslu og nær tú góðtókst treytirnar (tá ið tú gjørdist kundi).

## Snið

Allar fílurnar eru JSON (UTF-8), sum onnur forrit kunnu lesa. Tíðir eru ISO 8601 í UTC, t.d. \`2026-11-25T13:00:00.000Z\`. Upphæddir eru í oyrum við MVG: 100 oyru eru 1 króna, so \`9900\` er 99,00 kr. Dátur eru í MB.

## Tín rættur

- Innlit (grein 15): tú hevur rætt at vita, hvørjar upplýsingar vit hava um teg, og hví vit hava tær.
- Flyting (grein 20): tú kanst geva hesar fílur til ein annan veitara.
- Tú kanst eisini biðja okkum rætta skeivar upplýsingar. Tú kanst strika brúkaran í appini, tá ið tú ikki longur hevur ein virknan haldara.

## Spurningar

Hevur tú spurningar um tínar upplýsingar, set teg í samband við kundatænastuna hjá Alda. Heldur tú ikki, at vit fara rætt við tínum upplýsingum, kanst tú klaga til Dátueftirlitið.
`;

const EN = `# Your data at Alda

This is a copy of the personal data Alda keeps about you. It was made on {date} because you asked for it in the app.

The data protection rules (GDPR) give you this right: Article 15 (the right of access to your data) and Article 20 (the right to take your data elsewhere, data portability).

## The files

- \`profile.json\` – your user: name, e-mail, phone number, date of birth, address, language and when you became a customer. Your password is not included: we keep only a hash of it, which cannot be read back.
- \`lines.json\` – your numbers and the family numbers you own: state, SIM type, when they started, number lock and paused data. The ICCID (the SIM card's number) is hidden except for its last four digits. PIN, PUK and the eSIM code are not included: they are security secrets. The app shows them after you enter your password.
- \`plans.json\` – your accounts and subscriptions with name, monthly price and data.
- \`orders.json\` – your orders (subscriptions, extra packages, new SIMs, changes).
- \`payments.json\` – payments, refunds and saved cards: amount, state and date. Of a card only the brand and the last four digits. We never keep card numbers: the card stays with the payment provider.
- \`receipts.json\` – your receipts.
- \`bills.json\` – your monthly bills with every item, and the items of your numbers on your family's bill.
- \`notifications.json\` – the notifications in the app.
- \`activity.json\` – the activity log: what you did and what happened to your numbers.
- \`support.json\` – your conversations with customer service: your messages and our answers. The pictures you sent are in the \`support/\` folder.
- \`sessions.json\` – sign-ins: device, when they started and were last used, and country. Security tokens are not included.
- \`passkeys.json\` – your passkeys: name, when they were made and last used. The public key is not included.
- \`consents.json\` – your choices: the phone book, data use alerts and when you accepted the terms (when you became a customer).

## Format

Every file is JSON (UTF-8), which other programs can read. Times are ISO 8601 in UTC, e.g. \`2026-11-25T13:00:00.000Z\`. Amounts are in øre including VAT: 100 øre is 1 krone, so \`9900\` is DKK 99.00. Data is in MB.

## Your rights

- Access (Article 15): you have the right to know what data we hold about you and why.
- Portability (Article 20): you may give these files to another provider.
- You may also ask us to correct data that is wrong. You can delete your user in the app once you no longer have an active subscription.

## Questions

If you have questions about your data, contact Alda's customer service. If you think we do not handle your data correctly, you can complain to the Faroese Data Protection Agency (Dátueftirlitið).
`;
