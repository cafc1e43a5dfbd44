import {
  ClipboardList,
  CreditCard,
  FileText,
  Handshake,
  Hash,
  Megaphone,
  MessageSquareQuote,
  MessagesSquare,
  ScrollText,
  UserCog,
  Users,
  type LucideIcon,
} from 'lucide-react';
import type { StaffRole } from '@alda/contract/schemas/staff';

/*
 * The console's areas and which role may use each: the one place of that rule in the console
 * (docs/decisions/0075-staff-console.md "Roles"). The navigation shows, the router lets in and the
 * landing page picks from it; the API refuses the same (403 FORBIDDEN), so this only hides what a
 * role could not use anyway.
 */

export const AREA_IDS = [
  'customers',
  'support',
  'orders',
  'payments',
  'status',
  'content',
  'saved-replies',
  'numbers',
  'audit',
  'staff',
  'partners',
] as const;
export type AreaId = (typeof AREA_IDS)[number];

export interface Area {
  id: AreaId;
  /** Under the console's base: `/console/<path>`. */
  path: string;
  icon: LucideIcon;
  /** The roles besides `admin` that may use it (`admin` may use every area). */
  roles: readonly Exclude<StaffRole, 'admin'>[];
}

/** In the navigation's order. */
export const AREAS: readonly Area[] = [
  { id: 'customers', path: 'customers', icon: Users, roles: ['support', 'provisioning'] },
  // The desk's inbox (issue 46). After customers, so every role still lands where it did.
  { id: 'support', path: 'support', icon: MessagesSquare, roles: ['support'] },
  { id: 'orders', path: 'orders', icon: ClipboardList, roles: ['support', 'provisioning'] },
  { id: 'payments', path: 'payments', icon: CreditCard, roles: ['support'] },
  { id: 'status', path: 'status', icon: Megaphone, roles: ['content'] },
  { id: 'content', path: 'content', icon: FileText, roles: ['content'] },
  // The support desk's saved replies are texts, written by content (ADR 0088 "Roles"); support
  // reads them in the conversation's picker, not here. An area of its own keeps this file the one
  // home of who may use what: no screen of the support area needs a role check of its own.
  {
    id: 'saved-replies',
    path: 'saved-replies',
    icon: MessageSquareQuote,
    roles: ['content'],
  },
  { id: 'numbers', path: 'numbers', icon: Hash, roles: ['support', 'provisioning'] },
  { id: 'audit', path: 'audit', icon: ScrollText, roles: [] },
  { id: 'staff', path: 'staff', icon: UserCog, roles: [] },
  { id: 'partners', path: 'partners', icon: Handshake, roles: [] },
];

/** May `role` use the area? */
export function mayUse(role: StaffRole, area: AreaId): boolean {
  if (role === 'admin') return true;
  return AREAS.some((entry) => entry.id === area && entry.roles.includes(role));
}

/** The areas `role` may use, in the navigation's order. */
export function areasFor(role: StaffRole): Area[] {
  return AREAS.filter((area) => mayUse(role, area.id));
}

/** Where a staff member of `role` lands after sign-in: the first area they may use. */
export function landingPath(role: StaffRole): string {
  const first = areasFor(role)[0];
  // Every role has at least one area (areas.test.ts).
  return `/${first?.path ?? ''}`;
}

/** The area a path of the console lies in (`/orders/123` → orders), if any. */
export function areaOfPath(pathname: string): Area | undefined {
  const segment = pathname.split('/').find(Boolean);
  return AREAS.find((area) => area.path === segment);
}
