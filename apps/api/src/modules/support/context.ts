import { desc, inArray } from 'drizzle-orm';
import type { StaffSupportContext } from '@alda/contract/schemas/staff-support';
import type { Db } from '../../db/client';
import { provisioningSteps } from '../../db/schema/provisioning';
import type { SupportConversationRow } from '../../db/schema/support';
import { plans } from '../../db/schema/catalog';
import { findCustomer } from './repo';
import {
  findLinesOfCustomer,
  findOrdersOfCustomer,
  findPaymentsOfCustomer,
} from '../staff/customer-records';

/*
 * The customer beside a support thread (issue 46 "Staff work the inbox with the customer's
 * context beside it"): lines, open orders with where each stands, recent payments, and the item
 * the conversation is about. The same reads the customer area makes; the service records the
 * access in the audit log with the conversation as the reason.
 */

/** How many payments the panel shows. */
const RECENT_PAYMENTS = 5;

export async function supportContext(
  db: Db,
  conversation: SupportConversationRow,
): Promise<StaffSupportContext> {
  const subject = {
    type: conversation.subjectType,
    id: conversation.subjectId,
    reference: conversation.subjectReference,
  };
  const userId = conversation.userId;
  const user = userId ? await findCustomer(db, userId) : undefined;
  if (!userId || !user) return { customer: null, lines: [], openOrders: [], payments: [], subject };

  const lines = await findLinesOfCustomer(db, userId);
  const planIds = [
    ...new Set(
      lines.flatMap(({ line, account }) => {
        const id = line.planId ?? account?.planId;
        return id ? [id] : [];
      }),
    ),
  ];
  const planNames = new Map(
    planIds.length === 0
      ? []
      : (
          await db
            .select({ id: plans.id, name: plans.nameEn })
            .from(plans)
            .where(inArray(plans.id, planIds))
        ).map((p) => [p.id, p.name]),
  );
  const open = (
    await findOrdersOfCustomer(
      db,
      userId,
      lines.map(({ line }) => line.id),
    )
  ).filter((order) => !order.isComplete && !order.isCancelled);
  // Each open order's latest step, in one read: newest first, the first seen per order wins.
  const latestStep = new Map<string, string>();
  if (open.length > 0) {
    const steps = await db
      .select({ orderId: provisioningSteps.orderId, step: provisioningSteps.step })
      .from(provisioningSteps)
      .where(
        inArray(
          provisioningSteps.orderId,
          open.map((order) => order.id),
        ),
      )
      .orderBy(desc(provisioningSteps.at));
    for (const { orderId, step } of steps)
      if (!latestStep.has(orderId)) latestStep.set(orderId, step);
  }
  const openOrders = open.map((order) => ({
    id: order.id,
    kind: order.kind,
    msisdn: order.msisdn,
    status: latestStep.get(order.id) ?? order.paymentStatus,
    createdAt: order.createdAt.toISOString(),
  }));
  const payments = (await findPaymentsOfCustomer(db, userId))
    .slice(0, RECENT_PAYMENTS)
    .map(({ payment }) => ({
      id: payment.id,
      amountOere: payment.amountOere,
      method: payment.method,
      state: payment.state,
      createdAt: payment.createdAt.toISOString(),
    }));
  return {
    customer: {
      id: user.id,
      name: `${user.firstname} ${user.lastname}`,
      email: user.email,
      phoneNumber: user.phoneNumber ?? null,
      locale: user.locale === 'en' ? 'en' : 'fo',
    },
    lines: lines
      .filter(({ line }) => line.status !== 'cancelled')
      .map(({ line, account }) => ({
        msisdn: line.msisdn,
        status: line.status,
        planName: planNames.get(line.planId ?? account?.planId ?? '') ?? null,
      })),
    openOrders,
    payments,
    subject,
  };
}
