import { faroeMonth, startOfMonth } from '@alda/contract/format/date';
import { counterpartProblem, giftCeilingMb, giftProblem } from '@alda/contract/rules/data-transfer';
import type {
  CreateDataTransferRequest,
  DataTransfer,
  DataTransfersResponse,
} from '@alda/contract/schemas/data-transfers';
import type { Db } from '../../db/client';
import type { NewActionRow } from '../../db/schema/actions';
import type { DataTransferRow, NewNotificationRow } from '../../db/schema/data-transfers';
import { uniqueViolationOf } from '../../db/errors';
import { AppError } from '../../errors';
import { insertNotifications } from '../notifications/notify';
import { initialBuckets } from '../usage/balance';
import { insertMissingBalances, lockBalances } from '../usage/balance-rows';
import {
  bumpUserVersions,
  readUserVersion,
  type UserVersionReader,
} from '../versions/change-versions';
import { isUuid } from '../../uuid';
import {
  addGiven,
  decideTransfer,
  findByIdempotencyKey,
  findPendingRequestsFor,
  findTransfer,
  insertTransfer,
  lockGivenCounter,
  lockTransfer,
  shiftDomestic,
} from './repo';
import { findLineByMsisdn, findLinesByIds, type TransferLine } from './lines';
import { insertActions } from '../actions/log';

export interface DataTransferServiceDeps {
  db: Db;
  now: () => Date;
  /** Change versions from the instance's memory (ADR 0057); by default a database read. */
  versions?: UserVersionReader;
}

/** The name the other side may see: null when the customer keeps out of the phone book. */
function visibleName(line: TransferLine): string | null {
  if (!line.showInPhoneBook || !line.firstname) return null;
  return `${line.firstname} ${line.lastname ?? ''}`.trim();
}

const party = (line: TransferLine | undefined, fallback: string) => ({
  phoneNumber: line?.msisdn ?? fallback,
  name: line ? visibleName(line) : null,
});

/**
 * Data transfers (SPEC §4–§6; docs/decisions/0040-data-transfers.md): gifts move data at once,
 * requests wait for the asked customer. Every move of data is one transaction that locks both
 * balances (line id order) and then the giver's monthly counter before checking the limits, so
 * concurrent gifts and approvals can neither overdraw a balance nor pass the monthly ceiling.
 */
export function createDataTransferService(deps: DataTransferServiceDeps) {
  const { db, now } = deps;

  async function toDtos(rows: DataTransferRow[]): Promise<DataTransfer[]> {
    const lines = await findLinesByIds(
      db,
      rows.flatMap((r) => [r.requesterLineId, r.recipientLineId]),
    );
    const byId = new Map(lines.map((l) => [l.lineId, l]));
    return rows.map((r) => ({
      id: r.id,
      kind: r.kind,
      status: r.status,
      requester: party(byId.get(r.requesterLineId), '000000'),
      recipient: party(byId.get(r.recipientLineId), '000000'),
      dataAmount: r.dataMb,
      createdAt: r.createdAt.toISOString(),
      decidedAt: r.decidedAt?.toISOString() ?? null,
    }));
  }

  async function one(row: DataTransferRow): Promise<DataTransfer> {
    const [dto] = await toDtos([row]);
    if (!dto) throw new Error('data transfer without dto');
    return dto;
  }

  /**
   * Moves `mb` from `giver` to `receiver` inside `tx`: balances locked in line id order, then the
   * giver's counter; the SPEC §5 limits are checked on the locked rows.
   */
  async function move(tx: Db, giver: TransferLine, receiver: TransferLine, mb: number, at: Date) {
    const period = startOfMonth(at);
    const month = faroeMonth(at);
    await insertMissingBalances(
      tx,
      [giver, receiver].map((line) => ({
        lineId: line.lineId,
        periodStart: period,
        ...initialBuckets(line.dataMb ?? 0, line.euAllowanceMb),
        updatedAt: at,
      })),
    );
    const balances = await lockBalances(tx, [giver.lineId, receiver.lineId]);
    const giverBalance = balances.find((b) => b.lineId === giver.lineId);
    if (!giverBalance || balances.length !== 2) throw new Error('balances missing after insert');
    const counter = await lockGivenCounter(
      tx,
      giver.lineId,
      month,
      giftCeilingMb(giver.giftMaxMb),
      at,
    );
    const problem = giftProblem(
      {
        givenData: { current: counter.givenMb, max: counter.maxMb },
        dataRemaining: { domestic: giverBalance.domesticRemainingMb },
      },
      mb,
    );
    if (problem) throw new AppError(problem);
    await shiftDomestic(tx, giver.lineId, -mb, at);
    await shiftDomestic(tx, receiver.lineId, mb, at);
    await addGiven(tx, giver.lineId, month, mb, at);
  }

  /** Activity log entries of a move, one in each customer's log. */
  function moveActions(giver: TransferLine, receiver: TransferLine, mb: number, at: Date) {
    const rows: NewActionRow[] = [];
    if (giver.customerId)
      rows.push({
        userId: giver.customerId,
        lineId: giver.lineId,
        type: 'data_given',
        payload: {
          counterpart: {
            name: visibleName(receiver) ?? receiver.msisdn,
            phoneNumber: receiver.msisdn,
          },
        },
        dataMb: mb,
        createdAt: at,
      });
    if (receiver.customerId)
      rows.push({
        userId: receiver.customerId,
        lineId: receiver.lineId,
        type: 'data_received',
        payload: {
          counterpart: { name: visibleName(giver) ?? giver.msisdn, phoneNumber: giver.msisdn },
        },
        dataMb: mb,
        createdAt: at,
      });
    return rows;
  }

  function receivedNotification(
    userId: string,
    giver: TransferLine,
    mb: number,
    at: Date,
  ): NewNotificationRow {
    return {
      userId,
      type: 'data_received',
      params: { name: visibleName(giver), phoneNumber: giver.msisdn, dataMb: mb },
      link: null,
      createdAt: at,
    };
  }

  async function createOnce(
    userId: string,
    input: CreateDataTransferRequest,
    idempotencyKey: string | null,
  ): Promise<DataTransfer> {
    const self = counterpartProblem(input.fromPhoneNumber, input.phoneNumber);
    if (self) throw new AppError(self, { field: 'phoneNumber' });
    const own = await findLineByMsisdn(db, input.fromPhoneNumber);
    if (!own || own.customerId !== userId || own.status !== 'active')
      throw new AppError('FORBIDDEN', {
        field: 'fromPhoneNumber',
        detail: 'fromPhoneNumber is not an active line of the caller',
      });
    const other = await findLineByMsisdn(db, input.phoneNumber);
    if (!other) throw new AppError('NUMBER_NOT_FOUND', { field: 'phoneNumber' });
    if (other.customerId === userId) throw new AppError('SELF_REQUEST', { field: 'phoneNumber' });
    // ADR 0040: only active lines of a customer take part; requests not to prepaid numbers.
    if (
      !other.customerId ||
      other.status !== 'active' ||
      (input.kind === 'request' && other.isPrepaid)
    )
      throw new AppError('REQUEST_NOT_ALLOWED', { field: 'phoneNumber' });
    const otherUserId = other.customerId;
    const at = now();

    const row = await db.transaction(async (tx) => {
      if (input.kind === 'gift') {
        await move(tx, own, other, input.dataAmount, at);
        const transfer = await insertTransfer(tx, {
          kind: 'gift',
          status: 'approved',
          requesterLineId: own.lineId,
          requesterUserId: userId,
          recipientLineId: other.lineId,
          recipientUserId: otherUserId,
          dataMb: input.dataAmount,
          createdAt: at,
          decidedAt: at,
          idempotencyKey,
        });
        await insertActions(tx, moveActions(own, other, input.dataAmount, at));
        await insertNotifications(tx, [
          receivedNotification(otherUserId, own, input.dataAmount, at),
        ]);
        await bumpUserVersions(tx, [userId, otherUserId]);
        return transfer;
      }
      const transfer = await insertTransfer(tx, {
        kind: 'request',
        status: 'pending',
        requesterLineId: own.lineId,
        requesterUserId: userId,
        recipientLineId: other.lineId,
        recipientUserId: otherUserId,
        dataMb: input.dataAmount,
        createdAt: at,
        idempotencyKey,
      });
      await insertActions(tx, [
        {
          userId,
          lineId: own.lineId,
          type: 'data_requested',
          payload: {
            counterpart: { name: visibleName(other) ?? other.msisdn, phoneNumber: other.msisdn },
          },
          dataMb: input.dataAmount,
          createdAt: at,
        },
      ]);
      await insertNotifications(tx, [
        {
          userId: otherUserId,
          type: 'data_request',
          params: { name: visibleName(own), phoneNumber: own.msisdn, dataMb: input.dataAmount },
          link: null,
          createdAt: at,
        },
      ]);
      await bumpUserVersions(tx, [userId, otherUserId]);
      return transfer;
    });
    return one(row);
  }

  /** The transfer if the caller is one of its two customers (else NOT_FOUND: no probing). */
  function visibleTo(row: DataTransferRow | undefined, userId: string): DataTransferRow {
    if (!row || (row.requesterUserId !== userId && row.recipientUserId !== userId))
      throw new AppError('NOT_FOUND', { detail: 'no such data transfer of the caller' });
    return row;
  }

  return {
    /** The change version the ETag of GET /api/data-transfers is built from (one-row read). */
    version: (userId: string) => deps.versions?.version(userId) ?? readUserVersion(db, userId),
    /** The same version when memory holds it (no promise); undefined when it must be read. */
    knownVersion: (userId: string) => deps.versions?.known?.(userId),

    async pendingFor(userId: string): Promise<DataTransfersResponse> {
      return toDtos(await findPendingRequestsFor(db, userId));
    },

    async get(userId: string, id: string): Promise<DataTransfer> {
      if (!isUuid(id)) throw new AppError('NOT_FOUND', { detail: 'not a data transfer id' });
      return one(visibleTo(await findTransfer(db, id), userId));
    },

    /**
     * Gives or asks. With an `Idempotency-Key` a retry (same caller, same key) answers the first
     * transfer and moves nothing again — also when both copies arrive at once (the unique index
     * makes the second transaction roll back, then it reads the first).
     */
    async create(
      userId: string,
      input: CreateDataTransferRequest,
      idempotencyKey?: string,
    ): Promise<DataTransfer> {
      if (idempotencyKey) {
        const earlier = await findByIdempotencyKey(db, userId, idempotencyKey);
        if (earlier) return one(earlier);
      }
      try {
        return await createOnce(userId, input, idempotencyKey ?? null);
      } catch (error) {
        if (idempotencyKey && uniqueViolationOf(error) === 'data_transfers_idempotency_uq') {
          const earlier = await findByIdempotencyKey(db, userId, idempotencyKey);
          if (earlier) return one(earlier);
        }
        throw error;
      }
    },

    /** The asked customer approves a pending request: the data moves, the requester is told. */
    async approve(userId: string, id: string): Promise<DataTransfer> {
      if (!isUuid(id)) throw new AppError('NOT_FOUND', { detail: 'not a data transfer id' });
      const at = now();
      const row = await db.transaction(async (tx) => {
        const transfer = visibleTo(await lockTransfer(tx, id), userId);
        if (transfer.recipientUserId !== userId)
          throw new AppError('FORBIDDEN', { detail: 'only the asked customer approves' });
        if (transfer.status !== 'pending')
          throw new AppError('CONFLICT', { detail: `data transfer is ${transfer.status}` });
        const lines = await findLinesByIds(tx, [
          transfer.recipientLineId,
          transfer.requesterLineId,
        ]);
        const giver = lines.find((l) => l.lineId === transfer.recipientLineId);
        const receiver = lines.find((l) => l.lineId === transfer.requesterLineId);
        if (!giver || !receiver || giver.status !== 'active' || receiver.status !== 'active')
          throw new AppError('REQUEST_NOT_ALLOWED', {
            detail: 'a line of the request is not active',
          });
        await move(tx, giver, receiver, transfer.dataMb, at);
        const decided = await decideTransfer(tx, id, 'approved', at);
        await insertActions(tx, moveActions(giver, receiver, transfer.dataMb, at));
        await insertNotifications(tx, [
          receivedNotification(transfer.requesterUserId, giver, transfer.dataMb, at),
        ]);
        await bumpUserVersions(tx, [transfer.requesterUserId, transfer.recipientUserId]);
        return decided;
      });
      return one(row);
    },

    /** Declined by the asked customer or withdrawn by the requester; only while pending. */
    async remove(userId: string, id: string): Promise<DataTransfer> {
      if (!isUuid(id)) throw new AppError('NOT_FOUND', { detail: 'not a data transfer id' });
      const at = now();
      const row = await db.transaction(async (tx) => {
        const transfer = visibleTo(await lockTransfer(tx, id), userId);
        if (transfer.status !== 'pending')
          throw new AppError('CONFLICT', { detail: `data transfer is ${transfer.status}` });
        const decided = await decideTransfer(tx, id, 'declined', at);
        await bumpUserVersions(tx, [transfer.requesterUserId, transfer.recipientUserId]);
        return decided;
      });
      return one(row);
    },
  };
}

export type DataTransferService = ReturnType<typeof createDataTransferService>;
