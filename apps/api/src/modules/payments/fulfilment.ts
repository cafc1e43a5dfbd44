import { endOfMonth, formatDate, startOfMonth } from '@alda/contract/format/date';
import { formatData } from '@alda/contract/format/data';
import { formatKr } from '@alda/contract/format/money';
import { formatPhoneNumber } from '@alda/contract/format/phone';
import type { Db } from '../../db/client';
import type { NewActionRow } from '../../db/schema/actions';
import type { NewNotificationRow } from '../../db/schema/data-transfers';
import type { OrderRow } from '../../db/schema/orders';
import type { PaymentRow } from '../../db/schema/payments';
import { replaceAgreement } from '../agreements/card-on-file';
import { approvePaidPackageRequest } from '../controls/approval';
import { findLinesByIds } from '../data-transfers/lines';
import { insertActions } from '../actions/log';
import { insertNotifications } from '../notifications/notify';
import { completeOrder } from '../orders/lifecycle';
import { addPackageData, findPackageById } from '../packages/package-data';
import { monthlyPriceLines } from '../billing/price';
import { markExtrasCharged } from '../billing/extras';
import { loadBilledAccounts } from '../billing/service';
import {
  issueReceipt,
  monthReceiptItems,
  type ReceiptItem,
  type ReceiptText,
} from '../receipts/issue';
import { addPrepaidCredit } from '../top-ups/credit';
import { initialBuckets } from '../usage/balance';
import { insertMissingBalances, lockBalances } from '../usage/balance-rows';
import { bumpUserVersions } from '../versions/change-versions';

export interface FulfilmentContext {
  /**
   * The transaction that moves the payment to `paid` (and sets `fulfilled_at`). Typed as the
   * query builder every repo takes, so the handle of `db.transaction(...)` fits as it is.
   */
  tx: Db;
  order: OrderRow;
  payment: PaymentRow;
  now: Date;
}

/** What one kind of order does once paid: its effect, log entry, notification and receipt text. */
interface Effect {
  actions: NewActionRow[];
  notifications: NewNotificationRow[];
  /** What the receipt line says; null when the order has no receipt line of its own. */
  receipt: ReceiptText | null;
  /** The receipt itemised, when it can be (used only if the items add up to the amount). */
  items?: ReceiptItem[];
  /** Customers whose screens change (their change version is bumped for polling). */
  touched: string[];
}

/** The receipt line of a package: what, for which number, valid until when (SPEC §1). */
export function packageReceiptText(
  pkg: { nameFo: string; nameEn: string },
  msisdn: string,
  validUntil: Date,
): ReceiptText {
  const until = formatDate(validUntil);
  return {
    fo: `Eykapakki ${pkg.nameFo} til ${formatPhoneNumber(msisdn)}, galdandi til ${until}`,
    en: `Extra package ${pkg.nameEn} for ${formatPhoneNumber(msisdn)}, valid until ${until}`,
  };
}

/** The receipt line of a top-up. */
export function topUpReceiptText(msisdn: string): ReceiptText {
  return {
    fo: `Áfylling av talutíð til ${formatPhoneNumber(msisdn)}`,
    en: `Top-up of prepaid ${formatPhoneNumber(msisdn)}`,
  };
}

function need<T>(value: T | null | undefined, what: string, order: OrderRow): T {
  if (value === null || value === undefined)
    throw new Error(`order ${order.id} (${order.kind}) has no ${what}`);
  return value;
}

/**
 * Adds a bought package to the line's balance of the month (created if the line has none yet),
 * locked like every other move of data (ADR 0040). Valid until month end (SPEC §1): the balance
 * is the month's, and the order's completion time dates it.
 */
async function fulfilPackage(tx: Db, order: OrderRow, now: Date): Promise<Effect> {
  const lineId = need(order.lineId, 'line', order);
  const pkg = need(
    await findPackageById(tx, need(order.packageId, 'package', order)),
    'package row',
    order,
  );
  const [line] = await findLinesByIds(tx, [lineId]);
  const current = need(line, 'line row', order);
  await insertMissingBalances(tx, [
    {
      lineId,
      periodStart: startOfMonth(now),
      ...initialBuckets(current.dataMb ?? 0, current.euAllowanceMb),
      updatedAt: now,
    },
  ]);
  await lockBalances(tx, [lineId]);
  await addPackageData(tx, lineId, pkg.kind, pkg.dataMb, now);
  // An owner's payment of a member's package request approves it (ADR 0068).
  const decided = await approvePaidPackageRequest(tx, order, now);
  const until = formatDate(endOfMonth(now));
  const userIds = [...new Set([order.userId, current.customerId].filter((u): u is string => !!u))];
  const packageName = { fo: pkg.nameFo, en: pkg.nameEn };
  return {
    actions: userIds.map((userId) => ({
      userId,
      lineId,
      actorUserId: userId === order.userId ? null : order.userId,
      type: 'package_purchased',
      payload: { packageName },
      dataMb: pkg.dataMb,
      amountOere: order.priceOere,
      createdAt: now,
    })),
    notifications: userIds.map((userId) => ({
      userId,
      type: 'package',
      params: {
        phoneNumber: current.msisdn,
        dataMb: pkg.dataMb,
        // The member whose request the owner paid: the answer to it, pushed (ADR 0096).
        ...(decided.length > 0 && userId !== order.userId ? { outcome: 'approved' } : {}),
        title: { fo: 'Eykapakkin er settur til', en: 'Extra package added' },
        body: {
          fo: `Eykapakkin ${pkg.nameFo} (${formatData(pkg.dataMb, 'fo')}) er lagdur afturat ${formatPhoneNumber(current.msisdn)} og er galdandi til ${until}.`,
          en: `The extra package ${pkg.nameEn} (${formatData(pkg.dataMb, 'en')}) was added to ${formatPhoneNumber(current.msisdn)} and is valid until ${until}.`,
        },
      },
      link: '/',
      createdAt: now,
    })),
    receipt: packageReceiptText(pkg, current.msisdn, endOfMonth(now)),
    touched: [...userIds, ...decided],
  };
}

/** Adds the amount paid to the prepaid line's credit. */
async function fulfilTopUp(
  tx: Db,
  order: OrderRow,
  payment: PaymentRow,
  now: Date,
): Promise<Effect> {
  const lineId = need(order.lineId, 'line', order);
  await addPrepaidCredit(tx, lineId, payment.amountOere, now);
  const msisdn = order.msisdn ?? '';
  return {
    actions: [
      {
        userId: order.userId,
        lineId,
        type: 'top_up',
        payload: {},
        amountOere: payment.amountOere,
        createdAt: now,
      },
    ],
    notifications: [
      {
        userId: order.userId,
        type: 'payment',
        params: {
          phoneNumber: msisdn,
          title: { fo: 'Fylt uppá', en: 'Topped up' },
          body: {
            fo: `Innistøðan á ${formatPhoneNumber(msisdn)} er fylt uppá við ${formatKr(payment.amountOere, 'fo')}`,
            en: `The credit on ${formatPhoneNumber(msisdn)} was topped up by ${formatKr(payment.amountOere, 'en')}`,
          },
        },
        link: '/',
        createdAt: now,
      },
    ],
    receipt: topUpReceiptText(msisdn),
    touched: [order.userId],
  };
}

/** Makes the checked card the active agreement, cancelling the one it replaces. */
async function fulfilAgreement(
  tx: Db,
  order: OrderRow,
  payment: PaymentRow,
  now: Date,
): Promise<Effect> {
  await replaceAgreement(
    tx,
    order.userId,
    {
      cardBrand: payment.cardBrand,
      cardLast4: payment.cardLast4,
      cardExpiry: payment.cardExpiry,
      providerReference: payment.providerAgreementRef,
      provider: payment.provider,
    },
    now,
  );
  const card = [payment.cardBrand, payment.cardLast4 ? `•••• ${payment.cardLast4}` : null]
    .filter(Boolean)
    .join(' ');
  // A wallet agreement (MobilePay, ADR 0081) has no card digits: it is named, not a card.
  const wallet = payment.cardLast4 === null && payment.cardBrand !== null;
  const body = wallet
    ? {
        fo: `Nú verður mánaðargjaldið goldið við ${card}.`,
        en: `The monthly payment will now be paid with ${card}.`,
      }
    : {
        fo: `Nú verður mánaðargjaldið goldið við kortinum ${card}.`,
        en: `The card ${card} will now be used for the monthly payment.`,
      };
  return {
    actions: [{ userId: order.userId, type: 'profile_updated', payload: {}, createdAt: now }],
    notifications: [
      {
        userId: order.userId,
        type: 'payment',
        params: {
          title: { fo: 'Gjaldsavtalan er klár', en: 'Payment agreement ready' },
          body,
        },
        link: '/min-brukari/gjaldsavtala',
        createdAt: now,
      },
    ],
    receipt: wallet
      ? { fo: `Gjaldsavtala við ${card}`, en: `Payment agreement with ${card}` }
      : { fo: `Kortkanning ${card}`, en: `Card check ${card}` },
    touched: [order.userId],
  };
}

/**
 * The month is paid: the paid order with its `billing_period` is the record of it. The receipt
 * lists the month's price lines as they are now (they add up to the amount paid unless the
 * price changed in between; then it has one line for the month). The extra lines among them —
 * easy numbers' one-off prices (ADR 0077), past months' roaming charges (ADR 0078) — are charged
 * now, in this transaction, each a line of its own.
 */
async function fulfilMonth(
  tx: Db,
  order: OrderRow,
  payment: PaymentRow,
  now: Date,
): Promise<Effect> {
  const period = need(order.billingPeriod, 'billing period', order);
  const accounts = await loadBilledAccounts(tx, order.userId, now);
  const fo = monthlyPriceLines(accounts, 'fo').lines;
  const en = monthlyPriceLines(accounts, 'en').lines;
  // An extra is charged only by a payment whose amount held it (the lines add up to it); else
  // it stays owed and goes with the next payment.
  if (fo.reduce((sum, line) => sum + line.price.gross, 0) === payment.amountOere)
    await markExtrasCharged(
      tx,
      accounts.flatMap((a) => a.extras ?? []),
      order.id,
      now,
    );
  const items = monthReceiptItems(fo, en, period);
  return {
    actions: [
      {
        userId: order.userId,
        type: 'payment',
        payload: {},
        amountOere: payment.amountOere,
        createdAt: now,
      },
    ],
    notifications: [
      {
        userId: order.userId,
        type: 'payment',
        params: {
          title: { fo: 'Mánaðargjaldið er goldið', en: 'Monthly price paid' },
          body: {
            fo: `Takk! Gjaldið fyri ${period} er móttikið.`,
            en: `Thank you! The payment for ${period} was received.`,
          },
        },
        link: '/menu/kvittanir',
        createdAt: now,
      },
    ],
    receipt: { fo: `Mánaðargjald fyri ${period}`, en: `Monthly price for ${period}` },
    items,
    touched: [order.userId],
  };
}

/**
 * Carries out a paid order (docs/decisions/0052-commerce-and-receipts.md). The payments core calls
 * it exactly once per payment, inside the transaction that moves the payment to `paid` and sets
 * `fulfilled_at`, so the package, credit, agreement or paid month, the completed order, the
 * receipt, the log entry and the notification all commit together with the payment — or not at
 * all.
 */
export async function fulfilPaidOrder(ctx: FulfilmentContext): Promise<void> {
  const { tx, order, payment, now } = ctx;
  let effect: Effect;
  switch (order.kind) {
    case 'extra_package':
      effect = await fulfilPackage(tx, order, now);
      break;
    case 'top_up':
      effect = await fulfilTopUp(tx, order, payment, now);
      break;
    case 'payment_agreement':
      effect = await fulfilAgreement(tx, order, payment, now);
      break;
    case 'subscription_payment':
      effect = await fulfilMonth(tx, order, payment, now);
      break;
    default:
      throw new Error(`order kind ${order.kind} is not paid by card`);
  }
  await completeOrder(tx, order.id, now);
  if (payment.amountOere > 0 && effect.receipt)
    await issueReceipt(tx, {
      order,
      payment,
      text: effect.receipt,
      now,
      ...(effect.items ? { items: effect.items } : {}),
    });
  await insertActions(tx, effect.actions);
  await insertNotifications(tx, effect.notifications);
  await bumpUserVersions(tx, effect.touched);
}
