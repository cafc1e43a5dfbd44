import { roamingCapOf, type RoamingSettings } from '@alda/contract/rules/roaming';
import { faroeMonth } from '@alda/contract/format/date';
import { splitVat } from '@alda/contract/format/money';
import type { Locale } from '@alda/contract/locale';
import {
  canAddFamilyMember,
  familyMembersInProcessing,
  memberPriceAt,
  nextMemberPrice,
} from '@alda/contract/rules/family';
import { backupMainOrder, isProcessing } from '@alda/contract/rules/orders';
import { commitmentEndsAt } from '@alda/contract/rules/lifecycle';
import { isOwnersOwnLine } from '@alda/contract/rules/controls';
import type { LineControls } from '@alda/contract/schemas/controls';
import type {
  Account,
  FamilyAccountExistsResponse,
  Member,
  MemberStatus,
  SubscriptionDetailResponse,
  SubscriptionsResponse,
} from '@alda/contract/schemas/subscriptions';
import { giftCeilingMb } from '@alda/contract/rules/data-transfer';
import type { Db } from '../../db/client';
import type { AccountRow } from '../../db/schema/accounts';
import type {
  GivenDataCounterRow,
  LineBalanceRow,
  PrepaidBalanceRow,
} from '../../db/schema/balances';
import type { OrderRow } from '../../db/schema/orders';
import type { PhoneLineRow } from '../../db/schema/phone-lines';
import { AppError } from '../../errors';
import { toOrderDto } from '../orders/dto';
import { findOrdersOfAccounts } from '../orders/lifecycle';
import { toPlanDto } from '../plans/dto';
import { findPlansByIds, type PlanWithType } from '../plans/catalogue';
import { initialBuckets } from '../usage/balance';
import {
  findAccountIdsOfUser,
  findAccountsByIds,
  findBalances,
  findGivenData,
  findLiveLineById,
  findPeople,
  findPrepaidBalances,
  type PersonRow,
} from './repo';
import { findLinesOfAccounts, findLiveFamilyAccountOf } from './accounts';
import type { AnswerCache } from '../versions/answer-cache';
import { isInPhoneBook, isPrepaidLine, planIdOfLine } from '../../db/line-facts';

export interface SubscriptionServiceDeps {
  db: Db;
  now: () => Date;
  /** Serialized answers kept in memory per customer (ADR 0057). */
  cache: AnswerCache;
  /** The roaming spend cap's default and price (ADR 0078). */
  roaming: RoamingSettings;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const lineNotFound = (lineId: string) =>
  new AppError('NOT_FOUND', { field: 'id', detail: `no line ${lineId}` });

/** A member's number's controls as the contract shows them (ADR 0068). */
export function toLineControls(
  line: Pick<PhoneLineRow, 'dataPausedAt' | 'purchaseApproval'>,
): LineControls {
  return {
    dataPaused: line.dataPausedAt !== null,
    dataPausedAt: line.dataPausedAt?.toISOString() ?? null,
    purchaseApproval: line.purchaseApproval,
  };
}

/** A line the caller may read, with its account (not cancelled). */
export interface ReadableLine {
  line: PhoneLineRow;
  account: AccountRow;
  /** The caller owns the line's account. */
  isOwner: boolean;
}

/** Everything needed to describe a set of accounts, loaded in one go. */
interface Bundle {
  accounts: AccountRow[];
  /** Lines that are not cancelled, oldest first. */
  lines: PhoneLineRow[];
  people: Map<string, PersonRow>;
  balances: Map<string, LineBalanceRow>;
  given: Map<string, GivenDataCounterRow>;
  prepaid: Map<string, PrepaidBalanceRow>;
  plans: Map<string, PlanWithType>;
  /** Orders on these accounts, newest first. */
  orders: OrderRow[];
}

/** An account with its members in price order, ready to be shown. */
interface AccountView {
  row: AccountRow;
  /** Lines in service (status active), the owner's own first, then by age. */
  members: PhoneLineRow[];
}

const byId = <T, K extends keyof T>(rows: readonly T[], key: K) =>
  new Map(rows.map((row) => [row[key] as string, row]));

/**
 * Accounts, lines and members as the app sees them (SPEC §3 "Subscription state", §6 owner
 * rules). The model is in docs/decisions/0030-accounts-model.md: a line is a member of one
 * account; an account appears once it has a line in service; lines still being set up appear as
 * processing orders (SPEC §3 "Family members in processing are the incomplete family orders").
 */
export function createSubscriptionService(deps: SubscriptionServiceDeps) {
  const { db, now } = deps;

  async function loadBundle(accountIds: readonly string[]): Promise<Bundle> {
    const [accountRows, lines, orders] = await Promise.all([
      findAccountsByIds(db, accountIds),
      findLinesOfAccounts(db, accountIds),
      findOrdersOfAccounts(db, accountIds),
    ]);
    const lineIds = lines.map((l) => l.id);
    const personIds = new Set<string>();
    for (const a of accountRows) personIds.add(a.ownerUserId);
    for (const l of lines) if (l.userId) personIds.add(l.userId);
    const planIds = new Set<string>();
    for (const a of accountRows) if (a.planId) planIds.add(a.planId);
    for (const l of lines) if (l.planId) planIds.add(l.planId);
    for (const o of orders) if (o.planId) planIds.add(o.planId);
    const [people, balances, given, prepaid, plans] = await Promise.all([
      findPeople(db, [...personIds]),
      findBalances(db, lineIds),
      findGivenData(db, lineIds, faroeMonth(now())),
      findPrepaidBalances(db, lineIds),
      findPlansByIds(db, [...planIds]),
    ]);
    return {
      accounts: accountRows,
      lines,
      people: byId(people, 'id'),
      balances: byId(balances, 'lineId'),
      given: byId(given, 'lineId'),
      prepaid: byId(prepaid, 'lineId'),
      plans: new Map(plans.map((p) => [p.plan.id, p])),
      orders,
    };
  }

  function viewOf(bundle: Bundle, account: AccountRow): AccountView {
    const members = bundle.lines
      .filter((l) => l.accountId === account.id && l.status === 'active')
      .sort(
        (a, b) =>
          Number(b.userId === account.ownerUserId) - Number(a.userId === account.ownerUserId),
      );
    return { row: account, members };
  }

  function planOfLine(bundle: Bundle, line: PhoneLineRow, account: AccountRow) {
    const planId = planIdOfLine(line, account);
    return planId ? bundle.plans.get(planId) : undefined;
  }

  function memberStatus(bundle: Bundle, line: PhoneLineRow): MemberStatus {
    if (line.status === 'processing') return 'processing';
    if (line.expiresAt) return 'cancelled';
    const changing = bundle.orders.some(
      (o) =>
        o.lineId === line.id &&
        isProcessing(o) &&
        // A change waiting for its month end is a pending change, not processing (ADR 0056).
        o.provisioningWaitingFor !== 'month_end' &&
        (o.kind === 'plan_change' || o.kind === 'transfer'),
    );
    return changing ? 'processing' : 'active';
  }

  function toMember(bundle: Bundle, account: AccountRow, line: PhoneLineRow): Member | null {
    const plan = planOfLine(bundle, line, account);
    if (!plan) return null;
    // A line without a registered user is used by the account holder (TMF: the customer is the
    // user unless another party is named).
    const person = bundle.people.get(line.userId ?? account.ownerUserId);
    if (!person) return null;
    const balance = bundle.balances.get(line.id);
    const given = bundle.given.get(line.id);
    const live = line.status === 'active';
    const euAllowance = account.euPackage ? plan.plan.euPackageDataMb : null;
    const buckets = balance ?? {
      ...initialBuckets(live ? plan.plan.dataMb : 0, live ? euAllowance : null),
      rolloverMb: 0,
      updatedAt: null,
    };
    const prepaid = bundle.prepaid.get(line.id);
    return {
      id: line.id,
      phoneNumber: line.msisdn,
      // A number without a login of its own carries the name of the person using it (a child
      // added to the family, ADR 0056); the account holder stays the party behind it.
      user:
        line.userId === null && line.holderFirstname !== null
          ? {
              id: person.id,
              firstname: line.holderFirstname,
              lastname: line.holderLastname ?? '',
            }
          : { id: person.id, firstname: person.firstname, lastname: person.lastname },
      planId: plan.plan.id,
      givenData: {
        current: given?.givenMb ?? 0,
        max: given?.maxMb ?? giftCeilingMb(plan.plan.giftMaxMb),
      },
      dataRemaining: {
        domestic: buckets.domesticRemainingMb,
        eu: buckets.euAllowanceMb === null ? null : buckets.euAllowanceMb - buckets.euUsedMb,
      },
      dataTotal: { domestic: buckets.domesticTotalMb, eu: buckets.euAllowanceMb },
      dataUsed: {
        domestic: buckets.domesticUsedMb,
        eu: buckets.euAllowanceMb === null ? null : buckets.euUsedMb,
      },
      status: memberStatus(bundle, line),
      expiresAt: line.expiresAt?.toISOString() ?? null,
      simType: line.simType === 'esim' ? 'ESIM' : 'PHYSICAL',
      phoneBookVisible: isInPhoneBook(line, person.showInPhoneBook),
      rolloverMb: buckets.rolloverMb,
      dataUpdatedAt: buckets.updatedAt?.toISOString() ?? null,
      prepaidBalance: isPrepaidLine(line, account) ? (prepaid?.balanceOere ?? 0) : null,
      commitmentEndsAt: isPrepaidLine(line, account)
        ? null
        : (commitmentEndsAt(line.activatedAt)?.toISOString() ?? null),
      pendingChange: pendingChangeOf(bundle, account, line),
      // Controls are for members' numbers only: none on the owner's own (ADR 0068).
      controls: isOwnersOwnLine(line, account.ownerUserId) ? undefined : toLineControls(line),
      roaming: roamingCapOf(line, balance, deps.roaming),
    };
  }

  /**
   * The change of the number waiting for its month end (ADR 0056): one of the line itself, or
   * one of its whole account (a plan change, a cancellation). Orders are already in the bundle.
   */
  function pendingChangeOf(
    bundle: Bundle,
    account: AccountRow,
    line: PhoneLineRow,
  ): Member['pendingChange'] {
    const waiting = bundle.orders.find(
      (o) =>
        o.lifecycleAction !== null &&
        o.effectiveAt !== null &&
        !o.isComplete &&
        !o.isCancelled &&
        o.provisioningWaitingFor === 'month_end' &&
        (o.lineId === line.id ||
          (o.accountId === account.id &&
            (o.lifecycleAction === 'cancel_subscription' ||
              o.lifecycleAction === 'plan_downgrade' ||
              o.lifecycleAction === 'plan_upgrade'))),
    );
    if (!waiting?.lifecycleAction || !waiting.effectiveAt) return null;
    return {
      orderId: waiting.id,
      action: waiting.lifecycleAction,
      effectiveAt: waiting.effectiveAt.toISOString(),
      planId: waiting.planId,
    };
  }

  function familyOf(bundle: Bundle, view: AccountView, memberCount: number): Account['family'] {
    const { row } = view;
    if (row.type !== 'family_plan') return null;
    const plan = row.planId ? bundle.plans.get(row.planId) : undefined;
    const familyPlanIds = new Set(
      [...bundle.plans.values()].filter((p) => p.type.kind === 'family_plan').map((p) => p.plan.id),
    );
    // Numbers being added to it, and numbers moving onto it (ADR 0056 transfers).
    const orders = bundle.orders
      .filter((o) => o.accountId === row.id || o.targetAccountId === row.id)
      .map(toOrderDto);
    const processing = familyMembersInProcessing(orders, familyPlanIds).length;
    const state = {
      isProcessing: row.status === 'processing' || backupMainOrder(orders) !== null,
      isPrepaid: false,
    };
    // A family that ends at a month end takes no one new (ADR 0056).
    const ending = bundle.orders.some(
      (o) =>
        o.accountId === row.id &&
        o.lifecycleAction === 'cancel_subscription' &&
        !o.isComplete &&
        !o.isCancelled,
    );
    return {
      canAddMember:
        plan && !ending
          ? canAddFamilyMember(plan.plan.maxMembers, memberCount, processing, state)
          : false,
      nextMemberPrice: plan ? nextMemberPrice(plan.plan.memberPrices, memberCount) : null,
      processingMembers: processing,
      maxMembers: plan?.plan.maxMembers ?? null,
    };
  }

  /** The account DTO with `currentLine` as its currentMember; null when it has no member. */
  function toAccount(
    bundle: Bundle,
    view: AccountView,
    currentLineId: string | null,
  ): Account | null {
    const members = view.members.flatMap((line) => toMember(bundle, view.row, line) ?? []);
    const current = members.find((m) => m.id === currentLineId) ?? members[0];
    if (!current) return null;
    const plan = view.row.planId ? bundle.plans.get(view.row.planId) : undefined;
    return {
      id: view.row.id,
      planId: view.row.planId,
      planTypeId: plan?.type.id ?? null,
      type: view.row.type,
      members,
      otherMembers: members.filter((m) => m.id !== current.id),
      currentMember: current,
      euPackage: view.row.euPackage,
      family: familyOf(bundle, view, members.length),
    };
  }

  /** What the kept answer of GET /api/subscriptions depends on besides the customer. */
  const overviewParts = (line: string | undefined) =>
    // Given data counts per Faroese month: a new month is a new answer.
    ['subscriptions', line ?? '', faroeMonth(now())] as const;

  const service = {
    /**
     * GET /api/subscriptions as the body it is sent as: from the instance's memory while nothing
     * of the customer's changed (ADR 0057), else built and serialized with `serialize`.
     */
    async overviewBody(
      userId: string,
      line: string | undefined,
      serialize: (data: SubscriptionsResponse) => string,
    ): Promise<Buffer> {
      const build = async () => serialize(await service.overview(userId, line));
      return deps.cache.get(userId, overviewParts(line), build);
    },

    /** The answer of {@link overviewBody} when memory has it (no promise), else undefined. */
    keptOverview(userId: string, line: string | undefined): Buffer | undefined {
      return deps.cache.peek(userId, overviewParts(line));
    },

    /**
     * GET /api/subscriptions. The current line is `line` when given (it must be one of the
     * caller's own numbers, else NOT_FOUND), otherwise the caller's oldest line in service.
     * `isOwner` says whether the caller owns the current account (true without one, SPEC §3).
     */
    async overview(userId: string, line?: string): Promise<SubscriptionsResponse> {
      const bundle = await loadBundle(await findAccountIdsOfUser(db, userId));
      const views = bundle.accounts
        .map((a) => viewOf(bundle, a))
        .filter((v) => v.members.length > 0);
      const ownLines = views
        .flatMap((v) => v.members.filter((m) => m.userId === userId))
        .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.id.localeCompare(b.id));
      let currentLine = ownLines[0] ?? null;
      if (line !== undefined) {
        currentLine = ownLines.find((l) => l.msisdn === line) ?? null;
        if (!currentLine) {
          throw new AppError('NOT_FOUND', {
            field: 'line',
            detail: `${line} is not a line of the caller`,
          });
        }
      }
      const currentView =
        (currentLine && views.find((v) => v.row.id === currentLine.accountId)) ??
        views.find((v) => v.row.ownerUserId === userId) ??
        null;
      const accountsOut = new Map<string, Account>();
      for (const view of views) {
        const ownOnIt = ownLines.find((l) => l.accountId === view.row.id);
        const pick = view === currentView ? (currentLine?.id ?? null) : (ownOnIt?.id ?? null);
        const dto = toAccount(bundle, view, pick);
        if (dto) accountsOut.set(view.row.id, dto);
      }
      const currentAccount = currentView ? (accountsOut.get(currentView.row.id) ?? null) : null;
      return {
        currentAccount,
        otherAccounts: [...accountsOut.values()].filter((a) => a !== currentAccount),
        isOwner: currentView ? currentView.row.ownerUserId === userId : true,
        individuals: views
          .filter((v) => v.row.type === 'individual_plan' && v.row.ownerUserId === userId)
          .flatMap((v) => accountsOut.get(v.row.id) ?? []),
      };
    },

    /**
     * The line `lineId` with its account, when `userId` may read it: its own user and the
     * account owner may; another member of the same account gets OWNER_ONLY (SPEC §6); anyone
     * else, and an unknown id, NOT_FOUND (no hint that the number exists). The one check of the
     * number's own screens: its detail and its usage history (ADR 0066).
     */
    async readableLine(userId: string, lineId: string): Promise<ReadableLine> {
      if (!UUID.test(lineId)) throw lineNotFound(lineId);
      const line = await findLiveLineById(db, lineId);
      if (!line?.accountId) throw lineNotFound(lineId);
      const [account] = await findAccountsByIds(db, [line.accountId]);
      if (!account || account.status === 'cancelled') throw lineNotFound(lineId);
      const isOwner = account.ownerUserId === userId;
      if (!isOwner && line.userId !== userId) {
        const lines = await findLinesOfAccounts(db, [account.id]);
        throw lines.some((l) => l.userId === userId)
          ? new AppError('OWNER_ONLY', { detail: `line ${lineId} belongs to another member` })
          : lineNotFound(lineId);
      }
      return { line, account, isOwner };
    },

    /** GET /api/subscriptions/{id}: one number in detail, to whom {@link readableLine} allows. */
    async detail(
      userId: string,
      lineId: string,
      locale: Locale,
    ): Promise<SubscriptionDetailResponse> {
      const { line, account, isOwner } = await service.readableLine(userId, lineId);
      const bundle = await loadBundle([account.id]);
      const view = viewOf(bundle, account);
      const member = toMember(bundle, account, line);
      if (!member) throw lineNotFound(lineId);
      const plan = planOfLine(bundle, line, account);
      const index = view.members.findIndex((m) => m.id === line.id);
      const position = index === -1 ? view.members.length : index;
      return {
        accountId: account.id,
        accountType: account.type,
        isOwner,
        member,
        plan: plan ? toPlanDto(plan.plan, plan.type, locale) : null,
        monthlyPrice: plan ? splitVat(memberPriceAt(plan.plan.memberPrices, position)) : null,
        euPackage: account.euPackage,
      };
    },

    /** GET /api/subscriptions/family-account-exists: does the caller own a family account? */
    async familyAccountExists(userId: string): Promise<FamilyAccountExistsResponse> {
      const account = await findLiveFamilyAccountOf(db, userId);
      return { exists: account !== undefined, accountId: account?.id ?? null };
    },
  };
  return service;
}

export type SubscriptionService = ReturnType<typeof createSubscriptionService>;
