import { createHash } from 'node:crypto';
import { supportThreadPath } from '@alda/contract/app-paths';
import { DAY, HOUR, MINUTE } from './calendar';
import { act, between, notify, type GenContext } from './context';
import { plan, userOfLine, type Account, type Line, type Person } from './model';
import { RATIOS } from './ratios';
import { SPECS } from './tables';
import type { MonthGifts } from './usage';

/*
 * What people did besides using data and paying: data given within families, signed-in devices
 * (sessions with their refresh token) and conversations with the support desk.
 */

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const nameOf = (p: Person) => `${p.firstname} ${p.lastname}`;

/**
 * The family's gifts over the history (owner to member, as data_transfers), decided before the
 * members' use is generated: this month's change the balances. Returns them by line.
 */
export function emitGifts(ctx: GenContext, account: Account): Map<string, MonthGifts> {
  const gifts = new Map<string, MonthGifts>();
  const giver = account.lines[0];
  const members = account.lines.slice(1).filter((l) => l.status === 'active');
  if (account.type !== 'family_plan' || !giver || giver.status !== 'active' || members.length === 0)
    return gifts;
  const owner = account.owner;
  if (!owner.userId) return gifts;
  const maxMb = plan(giver.planId).giftMaxMb;
  for (const month of ctx.cal.months) {
    if (!ctx.random.chance(RATIOS.giftsPerFamilyMonth)) continue;
    const to = ctx.random.pick(members);
    const from = Math.max(
      month.startMs,
      to.activatedMs ?? to.createdMs,
      giver.activatedMs ?? giver.createdMs,
    );
    const until = Math.min(month.endMs, ctx.cal.nowMs - HOUR);
    if (from >= until) continue;
    const atMs = between(ctx, from, until);
    const current = month.index === ctx.cal.current.index;
    const given = gifts.get(giver.id)?.givenMb ?? 0;
    const dataMb = Math.min(
      ctx.random.pick([512, 1024, 1024, 2048]),
      maxMb - (current ? given : 0),
    );
    if (dataMb <= 0) continue;
    if (current) {
      gifts.set(giver.id, { receivedMb: 0, givenMb: given + dataMb });
      const received = gifts.get(to.id) ?? { receivedMb: 0, givenMb: 0 };
      gifts.set(to.id, { ...received, receivedMb: received.receivedMb + dataMb });
    }
    gift(ctx, { giver, to, owner: owner as Person & { userId: string }, dataMb, atMs });
  }
  return gifts;
}

function gift(
  ctx: GenContext,
  g: { giver: Line; to: Line; owner: Person & { userId: string }; dataMb: number; atMs: number },
): void {
  const recipient = userOfLine(g.to);
  ctx.out.row(SPECS.dataTransfers, {
    id: ctx.ids.next('transfer'),
    kind: 'gift',
    status: 'approved',
    requesterLineId: g.giver.id,
    requesterUserId: g.owner.userId,
    recipientLineId: g.to.id,
    recipientUserId: recipient.userId,
    dataMb: g.dataMb,
    createdAt: g.atMs,
    decidedAt: g.atMs,
  });
  act(ctx, {
    userId: g.owner.userId,
    lineId: g.giver.id,
    type: 'data_given',
    payload: { counterpart: { name: nameOf(g.to.user), phoneNumber: g.to.msisdn } },
    dataMb: g.dataMb,
    atMs: g.atMs,
  });
  const memberId = g.to.user.userId;
  if (!memberId) return;
  const from = { name: nameOf(g.owner), phoneNumber: g.giver.msisdn };
  act(ctx, {
    userId: memberId,
    lineId: g.to.id,
    actorUserId: g.owner.userId,
    type: 'data_received',
    payload: { counterpart: from },
    dataMb: g.dataMb,
    atMs: g.atMs,
  });
  notify(ctx, {
    userId: memberId,
    type: 'data_received',
    params: { ...from, dataMb: g.dataMb },
    atMs: g.atMs,
  });
}

const DEVICES = [
  { platform: 'ios', model: 'iPhone16,2', name: 'iPhone', os: '18.5', weight: 45 },
  { platform: 'ios', model: 'iPhone14,5', name: 'iPhone', os: '17.6', weight: 10 },
  { platform: 'android', model: 'SM-S921B', name: 'Galaxy S24', os: '15', weight: 20 },
  { platform: 'android', model: 'Pixel 8', name: 'Pixel 8', os: '15', weight: 10 },
  { platform: 'web', model: null, name: 'Chrome á Windows', os: null, weight: 15 },
] as const;

/** A user's signed-in devices: sessions of the last months, some signed out since. */
export function emitSessions(ctx: GenContext, person: Person): void {
  if (!person.userId || !ctx.random.chance(RATIOS.sessions)) return;
  const count = ctx.random.weighted([
    [1, 60],
    [2, 30],
    [3, 10],
  ] as const);
  for (let i = 0; i < count; i += 1) {
    const device = ctx.random.weighted(DEVICES.map((d) => [d, d.weight] as const));
    const createdMs = between(
      ctx,
      Math.max(person.createdMs, ctx.cal.nowMs - 120 * DAY),
      ctx.cal.nowMs - MINUTE,
    );
    const lastUsedMs = between(ctx, createdMs, ctx.cal.nowMs);
    const revoked = ctx.random.chance(0.25);
    const revokedMs = revoked ? between(ctx, lastUsedMs, ctx.cal.nowMs) : null;
    const sessionId = ctx.ids.next('session');
    const agent =
      device.platform === 'web'
        ? 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/138.0 Safari/537.36'
        : `Alda/3.0.0 (${device.platform === 'ios' ? 'iOS' : 'Android'} ${device.os}; ${device.model})`;
    ctx.out.row(SPECS.sessions, {
      id: sessionId,
      userId: person.userId,
      createdAt: createdMs,
      lastUsedAt: lastUsedMs,
      revokedAt: revokedMs,
      revokedReason: revoked
        ? ctx.random.weighted([
            ['logout', 80],
            ['signed_out', 15],
            ['password_change', 5],
          ] as const)
        : null,
      userAgent: agent,
      deviceKey: sha256(`${sessionId}:${ctx.seed}`),
      deviceName: device.platform === 'web' ? device.name : `${person.firstname} ${device.name}`,
      devicePlatform: device.platform,
      deviceModel: device.model,
      deviceOsVersion: device.os,
      country: ctx.random.weighted([
        ['FO', 88],
        ['DK', 8],
        [null, 4],
      ] as const),
    });
    ctx.out.row(SPECS.refreshTokens, {
      id: ctx.ids.next('refreshToken'),
      sessionId,
      tokenHash: sha256(`${sessionId}:${ctx.random.hex(32)}`),
      parentId: null,
      createdAt: lastUsedMs,
      expiresAt: lastUsedMs + 30 * DAY,
      usedAt: null,
      revokedAt: revokedMs,
    });
    if (i > 0) {
      act(ctx, {
        userId: person.userId,
        type: 'signed_in_new_device',
        payload: { device: { name: device.name, platform: device.platform, model: device.model } },
        atMs: createdMs,
      });
    }
  }
}

const DESK = ['Birita', 'Hallur', 'Marjun', 'Pól', 'Sanna'];

const TOPICS = [
  {
    subject: 'general' as const,
    ask: 'Hey! Hvussu broyti eg PIN-kotuna á SIM-kortinum?',
    answer:
      'Hey! Tú broytir PIN-kotuna í telefonini undir Stillingar → Trygd. Skriva aftur, um tað ikki riggar.',
  },
  {
    subject: 'line' as const,
    ask: 'Netið er heilt seint í kvøld. Er nakað galið?',
    answer:
      'Takk fyri boðini. Vit arbeiða við einum feili á einum mastri nær tær; tað skuldi verið í lagi aftur í morgin.',
  },
  {
    subject: 'order' as const,
    ask: 'Nær kemur SIM-kortið? Eg havi bílagt fyri tveimum døgum síðani.',
    answer: 'Kortið er sent við postinum í gjár og kemur vanliga innan tvey dagar.',
  },
  {
    subject: 'general' as const,
    ask: 'Can I use my plan in the UK?',
    answer:
      'The EU package does not cover the UK; use there is charged per MB. You can set a roaming cap in the app.',
  },
];

/** A user's conversations with the desk: a question, answers, sometimes closed and rated. */
export function emitSupport(ctx: GenContext, person: Person, line: Line | undefined): void {
  if (!person.userId || !ctx.random.chance(RATIOS.support)) return;
  const count = ctx.random.chance(0.9) ? 1 : 2;
  for (let c = 0; c < count; c += 1) conversation(ctx, person as Person & { userId: string }, line);
}

function conversation(
  ctx: GenContext,
  person: Person & { userId: string },
  line: Line | undefined,
): void {
  const topic = ctx.random.pick(line ? TOPICS : TOPICS.filter((t) => t.subject === 'general'));
  const id = ctx.ids.next('conversation');
  const createdMs = between(
    ctx,
    Math.max(person.createdMs, ctx.cal.nowMs - 120 * DAY),
    ctx.cal.nowMs - HOUR,
  );
  const turns = ctx.random.int(1, 5);
  const messages: { kind: 'customer' | 'staff' | 'note'; atMs: number }[] = [];
  let atMs = createdMs;
  for (let t = 0; t < turns && atMs < ctx.cal.nowMs; t += 1) {
    messages.push({ kind: t % 2 === 0 ? 'customer' : 'staff', atMs });
    if (t === 0 && ctx.random.chance(0.15))
      messages.push({ kind: 'note', atMs: atMs + 5 * MINUTE });
    atMs += ctx.random.int(20, 60 * 20) * MINUTE;
  }
  const visible = messages.filter((m) => m.kind !== 'note');
  const last = visible.at(-1) ?? { kind: 'customer', atMs: createdMs };
  const firstReply = visible.find((m) => m.kind === 'staff');
  const closed = last.kind === 'staff' && ctx.random.chance(0.6);
  const closedMs = closed
    ? Math.min(ctx.cal.nowMs, last.atMs + ctx.random.int(1, 72) * HOUR)
    : null;
  const rated = closed && ctx.random.chance(0.5);
  const agent = ctx.random.pick(DESK);
  ctx.out.row(SPECS.supportConversations, {
    id,
    userId: person.userId,
    subjectType: topic.subject,
    subjectId: topic.subject === 'line' ? (line?.msisdn ?? null) : null,
    subjectReference: topic.subject === 'line' ? (line?.msisdn ?? null) : null,
    state: closed ? 'closed' : last.kind === 'customer' ? 'open' : 'waiting',
    createdAt: createdMs,
    firstReplyDueAt: createdMs + 8 * HOUR,
    firstReplyAt: firstReply ? firstReply.atMs : null,
    lastMessageAt: last.atMs,
    customerReadAt:
      firstReply && ctx.random.chance(0.8) ? Math.min(ctx.cal.nowMs, last.atMs + HOUR) : null,
    closedAt: closedMs,
    closedBy: closed
      ? ctx.random.chance(0.5)
        ? 'customer'
        : `staff:${agent.toLowerCase()}@alda.fo`
      : null,
    ratingScore: rated
      ? ctx.random.weighted([
          [5, 55],
          [4, 25],
          [3, 10],
          [2, 5],
          [1, 5],
        ] as const)
      : null,
    ratingComment: rated && ctx.random.chance(0.3) ? 'Takk fyri skjóta hjálp!' : null,
  });
  // The topic's question and answer, then short follow-ups.
  const texts = {
    customer: [
      topic.ask,
      'Takk! Eitt spurningur afturat: kann eg síggja tað í appini?',
      'Tað riggar nú, takk.',
    ],
    staff: [topic.answer, 'Ja, tú sært tað undir Nýtsla í appini.', 'Gott at hoyra. Góðan dag!'],
  };
  let customerTurn = 0;
  let staffTurn = 0;
  for (const message of messages) {
    const body =
      message.kind === 'note'
        ? 'Kannað í netskipanini: einki óvanligt á nummarinum.'
        : message.kind === 'customer'
          ? (texts.customer[customerTurn++] ?? 'Takk.')
          : (texts.staff[staffTurn++] ?? 'Vit hoyra frá tær.');
    ctx.out.row(SPECS.supportMessages, {
      id: ctx.ids.next('message'),
      conversationId: id,
      kind: message.kind,
      authorName: message.kind === 'customer' ? null : agent,
      body,
      clientId: message.kind === 'customer' ? ctx.ids.next('clientId') : null,
      createdAt: message.atMs,
    });
  }
  if (!closed && last.kind === 'staff')
    notify(ctx, {
      userId: person.userId,
      type: 'support_answer',
      params: {},
      link: supportThreadPath(id),
      atMs: last.atMs,
    });
}
