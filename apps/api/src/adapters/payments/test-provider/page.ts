import { formatKr } from '@alda/contract/format/money';
import { escapeHtml } from '../../../html';
import type { TestProviderPaymentRow } from './store';

/**
 * The test provider's hosted card page: plain server-rendered HTML, no script at all, styled by
 * one served CSS file (so it works under a strict CSP), in Faroese or English.
 */
export type PageLang = 'fo' | 'en';

const TEXTS = {
  fo: {
    title: 'Gjald við korti',
    provider: 'Royndargjaldsveitari',
    notice: 'Hetta er ein royndarsíða. Einki verður tikið av veruligum kortum.',
    amount: 'Upphædd',
    for: 'Fyri',
    cardCheck: 'Kortið verður kannað og goymt til mánaðargjøld. Einki verður tikið av kortinum nú.',
    number: 'Kortnummar',
    expiry: 'Gildir til (MM/ÁÁ)',
    cvc: 'Trygdarkota (CVC)',
    pay: (amount: string) => `Gjalda ${amount}`,
    save: 'Goym kortið',
    cancel: 'Angra',
    errorNumber: 'Kortnummarið er ikki rætt.',
    errorExpiry: 'Gildistíðin er ikki røtt, ella er hon farin.',
    errorCvc: 'Trygdarkotan skal vera 3 tøl.',
    testCards: 'Royndarkort',
    cardSucceeds: 'eydnast',
    cardDeclined: 'verður avvíst',
    cardSlow: 'eydnast eftir eina løtu',
    anyExpiry: 'Hvør gildistíð í framtíðini og hvør trygdarkota við 3 tølum.',
    done: 'Hetta gjaldið er longu viðgjørt.',
    expired: 'Hetta gjaldið er runnið út. Byrja umaftur í appini.',
    back: 'Aftur til Alda',
    notFound: 'Gjaldið finst ikki.',
  },
  en: {
    title: 'Card payment',
    provider: 'Test payment provider',
    notice: 'This is a test page. No real card is charged.',
    amount: 'Amount',
    for: 'For',
    cardCheck: 'The card is checked and saved for monthly payments. Nothing is charged now.',
    number: 'Card number',
    expiry: 'Expiry (MM/YY)',
    cvc: 'Security code (CVC)',
    pay: (amount: string) => `Pay ${amount}`,
    save: 'Save card',
    cancel: 'Cancel',
    errorNumber: 'The card number is not valid.',
    errorExpiry: 'The expiry date is not valid or has passed.',
    errorCvc: 'The security code must be 3 digits.',
    testCards: 'Test cards',
    cardSucceeds: 'succeeds',
    cardDeclined: 'is declined',
    cardSlow: 'succeeds after a while',
    anyExpiry: 'Any future expiry date and any 3-digit security code.',
    done: 'This payment has already been handled.',
    expired: 'This payment has expired. Start again in the app.',
    back: 'Back to Alda',
    notFound: 'Payment not found.',
  },
} as const;

export const CHECKOUT_CSS_PATH = '/test-provider/assets/checkout.css';

/** Chooses the language: `?lang=` wins, then the first of fo/en in Accept-Language, then fo. */
export function pageLang(query: unknown, acceptLanguage: string | undefined): PageLang {
  if (query === 'en' || query === 'fo') return query;
  for (const part of (acceptLanguage ?? '').split(',')) {
    const tag = part.split(';')[0]?.trim().toLowerCase() ?? '';
    if (tag.startsWith('fo')) return 'fo';
    if (tag.startsWith('en')) return 'en';
  }
  return 'fo';
}

function layout(lang: PageLang, body: string): string {
  const t = TEXTS[lang];
  return `<!doctype html>
<html lang="${lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(t.title)} · ${escapeHtml(t.provider)}</title>
<link rel="stylesheet" href="${CHECKOUT_CSS_PATH}">
</head>
<body>
<main class="sheet">
<header class="brand"><span class="logo" aria-hidden="true"></span>${escapeHtml(t.provider)}</header>
${body}
</main>
</body>
</html>`;
}

export interface FormErrors {
  number?: boolean;
  expiry?: boolean;
  cvc?: boolean;
}

export interface FormValues {
  number?: string;
  expiry?: string;
}

function field(
  name: string,
  label: string,
  attributes: string,
  value: string,
  error: string | undefined,
): string {
  const id = `f-${name}`;
  return `<div class="field${error ? ' invalid' : ''}">
<label for="${id}">${escapeHtml(label)}</label>
<input id="${id}" name="${name}" ${attributes} value="${escapeHtml(value)}"${error ? ` aria-invalid="true" aria-describedby="${id}-error"` : ''}>
${error ? `<p class="error" id="${id}-error">${escapeHtml(error)}</p>` : ''}
</div>`;
}

/** The card form of a payment still waiting for its card. */
export function renderCheckoutPage(
  payment: TestProviderPaymentRow,
  lang: PageLang,
  errors: FormErrors = {},
  values: FormValues = {},
): string {
  const t = TEXTS[lang];
  const amount = formatKr(payment.amountOere, lang);
  const isCardCheck = payment.kind === 'card_setup';
  const action = `/test-provider/checkout/${encodeURIComponent(payment.id)}`;
  const summary = `<section class="summary">
${isCardCheck ? '' : `<p class="amount"><span>${escapeHtml(t.amount)}</span><strong>${escapeHtml(amount)}</strong></p>`}
${payment.description ? `<p class="description"><span>${escapeHtml(t.for)}</span> ${escapeHtml(payment.description)}</p>` : ''}
${isCardCheck ? `<p class="hint">${escapeHtml(t.cardCheck)}</p>` : ''}
</section>`;
  const form = `<form method="post" action="${escapeHtml(action)}" class="card-form" novalidate>
<input type="hidden" name="lang" value="${lang}">
${field('number', t.number, 'inputmode="numeric" autocomplete="cc-number" maxlength="23" placeholder="4242 4242 4242 4242"', values.number ?? '', errors.number ? t.errorNumber : undefined)}
<div class="row">
${field('expiry', t.expiry, `inputmode="numeric" autocomplete="cc-exp" maxlength="7" placeholder="${lang === 'fo' ? 'MM/ÁÁ' : 'MM/YY'}"`, values.expiry ?? '', errors.expiry ? t.errorExpiry : undefined)}
${field('cvc', t.cvc, 'inputmode="numeric" autocomplete="cc-csc" maxlength="3" placeholder="123"', '', errors.cvc ? t.errorCvc : undefined)}
</div>
<button type="submit" name="action" value="pay" class="primary">${escapeHtml(isCardCheck ? t.save : t.pay(amount))}</button>
<button type="submit" name="action" value="cancel" class="secondary">${escapeHtml(t.cancel)}</button>
</form>`;
  const cards = `<aside class="test-cards">
<p><strong>${escapeHtml(t.testCards)}</strong></p>
<ul>
<li><code>4242 4242 4242 4242</code> ${escapeHtml(t.cardSucceeds)}</li>
<li><code>4000 0000 0000 0002</code> ${escapeHtml(t.cardDeclined)}</li>
<li><code>4000 0000 0000 3063</code> ${escapeHtml(t.cardSlow)}</li>
</ul>
<p>${escapeHtml(t.anyExpiry)}</p>
<p class="notice">${escapeHtml(t.notice)}</p>
</aside>`;
  return layout(lang, `<h1>${escapeHtml(t.title)}</h1>\n${summary}\n${form}\n${cards}`);
}

/** A payment that is no longer waiting for a card (paid, declined, cancelled, expired). */
export function renderDonePage(payment: TestProviderPaymentRow, lang: PageLang): string {
  const t = TEXTS[lang];
  const expired = payment.state === 'failed' && payment.failureReason === 'expired';
  const back = payment.returnUrl
    ? `<p><a class="primary link" href="${escapeHtml(payment.returnUrl)}">${escapeHtml(t.back)}</a></p>`
    : '';
  return layout(
    lang,
    `<h1>${escapeHtml(t.title)}</h1>\n<p class="status">${escapeHtml(expired ? t.expired : t.done)}</p>\n${back}`,
  );
}

export function renderNotFoundPage(lang: PageLang): string {
  const t = TEXTS[lang];
  return layout(
    lang,
    `<h1>${escapeHtml(t.title)}</h1>\n<p class="status">${escapeHtml(t.notFound)}</p>`,
  );
}

/** The page's only stylesheet (served as a file: the CSP allows no inline styles here). */
export const CHECKOUT_CSS = `*,*::before,*::after{box-sizing:border-box}
html{-webkit-text-size-adjust:100%}
body{margin:0;min-height:100vh;background:#eef2f7;color:#14213d;font:16px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
.sheet{max-width:440px;margin:0 auto;padding:20px 16px 32px}
.brand{display:flex;align-items:center;gap:8px;font-size:14px;font-weight:600;color:#4a5872;letter-spacing:.02em;text-transform:uppercase;margin-bottom:16px}
.logo{width:22px;height:22px;border-radius:6px;background:linear-gradient(135deg,#3a5bd9,#7b4ae2)}
h1{font-size:24px;margin:0 0 16px}
.summary{background:#fff;border-radius:14px;padding:16px;margin-bottom:16px;box-shadow:0 1px 3px rgba(20,33,61,.08)}
.summary p{margin:0}
.amount{display:flex;justify-content:space-between;align-items:baseline;font-size:15px;color:#4a5872}
.amount strong{font-size:26px;color:#14213d}
.description{margin-top:8px!important;color:#14213d}
.description span{color:#4a5872}
.hint{margin-top:8px!important;color:#4a5872;font-size:15px}
.card-form{background:#fff;border-radius:14px;padding:16px;box-shadow:0 1px 3px rgba(20,33,61,.08)}
.field{margin-bottom:14px;flex:1;min-width:0}
.row{display:flex;gap:12px}
label{display:block;font-size:14px;font-weight:600;margin-bottom:6px}
input{width:100%;font:inherit;font-size:18px;padding:12px;border:1px solid #c3ccda;border-radius:10px;background:#fbfcfe;color:inherit}
input:focus{outline:3px solid rgba(58,91,217,.35);border-color:#3a5bd9}
.invalid input{border-color:#c62828;background:#fff7f7}
.error{color:#c62828;font-size:14px;margin:6px 0 0}
button,.link{display:block;width:100%;font:inherit;font-weight:600;font-size:17px;border-radius:12px;padding:14px;border:0;cursor:pointer;text-align:center;text-decoration:none}
.primary{background:#3a5bd9;color:#fff;margin-top:4px}
.primary:hover{background:#2f4bbd}
.secondary{background:transparent;color:#3a5bd9;margin-top:8px}
.test-cards{margin-top:20px;font-size:14px;color:#4a5872}
.test-cards ul{padding-left:18px;margin:6px 0}
.test-cards p{margin:6px 0}
code{font-family:ui-monospace,SFMono-Regular,Menlo,monospace;color:#14213d}
.notice{font-style:italic}
.status{background:#fff;border-radius:14px;padding:16px;box-shadow:0 1px 3px rgba(20,33,61,.08)}
`;
