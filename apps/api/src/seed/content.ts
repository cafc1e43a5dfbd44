import type { NewContentPageRow } from '../db/schema/content-pages';

/*
 * The terms and privacy texts a new installation starts with (SPEC §2 /menu/treytir and
 * /menu/privatlivspolitikkur). They are reference data, not demo data: they are inserted at every
 * start when missing, and an operator's later edits in the database are kept. The facts about the
 * supervisory authority and the act are real (dat.fo; løgtingslóg nr. 80 frá 7. juni 2020); the
 * company and its contact details are the product's own.
 */

const TERMS_FO = `# Treytir fyri mobiltænastur

*Galdandi frá 1. januar 2026*

Hesar treytir eru galdandi fyri øll mobilhald, sum Alda P/F, Tórshavn ("Alda", "vit") veitir einstaklingum. Saman við galdandi prísyvirliti og váttanini av tínum haldi eru tær avtalan millum teg og okkum.

## 1. Avtalan

- Tú mást vera fylt 18 ár fyri at gera avtalu. Er tú yngri, skal foreldur ella verji gera avtaluna fyri teg.
- Upplýsingarnar, tú gevur okkum, skulu vera rættar. Flytur tú ella skiftir tú teldupost, skalt tú dagføra tær í appini.
- Avtalan byrjar, tá ið haldið er virkið, og vit hava sent tær váttan.

## 2. Binditíð og uppsøgn

- Eitt nýtt hald hevur **6 mánaða binditíð**. Tú kanst siga haldið upp í binditíðini, men mánaðargjaldið fyri restina av binditíðini verður tá kravt.
- Eftir binditíðina kanst tú siga haldið upp til enda á mánaðinum.
- Tá ið haldið endar, verður nummarið gjørt um til **talutíð** (forgjald), so tú varðveitir nummarið.

## 3. Prísir og gjald

- Allir prísir eru í krónum og við 25 % MVG. Á kvittanini sært tú upphæddina bæði við og uttan MVG.
- Mánaðargjaldið verður kravt frammanundan við gjaldskorti gjøgnum okkara gjaldsveitara. Kortupplýsingarnar verða ikki goymdar hjá Alda.
- Verður eitt gjald ikki goldið, kunnu vit avmarka haldið, til skuldin er goldin. Vit boða frá, áðrenn vit gera tað.

## 4. Data og eykapakkar

- Data verður roknað í MB, og 1 GB er 1024 MB.
- Eykapakkar eru galdandi til enda á mánaðinum, tú keypir teir. Ónýtt data í einum eykapakka fellur burtur við mánaðarskifti.
- Tú kanst geva dátu til aðrar kundar og biðja aðrar kundar um dátu. Tú kanst í mesta lagi geva tað, ið eftir er av tínum mánaðarliga marki og av tínari tøku dátu.

## 5. Familjuhald

- Eigarin av einum familjuhaldi ber ábyrgdina av gjaldinum fyri allar limir.
- Allir limir í einum familjuhaldi skulu búgva á somu adressu.
- Eigarin kann leggja limir afturat, flyta limir og taka limir úr haldinum.

## 6. Uttanlands

Við roaming-tilboðnum fært tú **20 tímar av samrøðum, ókeypis SMS og upp til 50 GB** í teimum londum, sum tilboðið fevnir um. Nýtsla út um tilboðið verður roknað eftir prísyvirlitinum.

## 7. Nummarflyting og SIM-kort

- Tú kanst flyta títt verandi nummar til Alda. Vit taka okkum av flytingini við hin veitaran.
- Tú velur millum eSIM og vanligt SIM-kort. Hvørvur SIM-kortið, skalt tú beinanvegin siga okkum frá, so vit kunnu steingja tað.

## 8. Netið og avbrot

Vit gera okkara besta fyri at veita eitt støðugt net um alt landið, men vit kunnu ikki lova, at tað ongantíð verða avbrot. Ætlað viðlíkahald verður kunngjørt í appini frammanundan.

## 9. Broytingar í treytunum

Vit kunnu broyta treytirnar og prísirnar við í minsta lagi einum mánaða fyrivarsli. Eru broytingarnar til tín ampa, kanst tú siga haldið upp, áðrenn tær koma í gildi.

## 10. Klagur

Ert tú ikki nøgd(ur), skriva til kundatænastuna á **kundi@alda.fo**. Finna vit ikki eina loysn saman, kanst tú leggja málið fyri tann almenna myndugleikan, sum hevur eftirlit við fjarskifti í Føroyum.

Føroysk lóg er galdandi fyri avtaluna.
`;

const TERMS_EN = `# Terms for mobile services

*Effective 1 January 2026*

These terms apply to every mobile subscription that Alda P/F, Tórshavn ("Alda", "we") provides to individuals. Together with the current price list and the confirmation of your subscription, they form the agreement between you and us.

## 1. The agreement

- You must be 18 or older to enter into an agreement. If you are younger, a parent or guardian must do so on your behalf.
- The details you give us must be correct. If you move or change your e-mail address, update them in the app.
- The agreement starts when the subscription is active and we have sent you a confirmation.

## 2. Commitment and cancellation

- A new subscription has a **6-month commitment**. You may cancel during the commitment, but the monthly fee for the rest of it will then be charged.
- After the commitment you may cancel with effect from the end of the month.
- When the subscription ends, the number becomes a **prepaid (talutíð)** number, so you keep it.

## 3. Prices and payment

- All prices are in Faroese krónur and include 25 % VAT. Your receipt shows the amount both with and without VAT.
- The monthly fee is charged in advance to your payment card through our payment provider. Alda does not store your card details.
- If a payment fails, we may restrict the subscription until it is paid. We will tell you before we do.

## 4. Data and extra packages

- Data is counted in MB, and 1 GB is 1024 MB.
- Extra packages are valid until the end of the month in which you buy them. Unused data in an extra package lapses when the month ends.
- You can give data to other customers and ask other customers for data. You can give at most what is left of your monthly allowance and of your available data.

## 5. Family plans

- The owner of a family plan is responsible for payment for all members.
- All members of a family plan must live at the same address.
- The owner can add, move and remove members.

## 6. Abroad

With the roaming offer you get **20 hours of calls, free SMS and up to 50 GB** in the countries the offer covers. Use beyond the offer is charged according to the price list.

## 7. Number porting and SIM cards

- You can bring your existing number to Alda. We handle the transfer with your previous provider.
- You choose between eSIM and a physical SIM card. If your SIM card is lost, tell us at once so that we can block it.

## 8. The network and interruptions

We do our best to provide a stable network across the islands, but we cannot promise that there will never be interruptions. Planned maintenance is announced in the app in advance.

## 9. Changes to these terms

We may change the terms and prices with at least one month's notice. If a change is to your disadvantage, you may cancel before it takes effect.

## 10. Complaints

If you are not satisfied, write to customer service at **kundi@alda.fo**. If we cannot find a solution together, you can take the matter to the public authority that supervises telecommunications in the Faroe Islands.

The agreement is governed by Faroese law.
`;

const PRIVACY_FO = `# Privatlívspolitikkur

*Galdandi frá 1. januar 2026*

Her sært tú, hvussu Alda viðger tínar persónupplýsingar, tá ið tú ert kundi hjá okkum og brúkar appina, og hvørji rættindi tú hevur.

## Dátuábyrgdari

**Alda P/F**, Tórshavn, er dátuábyrgdari fyri viðgerðina av tínum persónupplýsingum. Tú kanst seta teg í samband við okkara dátuverndarfólk á **datuvernd@alda.fo**.

## Hvørjar upplýsingar vit viðgera

- **Samleikaupplýsingar:** navn, føðingardag, adressu, teldupost og telefonnummar.
- **Upplýsingar um tey hald, tú hevur:** hald, eykapakkar, keyp, ordrar og kvittanir.
- **Nýtsla og ferðsluupplýsingar:** dátunýtsla, samrøður og SMS, sum vit mugu hava fyri at veita og rokna fyri tænastuna.
- **Tøkniligar upplýsingar:** slag av eind, stýriskipan og útgávu av appini, tá ið appin spyr eftir dagføringum.

Kortupplýsingar verða viðgjørdar av okkara gjaldsveitara og verða ikki goymdar hjá okkum.

## Hví vit viðgera upplýsingarnar

| Endamál | Heimild |
|---|---|
| At veita, rokna og krevja inn fyri tænastuna | Avtalan við teg |
| At halda krøv í bókhaldslógini og fjarskiftislóggávuni | Lógarkrav |
| At verja tína kontu og okkara net móti misnýtslu | Lóglig áhugamál |
| At senda tær tilboð og tíðindi | Títt samtykki, sum tú altíð kanst taka aftur |

## Hvussu leingi vit goyma upplýsingarnar

- Kundaupplýsingar goyma vit, so leingi tú ert kundi, og í eitt ár aftaná.
- Kvittanir og rokningar goyma vit í fimm ár eftir bókhaldslógini.
- Ferðsluupplýsingar strika vit ella gera dulnevndar, tá ið tær ikki longur eru neyðugar til rokningar.

## Hvør fær upplýsingarnar

Vit selja ikki tínar upplýsingar. Vit nýta dátuviðgerar, til dømis til hýsing, SMS og kortgjald, og teir mega bara viðgera upplýsingarnar eftir okkara boðum. Upplýsingar verða bert latnar myndugleikum, tá ið lógin krevur tað.

## Tíni rættindi

Eftir dátuverndarlógini (løgtingslóg nr. 80 frá 7. juni 2020 um vernd av persónupplýsingum) hevur tú rætt til:

- at fáa innlit í tær upplýsingar, vit hava um teg;
- at fáa skeivar upplýsingar rættaðar;
- at fáa upplýsingar strikaðar, tá ið vit ikki longur hava heimild at goyma tær;
- at fáa viðgerðina avmarkaða og at mótmæla viðgerð, ið byggir á lóglig áhugamál;
- at fáa tínar upplýsingar útflýggjaðar í einum vanligum tøkniligum sniði (dátuflytføri).

Skriva til **datuvernd@alda.fo**, um tú vilt nýta tíni rættindi. Vit svara í seinasta lagi innan ein mánað.

## Klaga til Dátueftirlitið

Heldur tú, at vit viðgera tínar upplýsingar í stríð við dátuverndarlógina, kanst tú klaga til **Dátueftirlitið**, postboks 300, 110 Tórshavn, dat@dat.fo, www.dat.fo.
`;

const PRIVACY_EN = `# Privacy policy

*Effective 1 January 2026*

This policy explains how Alda processes your personal data when you are our customer and use the app, and what rights you have.

## Data controller

**Alda P/F**, Tórshavn, is the data controller for the processing of your personal data. You can reach our data protection officer at **datuvernd@alda.fo**.

## What we process

- **Identity details:** name, date of birth, address, e-mail address and phone number.
- **Details of your subscriptions:** subscriptions, extra packages, purchases, orders and receipts.
- **Usage and traffic data:** data use, calls and SMS, which we need to provide and bill the service.
- **Technical details:** device type, operating system and app version when the app checks for updates.

Card details are processed by our payment provider and are not stored by us.

## Why we process it

| Purpose | Legal basis |
|---|---|
| To provide, bill and collect payment for the service | Our agreement with you |
| To meet the requirements of bookkeeping and telecommunications law | Legal obligation |
| To protect your account and our network against misuse | Legitimate interest |
| To send you offers and news | Your consent, which you can withdraw at any time |

## How long we keep it

- Customer details are kept while you are a customer and for one year afterwards.
- Receipts and invoices are kept for five years as the Bookkeeping Act requires.
- Traffic data is deleted or anonymised once it is no longer needed for billing.

## Who receives it

We do not sell your data. We use data processors, for example for hosting, SMS and card payments, and they may only process the data on our instructions. Data is disclosed to authorities only where the law requires it.

## Your rights

Under the Faroese Data Protection Act (dátuverndarlógin, Act no. 80 of 7 June 2020 on the protection of personal data) you have the right:

- to access the data we hold about you;
- to have incorrect data corrected;
- to have data erased when we no longer have grounds to keep it;
- to restrict processing and to object to processing based on legitimate interest;
- to receive your data in a common machine-readable format (data portability).

Write to **datuvernd@alda.fo** to use your rights. We answer within one month at the latest.

## Complaints to Dátueftirlitið

If you believe we process your data in breach of the Data Protection Act, you can complain to the Faroese Data Protection Authority, **Dátueftirlitið**, postboks 300, 110 Tórshavn, dat@dat.fo, www.dat.fo.
`;

/** The four pages (terms and privacy, Faroese and English). */
export const CONTENT_PAGES: NewContentPageRow[] = [
  { slug: 'terms', locale: 'fo', title: 'Treytir', markdown: TERMS_FO },
  { slug: 'terms', locale: 'en', title: 'Terms', markdown: TERMS_EN },
  { slug: 'privacy', locale: 'fo', title: 'Privatlívspolitikkur', markdown: PRIVACY_FO },
  { slug: 'privacy', locale: 'en', title: 'Privacy policy', markdown: PRIVACY_EN },
];
