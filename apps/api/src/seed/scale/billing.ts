import { endOfMonth, formatDate, formatMonth } from '@alda/contract/format/date';
import { formatKr } from '@alda/contract/format/money';
import { formatData } from '@alda/contract/format/data';
import { formatPhoneNumber } from '@alda/contract/format/phone';
import { memberPriceAt } from '@alda/contract/rules/family';
import { monthChargeKey } from '../../modules/billing/month-charge-service';
import { requestHashOf } from '../../modules/orders/placing';
import { TOP_UP_AMOUNTS } from '../../modules/top-ups/service';
import { DAY, HOUR, MINUTE, type CalendarMonth } from './calendar';
import {
  act,
  between,
  notify,
  nth,
  order,
  payment,
  providerPaymentIdOf,
  randomCard,
  receipt,
  settleMs,
  type Card,
  type GenContext,
  type ReceiptItem,
} from './context';
import { extraPackage, plan, userOfLine, type Account, type Line, type Person } from './model';
import { RATIOS } from './ratios';
import { SPECS } from './tables';

/*
 * Money: payment agreements (the card on file with the test provider), the monthly charge of
 * every paying customer for every month of the history, top-ups of prepaid lines and extra
 * packages — each paid payment with its receipt, activity-log entry and notification, as the
 * payments core's fulfilment writes them.
 */

const PAY_WITH_AGREEMENT = requestHashOf('POST /api/billing/pay', { payWith: 'agreement' });
const PAY_WITH_CARD = requestHashOf('POST /api/billing/pay', { payWith: 'card' });

type Payer = Person & { userId: string };

/*
 * Receipt lines as the payments core's fulfilment writes them (modules/payments/fulfilment.ts,
 * private to its module): a top-up, a package valid until the month's end.
 */
const topUpReceiptText = (msisdn: string) => ({
  fo: `Áfylling av talutíð til ${formatPhoneNumber(msisdn)}`,
  en: `Top-up of prepaid ${formatPhoneNumber(msisdn)}`,
});

function packageReceiptText(pkg: { nameFo: string; nameEn: string }, msisdn: string, atMs: number) {
  const until = formatDate(endOfMonth(atMs));
  return {
    fo: `Eykapakki ${pkg.nameFo} til ${formatPhoneNumber(msisdn)}, galdandi til ${until}`,
    en: `Extra package ${pkg.nameEn} for ${formatPhoneNumber(msisdn)}, valid until ${until}`,
  };
}

export interface Agreement {
  card: Card;
  ref: string;
}

function payer(person: Person): Payer {
  if (!person.userId) throw new Error('a payer has a login');
  return person as Payer;
}

/**
 * The payer's active agreement (and, for some, the one it replaced), with the card the test
 * provider holds for it. Agreements made during the history have their card-check order.
 */
export function emitAgreement(ctx: GenContext, owner: Person, sinceMs: number): Agreement {
  const who = payer(owner);
  const card = randomCard(ctx);
  const ref = `scale-card-${who.userId.slice(0, 8)}${who.userId.slice(24)}`;
  const createdMs = Math.max(sinceMs - HOUR, who.createdMs);
  if (ctx.random.chance(0.05)) {
    const old = randomCard(ctx);
    ctx.out.row(SPECS.paymentAgreements, {
      id: ctx.ids.next('agreement'),
      userId: who.userId,
      status: 'expired',
      cardBrand: old.brand,
      cardLast4: old.last4,
      cardExpiry: old.expiry,
      providerReference: `${ref}-old`,
      provider: 'test',
      createdAt: createdMs - 3 * 365 * DAY,
      updatedAt: createdMs,
    });
  }
  ctx.out.row(SPECS.paymentAgreements, {
    id: ctx.ids.next('agreement'),
    userId: who.userId,
    status: 'active',
    cardBrand: card.brand,
    cardLast4: card.last4,
    cardExpiry: card.expiry,
    providerReference: ref,
    provider: 'test',
    createdAt: createdMs,
    updatedAt: createdMs,
  });
  ctx.out.row(SPECS.testProviderCards, {
    id: ref,
    brand: card.brand,
    last4: card.last4,
    expiry: card.expiry,
    behaviour: 'succeed',
    createdAt: createdMs,
    stoppedAt: null,
  });
  if (createdMs >= ctx.cal.startMs) cardCheck(ctx, who, card, ref, createdMs);
  return { card, ref };
}

/** The card registration that made an agreement: a 0 kr. payment with a receipt. */
function cardCheck(ctx: GenContext, who: Payer, card: Card, ref: string, atMs: number): void {
  const doneMs = atMs + settleMs(ctx);
  const orderId = order(ctx, {
    userId: who.userId,
    kind: 'payment_agreement',
    priceOere: 0,
    paymentStatus: 'paid',
    createdMs: atMs,
    completedMs: doneMs,
  });
  const paymentId = payment(ctx, {
    orderId,
    userId: who.userId,
    amountOere: 0,
    method: 'card',
    state: 'paid',
    card,
    agreementRef: ref,
    createdMs: atMs,
    updatedMs: doneMs,
  });
  const named = `${card.brand} •••• ${card.last4}`;
  receipt(ctx, {
    orderId,
    paymentId,
    customer: who,
    issuedMs: doneMs,
    items: [{ text: { fo: `Kortkanning ${named}`, en: `Card check ${named}` }, oere: 0 }],
    card,
  });
  act(ctx, { userId: who.userId, type: 'profile_updated', atMs: doneMs });
  notify(ctx, {
    userId: who.userId,
    type: 'payment',
    params: {
      title: { fo: 'Gjaldsavtalan er klár', en: 'Payment agreement ready' },
      body: {
        fo: `Nú verður mánaðargjaldið goldið við kortinum ${named}.`,
        en: `The card ${named} will now be used for the monthly payment.`,
      },
    },
    link: '/min-brukari/gjaldsavtala',
    atMs: doneMs,
  });
}

/** A line counts in a month's charge: in service before the month (the first month is free). */
function chargedIn(line: Line, month: CalendarMonth, atMs: number): boolean {
  if (line.status !== 'active' || line.createdMs > atMs) return false;
  return line.activatedMs === null || line.activatedMs < month.startMs;
}

/** The plan a line had in a month (an upgrade this month changed it after the charge). */
function planIn(line: Line, chargeMs: number): string {
  return line.planChangedMs !== null &&
    line.previousPlanId !== null &&
    chargeMs < line.planChangedMs
    ? line.previousPlanId
    : line.planId;
}

/** The month's price lines of the payer's accounts, as billing/price.ts lists them. */
function monthItems(
  accounts: readonly Account[],
  month: CalendarMonth,
  chargeMs: number,
): ReceiptItem[] {
  const items: ReceiptItem[] = [];
  const add = (description: { fo: string; en: string }, msisdn: string, oere: number) => {
    if (oere <= 0) return;
    const number = formatPhoneNumber(msisdn);
    items.push({
      text: {
        fo: `${description.fo} · ${number} · ${formatMonth(month.key, 'fo')}`,
        en: `${description.en} · ${number} · ${formatMonth(month.key, 'en')}`,
      },
      oere,
    });
  };
  for (const account of accounts) {
    if (account.status !== 'active' || account.type === 'prepaid') continue;
    const lines = account.lines.filter((l) => chargedIn(l, month, chargeMs));
    lines.forEach((line, position) => {
      const p = plan(planIn(line, chargeMs));
      if (account.type === 'family_plan') {
        const member = position === 0 ? null : { fo: 'familjulimur', en: 'family member' };
        add(
          member
            ? { fo: `${p.nameFo}, ${member.fo}`, en: `${p.nameEn}, ${member.en}` }
            : { fo: p.nameFo, en: p.nameEn },
          line.msisdn,
          memberPriceAt(p.memberPrices, position),
        );
      } else {
        add({ fo: p.nameFo, en: p.nameEn }, line.msisdn, p.monthlyPriceOere);
      }
    });
    const first = lines[0];
    const euOn = account.euPackage && (account.euSinceMs === null || account.euSinceMs < chargeMs);
    const accountPlan = plan(account.planId ?? first?.planId ?? 'individual-5');
    if (first && euOn && accountPlan.euPackagePriceOere)
      add({ fo: 'ES-pakki', en: 'EU package' }, first.msisdn, accountPlan.euPackagePriceOere);
  }
  return items;
}

/**
 * The monthly charges of one paying customer: on the 1st of every month of the history (the
 * current one once its charge has run), on the agreement. Most are paid; some fail and are then
 * paid by card in the app; a few of this month's are still pending at the provider.
 */
export function emitMonthlyCharges(
  ctx: GenContext,
  owner: Person,
  accounts: readonly Account[],
  agreement: Agreement,
): void {
  const who = payer(owner);
  // The month's charge runs early on the 1st (the months not charged yet are left out).
  const charges = ctx.cal.months
    .map((month) => ({ month, atMs: month.startMs + 6 * HOUR + ctx.random.int(0, 180) * MINUTE }))
    .filter((c) => c.atMs < ctx.cal.nowMs);
  const latest = charges.at(-1)?.month.index;
  // The second payer's latest month is pending at the provider, the third's failed (see nth).
  const forced = [null, 'pending', 'failed'][nth(ctx, 'payer') - 1] ?? null;
  for (const { month, atMs: chargeMs } of charges) {
    const items = monthItems(accounts, month, chargeMs);
    const total = items.reduce((sum, item) => sum + item.oere, 0);
    if (total <= 0) continue;
    const drawn = ctx.random.weighted([
      ['paid', RATIOS.monthlyCharge.paid],
      ['failed', RATIOS.monthlyCharge.failed],
      ['pending', month.index === ctx.cal.current.index ? RATIOS.monthlyCharge.pending : 0],
    ] as const);
    const outcome = month.index === latest && forced !== null ? forced : drawn;
    const charge = { who, month, items, total, atMs: chargeMs };
    if (outcome === 'paid')
      paidMonth(ctx, { ...charge, method: 'agreement', card: agreement.card, ref: agreement.ref });
    else if (outcome === 'pending') pendingMonth(ctx, charge, agreement);
    else failedMonth(ctx, charge, agreement);
  }
}

interface MonthCharge {
  who: Payer;
  month: CalendarMonth;
  items: ReceiptItem[];
  total: number;
  atMs: number;
}

function paidMonth(
  ctx: GenContext,
  c: MonthCharge & { method: 'agreement' | 'card'; card: Card; ref: string | null },
): void {
  const doneMs = c.atMs + settleMs(ctx);
  const orderId = order(ctx, {
    userId: c.who.userId,
    kind: 'subscription_payment',
    priceOere: c.total,
    paymentStatus: 'paid',
    billingPeriod: c.month.key,
    idempotencyKey:
      c.method === 'agreement' ? monthChargeKey(c.who.userId, c.month.key) : ctx.random.hex(32),
    requestHash: c.method === 'agreement' ? PAY_WITH_AGREEMENT : PAY_WITH_CARD,
    createdMs: c.atMs,
    completedMs: doneMs,
  });
  const paymentId = payment(ctx, {
    orderId,
    userId: c.who.userId,
    amountOere: c.total,
    method: c.method,
    state: 'paid',
    card: c.card,
    agreementRef: c.ref,
    createdMs: c.atMs,
    updatedMs: doneMs,
  });
  receipt(ctx, {
    orderId,
    paymentId,
    customer: c.who,
    issuedMs: doneMs,
    items: c.items,
    card: c.card,
  });
  act(ctx, { userId: c.who.userId, type: 'payment', amountOere: c.total, atMs: doneMs });
  notify(ctx, {
    userId: c.who.userId,
    type: 'payment',
    params: {
      title: { fo: 'Mánaðargjaldið er goldið', en: 'Monthly price paid' },
      body: {
        fo: `Takk! Gjaldið fyri ${c.month.key} er móttikið.`,
        en: `Thank you! The payment for ${c.month.key} was received.`,
      },
    },
    link: '/menu/kvittanir',
    atMs: doneMs,
  });
}

/**
 * Charged on the agreement, not answered yet: the test provider has it processing (a slow
 * card) and settles it within the day, so an API started on this database finishes it.
 */
function pendingMonth(ctx: GenContext, c: MonthCharge, agreement: Agreement): void {
  const orderId = order(ctx, {
    userId: c.who.userId,
    kind: 'subscription_payment',
    priceOere: c.total,
    paymentStatus: 'pending',
    billingPeriod: c.month.key,
    idempotencyKey: monthChargeKey(c.who.userId, c.month.key),
    requestHash: PAY_WITH_AGREEMENT,
    createdMs: c.atMs,
  });
  const updatedMs = c.atMs + settleMs(ctx);
  const paymentId = payment(ctx, {
    orderId,
    userId: c.who.userId,
    amountOere: c.total,
    method: 'agreement',
    state: 'pending',
    card: agreement.card,
    agreementRef: agreement.ref,
    createdMs: c.atMs,
    updatedMs,
  });
  ctx.out.row(SPECS.testProviderPayments, {
    id: providerPaymentIdOf(paymentId),
    kind: 'agreement_charge',
    merchantReference: paymentId,
    amountOere: c.total,
    state: 'processing',
    description: `Alda: mánaðargjald ${formatMonth(c.month.key, 'fo')}`,
    settleAt: ctx.cal.nowMs + ctx.random.int(10, 600) * MINUTE,
    cardId: agreement.ref,
    cardBrand: agreement.card.brand,
    cardLast4: agreement.card.last4,
    cardExpiry: agreement.card.expiry,
    createdAt: c.atMs,
    updatedAt: updatedMs,
  });
}

/** Declined on the agreement: the order ends (its key kept, not tried again); often paid by card. */
function failedMonth(ctx: GenContext, c: MonthCharge, agreement: Agreement): void {
  const failedMs = c.atMs + settleMs(ctx);
  const orderId = order(ctx, {
    userId: c.who.userId,
    kind: 'subscription_payment',
    priceOere: c.total,
    paymentStatus: 'failed',
    billingPeriod: c.month.key,
    idempotencyKey: monthChargeKey(c.who.userId, c.month.key),
    requestHash: PAY_WITH_AGREEMENT,
    createdMs: c.atMs,
    cancelledMs: failedMs,
  });
  payment(ctx, {
    orderId,
    userId: c.who.userId,
    amountOere: c.total,
    method: 'agreement',
    state: 'failed',
    card: agreement.card,
    agreementRef: agreement.ref,
    failureReason: 'declined',
    createdMs: c.atMs,
    updatedMs: failedMs,
  });
  notify(ctx, {
    userId: c.who.userId,
    type: 'payment',
    params: {
      title: { fo: 'Mánaðargjaldið er ikki goldið', en: 'Monthly price not paid' },
      body: {
        fo: 'Vit kundu ikki taka mánaðargjaldið av gjaldsavtaluni. Gjald mánaðin í appini.',
        en: 'We could not take the monthly price from your payment agreement. Pay the month in the app.',
      },
    },
    link: '/menu/manadargjald',
    atMs: failedMs,
  });
  const retryMs = failedMs + ctx.random.int(2, 120) * HOUR;
  if (retryMs < ctx.cal.nowMs && ctx.random.chance(RATIOS.paidAfterFailure))
    paidMonth(ctx, { ...c, atMs: retryMs, method: 'card', card: randomCard(ctx), ref: null });
}

/** A purchase paid on the provider's card page: order, payment and (when paid) receipt. */
function cardPurchase(
  ctx: GenContext,
  p: {
    who: Payer;
    line: Line;
    kind: 'top_up' | 'extra_package';
    packageId?: string;
    oere: number;
    atMs: number;
    text: { fo: string; en: string };
    abandoned: boolean;
  },
): boolean {
  const card = randomCard(ctx);
  const doneMs = p.atMs + ctx.random.int(20, 300) * 1000;
  const orderId = order(ctx, {
    userId: p.who.userId,
    accountId: p.line.account.id,
    lineId: p.line.id,
    kind: p.kind,
    msisdn: p.line.msisdn,
    packageId: p.packageId ?? null,
    priceOere: p.oere,
    paymentStatus: p.abandoned ? 'cancelled' : 'paid',
    idempotencyKey: ctx.random.hex(32),
    createdMs: p.atMs,
    completedMs: p.abandoned ? null : doneMs,
    cancelledMs: p.abandoned ? doneMs : null,
  });
  const paymentId = payment(ctx, {
    orderId,
    userId: p.who.userId,
    amountOere: p.oere,
    method: 'card',
    state: p.abandoned ? 'cancelled' : 'paid',
    card: p.abandoned ? null : card,
    failureReason: p.abandoned ? 'cancelled' : null,
    createdMs: p.atMs,
    updatedMs: doneMs,
  });
  if (!p.abandoned)
    receipt(ctx, {
      orderId,
      paymentId,
      customer: p.who,
      issuedMs: doneMs,
      items: [{ text: p.text, oere: p.oere }],
      card,
    });
  return !p.abandoned;
}

/** The top-ups of a prepaid line over the history, and the credit left now. */
export function emitTopUps(ctx: GenContext, line: Line): void {
  const who = payer(userOfLine(line));
  let last = 5_000;
  for (const month of ctx.cal.months) {
    if (!ctx.random.chance(RATIOS.topUpsPerMonth)) continue;
    const from = Math.max(month.startMs, line.createdMs);
    const to = Math.min(month.endMs, ctx.cal.nowMs);
    if (from >= to) continue;
    const atMs = between(ctx, from, to);
    const oere = ctx.random.weighted(
      TOP_UP_AMOUNTS.map((a, i) => [a, [30, 40, 20, 7, 3][i] ?? 1] as const),
    );
    const paid = cardPurchase(ctx, {
      who,
      line,
      kind: 'top_up',
      oere,
      atMs,
      text: topUpReceiptText(line.msisdn),
      abandoned: ctx.random.chance(0.03),
    });
    if (!paid) continue;
    last = oere;
    act(ctx, { userId: who.userId, lineId: line.id, type: 'top_up', amountOere: oere, atMs });
    notify(ctx, {
      userId: who.userId,
      type: 'payment',
      params: {
        phoneNumber: line.msisdn,
        title: { fo: 'Fylt uppá', en: 'Topped up' },
        body: {
          fo: `Innistøðan á ${formatPhoneNumber(line.msisdn)} er fylt uppá við ${formatKr(oere, 'fo')}`,
          en: `The credit on ${formatPhoneNumber(line.msisdn)} was topped up by ${formatKr(oere, 'en')}`,
        },
      },
      link: '/',
      atMs,
    });
  }
  ctx.out.row(SPECS.prepaidBalances, {
    lineId: line.id,
    balanceOere: Math.round(last * ctx.random.next()) + ctx.random.int(0, 2_000),
    updatedAt: ctx.cal.nowMs - ctx.random.int(1, 20 * 24) * HOUR,
  });
}

/**
 * An extra package bought for a line that ran out of data (usage.ts decides when): paid by
 * card by whoever may buy for the line — its user, or the owner for a child or when the owner
 * approves the member's purchases. Answers whether it was paid (its data then counts).
 */
export function buyPackage(ctx: GenContext, line: Line, packageId: string, atMs: number): boolean {
  const buyer = payer(line.purchaseApproval || !line.user.userId ? line.account.owner : line.user);
  const pkg = extraPackage(packageId);
  const paid = cardPurchase(ctx, {
    who: buyer,
    line,
    kind: 'extra_package',
    packageId,
    oere: pkg.priceOere,
    atMs,
    text: packageReceiptText(pkg, line.msisdn, atMs),
    abandoned: ctx.random.chance(0.05),
  });
  if (!paid) return false;
  const packageName = { fo: pkg.nameFo, en: pkg.nameEn };
  const users = new Set([buyer.userId, line.user.userId].filter((id): id is string => id !== null));
  for (const userId of users) {
    act(ctx, {
      userId,
      lineId: line.id,
      actorUserId: userId === buyer.userId ? null : buyer.userId,
      type: 'package_purchased',
      payload: { packageName },
      dataMb: pkg.dataMb,
      amountOere: pkg.priceOere,
      atMs,
    });
    notify(ctx, {
      userId,
      type: 'package',
      params: {
        phoneNumber: line.msisdn,
        dataMb: pkg.dataMb,
        title: { fo: 'Eykapakkin er settur til', en: 'Extra package added' },
        body: {
          fo: `Eykapakkin ${pkg.nameFo} (${formatData(pkg.dataMb, 'fo')}) er lagdur afturat ${formatPhoneNumber(line.msisdn)}.`,
          en: `The extra package ${pkg.nameEn} (${formatData(pkg.dataMb, 'en')}) was added to ${formatPhoneNumber(line.msisdn)}.`,
        },
      },
      link: '/',
      atMs,
    });
  }
  return true;
}
