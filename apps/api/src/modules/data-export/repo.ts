import { and, asc, desc, eq, inArray, isNotNull, lte, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { accounts } from '../../db/schema/accounts';
import { paymentAgreements } from '../../db/schema/agreements';
import { plans } from '../../db/schema/catalog';
import { notifications } from '../../db/schema/data-transfers';
import { dataExports, type DataExportRow } from '../../db/schema/number-protection';
import { orders } from '../../db/schema/orders';
import { paymentRefunds, payments, receipts } from '../../db/schema/payments';
import { phoneLines } from '../../db/schema/phone-lines';
import { sessions } from '../../db/schema/sessions';
import { passkeys } from '../../db/schema/passkeys';
import { billItems, bills } from '../../db/schema/bills';
import { users, type UserRow } from '../../db/schema/users';
import { supportAttachments, supportConversations, supportMessages } from '../../db/schema/support';

/** An export without its file: what lists and the worker's bookkeeping read. */
export type DataExportInfo = Omit<DataExportRow, 'file'> & { hasFile: boolean };

const info = {
  id: dataExports.id,
  userId: dataExports.userId,
  state: dataExports.state,
  progress: dataExports.progress,
  locale: dataExports.locale,
  createdAt: dataExports.createdAt,
  readyAt: dataExports.readyAt,
  expiresAt: dataExports.expiresAt,
  downloadedAt: dataExports.downloadedAt,
  byteSize: dataExports.byteSize,
  hasFile: sql<boolean>`${dataExports.file} is not null`,
};

/** Adds a queued export; the partial unique index refuses a second pending one of the user. */
export async function insertExport(
  db: Db,
  row: { userId: string; locale: string; createdAt: Date },
): Promise<DataExportInfo> {
  const [inserted] = await db
    .insert(dataExports)
    .values({ ...row, state: 'queued', progress: 0 })
    .returning(info);
  if (!inserted) throw new Error('insert into data_exports returned no row');
  return inserted;
}

export async function hasPendingExport(db: Db, userId: string): Promise<boolean> {
  const n = await db.$count(
    dataExports,
    and(eq(dataExports.userId, userId), inArray(dataExports.state, ['queued', 'preparing'])),
  );
  return n > 0;
}

/** The user's newest exports, newest first. */
export async function findExportsOfUser(
  db: Db,
  userId: string,
  limit: number,
): Promise<DataExportInfo[]> {
  return db
    .select(info)
    .from(dataExports)
    .where(eq(dataExports.userId, userId))
    .orderBy(desc(dataExports.createdAt), desc(dataExports.id))
    .limit(limit);
}

/** One export with its file (the download). */
export async function findExport(db: Db, id: string): Promise<DataExportRow | undefined> {
  const [row] = await db.select().from(dataExports).where(eq(dataExports.id, id));
  return row;
}

/**
 * Claims the oldest export to prepare: a queued one, or one whose preparing worker's lease ran
 * out (the instance died mid-way). While `preparing`, `expires_at` holds the worker's lease: it
 * is set here and moved on with every step, and a step that no longer finds its own lease there
 * has lost the export to another worker. `FOR UPDATE SKIP LOCKED`, so instances never claim the
 * same export; committed at once, so the app sees `preparing`.
 */
export async function claimNextExport(
  db: Db,
  now: Date,
  leaseUntil: Date,
): Promise<DataExportInfo | undefined> {
  return db.transaction(async (tx) => {
    const [next] = await tx
      .select({ id: dataExports.id })
      .from(dataExports)
      .where(
        or(
          eq(dataExports.state, 'queued'),
          and(eq(dataExports.state, 'preparing'), lte(dataExports.expiresAt, now)),
        ),
      )
      .orderBy(asc(dataExports.createdAt))
      .limit(1)
      .for('update', { skipLocked: true });
    if (!next) return undefined;
    const [claimed] = await tx
      .update(dataExports)
      .set({ state: 'preparing', progress: 0, expiresAt: leaseUntil })
      .where(eq(dataExports.id, next.id))
      .returning(info);
    return claimed;
  });
}

/** The export is still preparing under this lease: the worker that took the lease still holds it. */
const leaseHeld = (id: string, lease: Date) =>
  and(eq(dataExports.id, id), eq(dataExports.state, 'preparing'), eq(dataExports.expiresAt, lease));

/** Moves a preparing export's progress and lease on; false when the lease is no longer ours. */
export async function advanceExport(
  db: Db,
  id: string,
  lease: Date,
  progress: number,
  nextLease: Date,
): Promise<boolean> {
  const rows = await db
    .update(dataExports)
    .set({ progress, expiresAt: nextLease })
    .where(leaseHeld(id, lease))
    .returning({ id: dataExports.id });
  return rows.length > 0;
}

/** Stores the ZIP and makes the export ready (in the caller's transaction); false if the lease is lost. */
export async function finishExport(
  db: Db,
  id: string,
  lease: Date,
  done: { file: Buffer; readyAt: Date; expiresAt: Date },
): Promise<boolean> {
  const rows = await db
    .update(dataExports)
    .set({
      state: 'ready',
      progress: 100,
      file: done.file,
      byteSize: done.file.length,
      readyAt: done.readyAt,
      expiresAt: done.expiresAt,
    })
    .where(leaseHeld(id, lease))
    .returning({ id: dataExports.id });
  return rows.length > 0;
}

export async function failExport(db: Db, id: string, lease: Date): Promise<void> {
  await db
    .update(dataExports)
    .set({ state: 'failed', expiresAt: null })
    .where(leaseHeld(id, lease));
}

/** Removes the files of ready exports whose link has expired; answers how many. */
export async function removeExpiredFiles(db: Db, now: Date): Promise<number> {
  const rows = await db
    .update(dataExports)
    .set({ file: null })
    .where(
      and(
        eq(dataExports.state, 'ready'),
        lte(dataExports.expiresAt, now),
        isNotNull(dataExports.file),
      ),
    )
    .returning({ id: dataExports.id });
  return rows.length;
}

export async function markDownloaded(db: Db, id: string, at: Date): Promise<void> {
  await db
    .update(dataExports)
    .set({
      downloadedAt: sql`coalesce(${dataExports.downloadedAt}, ${at.toISOString()}::timestamptz)`,
    })
    .where(eq(dataExports.id, id));
}

/* What the ZIP holds, area by area: each read takes only the columns the export shows. */

export async function findUser(db: Db, userId: string): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(eq(users.id, userId));
  return row;
}

/** Accounts the user owns, with their plan's names and price. */
export async function findOwnedAccounts(db: Db, userId: string) {
  return db
    .select({
      id: accounts.id,
      type: accounts.type,
      status: accounts.status,
      planId: accounts.planId,
      planNameFo: plans.nameFo,
      planNameEn: plans.nameEn,
      monthlyPriceOere: plans.monthlyPriceOere,
      dataMb: plans.dataMb,
      euPackage: accounts.euPackage,
      createdAt: accounts.createdAt,
      statusChangedAt: accounts.statusChangedAt,
    })
    .from(accounts)
    .leftJoin(plans, eq(accounts.planId, plans.id))
    .where(eq(accounts.ownerUserId, userId))
    .orderBy(asc(accounts.createdAt));
}

/**
 * Lines the user uses and the lines of accounts they own (family members). PIN, PUK and the
 * eSIM activation code are not read at all: they are security secrets, not the customer's data
 * to carry elsewhere (the app shows them after the password).
 */
export async function findLines(db: Db, userId: string, ownedAccountIds: readonly string[]) {
  const mine = eq(phoneLines.userId, userId);
  return db
    .select({
      id: phoneLines.id,
      userId: phoneLines.userId,
      msisdn: phoneLines.msisdn,
      status: phoneLines.status,
      accountId: phoneLines.accountId,
      planId: phoneLines.planId,
      simType: phoneLines.simType,
      isPrepaid: phoneLines.isPrepaid,
      iccid: phoneLines.iccid,
      esimInstalled: phoneLines.esimInstalled,
      holderFirstname: phoneLines.holderFirstname,
      holderLastname: phoneLines.holderLastname,
      phoneBookVisible: phoneLines.phoneBookVisible,
      dataPausedAt: phoneLines.dataPausedAt,
      purchaseApproval: phoneLines.purchaseApproval,
      numberLocked: phoneLines.numberLocked,
      unlockAt: phoneLines.unlockAt,
      simChangedAt: phoneLines.simChangedAt,
      createdAt: phoneLines.createdAt,
      activatedAt: phoneLines.activatedAt,
      statusChangedAt: phoneLines.statusChangedAt,
      expiresAt: phoneLines.expiresAt,
    })
    .from(phoneLines)
    .where(
      ownedAccountIds.length > 0 ? or(mine, inArray(phoneLines.accountId, ownedAccountIds)) : mine,
    )
    .orderBy(asc(phoneLines.createdAt));
}

export async function findOrders(db: Db, userId: string) {
  return db
    .select({
      id: orders.id,
      kind: orders.kind,
      accountId: orders.accountId,
      lineId: orders.lineId,
      msisdn: orders.msisdn,
      planId: orders.planId,
      packageId: orders.packageId,
      memberFirstname: orders.memberFirstname,
      memberLastname: orders.memberLastname,
      priceOere: orders.priceOere,
      paymentStatus: orders.paymentStatus,
      billingPeriod: orders.billingPeriod,
      isComplete: orders.isComplete,
      isCancelled: orders.isCancelled,
      simDelivery: orders.simDelivery,
      shippingAddress: orders.shippingAddress,
      shippingPostCode: orders.shippingPostCode,
      shippingCity: orders.shippingCity,
      simcardNumber: orders.simcardNumber,
      isPorting: orders.isPorting,
      portDate: orders.portDate,
      euPackage: orders.euPackage,
      lifecycleAction: orders.lifecycleAction,
      effectiveAt: orders.effectiveAt,
      createdAt: orders.createdAt,
      completedAt: orders.completedAt,
      cancelledAt: orders.cancelledAt,
    })
    .from(orders)
    .where(eq(orders.userId, userId))
    .orderBy(asc(orders.createdAt));
}

/**
 * Payments, refunds and cards on file: amounts, states and dates, the card's brand and last four
 * digits. Never the provider's ids, checkout addresses or agreement references, nor a card's
 * expiry (we hold no card numbers at all: the card stays with the provider).
 */
export async function findPayments(db: Db, userId: string) {
  const [paid, refunds, cards] = await Promise.all([
    db
      .select({
        id: payments.id,
        orderId: payments.orderId,
        amountOere: payments.amountOere,
        method: payments.method,
        state: payments.state,
        cardBrand: payments.cardBrand,
        cardLast4: payments.cardLast4,
        createdAt: payments.createdAt,
        updatedAt: payments.updatedAt,
        fulfilledAt: payments.fulfilledAt,
      })
      .from(payments)
      .where(eq(payments.userId, userId))
      .orderBy(asc(payments.createdAt)),
    db
      .select({
        id: paymentRefunds.id,
        paymentId: paymentRefunds.paymentId,
        amountOere: paymentRefunds.amountOere,
        state: paymentRefunds.state,
        reason: paymentRefunds.reason,
        createdAt: paymentRefunds.createdAt,
        refundedAt: paymentRefunds.refundedAt,
      })
      .from(paymentRefunds)
      .where(eq(paymentRefunds.userId, userId))
      .orderBy(asc(paymentRefunds.createdAt)),
    db
      .select({
        id: paymentAgreements.id,
        status: paymentAgreements.status,
        cardBrand: paymentAgreements.cardBrand,
        cardLast4: paymentAgreements.cardLast4,
        createdAt: paymentAgreements.createdAt,
        updatedAt: paymentAgreements.updatedAt,
      })
      .from(paymentAgreements)
      .where(eq(paymentAgreements.userId, userId))
      .orderBy(asc(paymentAgreements.createdAt)),
  ]);
  return { payments: paid, refunds, cards };
}

export async function findReceipts(db: Db, userId: string) {
  return db
    .select({
      id: receipts.id,
      number: receipts.number,
      orderId: receipts.orderId,
      issuedAt: receipts.issuedAt,
      lines: receipts.lines,
      vatRate: receipts.vatRate,
      netOere: receipts.netOere,
      vatOere: receipts.vatOere,
      grossOere: receipts.grossOere,
      customerName: receipts.customerName,
      customerAddress: receipts.customerAddress,
      customerEmail: receipts.customerEmail,
      cardBrand: receipts.cardBrand,
      cardLast4: receipts.cardLast4,
    })
    .from(receipts)
    .where(eq(receipts.userId, userId))
    .orderBy(asc(receipts.issuedAt));
}

export async function findNotifications(db: Db, userId: string) {
  return db
    .select({
      id: notifications.id,
      type: notifications.type,
      params: notifications.params,
      link: notifications.link,
      createdAt: notifications.createdAt,
      readAt: notifications.readAt,
    })
    .from(notifications)
    .where(eq(notifications.userId, userId))
    .orderBy(asc(notifications.createdAt));
}

/** Sign-ins: device, times, country. Never token hashes or the device key. */
export async function findSessions(db: Db, userId: string) {
  return db
    .select({
      id: sessions.id,
      createdAt: sessions.createdAt,
      lastUsedAt: sessions.lastUsedAt,
      revokedAt: sessions.revokedAt,
      revokedReason: sessions.revokedReason,
      userAgent: sessions.userAgent,
      deviceName: sessions.deviceName,
      devicePlatform: sessions.devicePlatform,
      deviceModel: sessions.deviceModel,
      deviceOsVersion: sessions.deviceOsVersion,
      country: sessions.country,
    })
    .from(sessions)
    .where(eq(sessions.userId, userId))
    .orderBy(asc(sessions.createdAt));
}

/**
 * Monthly bills (ADR 0098): the bills the customer pays, each with its items, and the items of
 * the customer's own numbers on a family owner's bill.
 */
export async function findBills(db: Db, userId: string) {
  const own = await db
    .select()
    .from(bills)
    .where(eq(bills.payerUserId, userId))
    .orderBy(asc(bills.serial));
  const items = await db
    .select()
    .from(billItems)
    .where(
      or(
        inArray(
          billItems.billId,
          own.map((b) => b.id),
        ),
        eq(billItems.lineUserId, userId),
      ),
    )
    .orderBy(asc(billItems.billId), asc(billItems.position));
  const item = (i: (typeof items)[number]) => ({
    phoneNumber: i.msisdn,
    kind: i.kind,
    descriptionFo: i.descriptionFo,
    descriptionEn: i.descriptionEn,
    grossOere: i.grossOere,
    netOere: i.netOere,
    vatOere: i.vatOere,
    paidAt: i.paidAt,
    paymentMethod: i.paymentMethod,
  });
  const ownIds = new Set(own.map((b) => b.id));
  return {
    bills: own.map((b) => ({
      number: b.number,
      period: b.period,
      issuedAt: b.issuedAt,
      dueDate: b.dueDate,
      customerName: b.customerName,
      customerAddress: b.customerAddress,
      customerEmail: b.customerEmail,
      netOere: b.netOere,
      vatOere: b.vatOere,
      grossOere: b.grossOere,
      paidOere: b.paidOere,
      paymentReference: b.paymentReference,
      items: items.filter((i) => i.billId === b.id).map(item),
    })),
    onFamilyBills: items.filter((i) => !ownIds.has(i.billId)).map(item),
  };
}

/** Passkeys (ADR 0097): name, when made and last used, synced or not. Never the public key. */
export async function findPasskeys(db: Db, userId: string) {
  return db
    .select({
      id: passkeys.id,
      name: passkeys.name,
      createdAt: passkeys.createdAt,
      lastUsedAt: passkeys.lastUsedAt,
      backedUp: passkeys.backedUp,
    })
    .from(passkeys)
    .where(eq(passkeys.userId, userId))
    .orderBy(asc(passkeys.createdAt));
}

/**
 * The customer's support conversations (issue 46) with their messages, oldest first: the
 * customer's own and the desk's answers; the desk's internal notes are working notes of the
 * desk and are not part of it (ADR 0088). Attachments without their bytes (those are files).
 */
export async function findSupportConversations(db: Db, userId: string) {
  const conversations = await db
    .select()
    .from(supportConversations)
    .where(eq(supportConversations.userId, userId))
    .orderBy(asc(supportConversations.createdAt));
  const ids = conversations.map((c) => c.id);
  if (ids.length === 0) return [];
  const messages = await db
    .select()
    .from(supportMessages)
    .where(
      and(inArray(supportMessages.conversationId, ids), sql`${supportMessages.kind} <> 'note'`),
    )
    .orderBy(asc(supportMessages.createdAt), asc(supportMessages.seq));
  const images = await db
    .select({
      id: supportAttachments.id,
      messageId: supportAttachments.messageId,
      contentType: supportAttachments.contentType,
    })
    .from(supportAttachments)
    .where(inArray(supportAttachments.conversationId, ids));
  return conversations.map((c) => ({
    id: c.id,
    subject: { type: c.subjectType, id: c.subjectId, reference: c.subjectReference },
    state: c.state,
    createdAt: c.createdAt,
    closedAt: c.closedAt,
    rating: c.ratingScore === null ? null : { score: c.ratingScore, comment: c.ratingComment },
    messages: messages
      .filter((m) => m.conversationId === c.id)
      .map((m) => ({
        from: m.kind === 'staff' ? 'alda' : 'you',
        text: m.body,
        at: m.createdAt,
        images: images
          .filter((i) => i.messageId === m.id)
          .map((i) => supportImageFile(i.id, i.contentType)),
      })),
  }));
}

/** The path of an image inside the export's ZIP. */
export const supportImageFile = (id: string, contentType: string) =>
  `support/${id}.${contentType === 'image/png' ? 'png' : 'jpg'}`;

/** The images of the customer's conversations, with their bytes. */
export async function findSupportImages(db: Db, userId: string) {
  return db
    .select({
      id: supportAttachments.id,
      contentType: supportAttachments.contentType,
      bytes: supportAttachments.bytes,
    })
    .from(supportAttachments)
    .innerJoin(supportConversations, eq(supportConversations.id, supportAttachments.conversationId))
    .where(eq(supportConversations.userId, userId));
}
