import type { NewNotificationRow } from '../db/schema/data-transfers';
import { DEMO_USERS } from './demo-users';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

function userId(firstname: string): string {
  const user = DEMO_USERS.find((u) => u.firstname === firstname);
  if (!user) throw new Error(`no demo user ${firstname}`);
  return user.id;
}

/** A few notifications per demo customer (fixed ids, so seeding again adds nothing). */
export function demoNotifications(now: Date): NewNotificationRow[] {
  const ago = (ms: number) => new Date(now.getTime() - ms);
  const id = (n: number) => `3c9d1e70-00${String(n).padStart(2, '0')}-4b2a-9f10-0ad000000000`;
  const welcome = {
    title: { fo: 'Vælkomin í Alda', en: 'Welcome to Alda' },
    body: {
      fo: 'Her sært tú tíðindi um haldið, data og gjøld.',
      en: 'This is where you see news about your subscription, data and payments.',
    },
  };
  return [
    {
      id: id(1),
      userId: userId('Jóannes'),
      type: 'system',
      params: welcome,
      createdAt: ago(30 * DAY),
      readAt: ago(29 * DAY),
    },
    {
      id: id(2),
      userId: userId('Jóannes'),
      type: 'data_received',
      params: { name: 'Sunneva Joensen', phoneNumber: '214456', dataMb: 1024 },
      createdAt: ago(3 * DAY),
    },
    {
      id: id(3),
      userId: userId('Jóannes'),
      type: 'order_completed',
      params: {},
      link: '/',
      createdAt: ago(2 * HOUR),
    },
    {
      id: id(4),
      userId: userId('Sunneva'),
      type: 'system',
      params: welcome,
      createdAt: ago(20 * DAY),
    },
    { id: id(5), userId: userId('Guðrun'), type: 'package', params: {}, createdAt: ago(6 * DAY) },
    {
      id: id(6),
      userId: userId('Guðrun'),
      type: 'system',
      params: welcome,
      createdAt: ago(40 * DAY),
      readAt: ago(39 * DAY),
    },
    { id: id(7), userId: userId('Rói'), type: 'payment', params: {}, createdAt: ago(12 * DAY) },
  ];
}
