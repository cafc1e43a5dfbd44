import type { StaffRole } from '@alda/contract/schemas/staff';
import { AppError } from '../errors';
import type { StaffService } from '../modules/staff/service';

/*
 * The demo staff (docs/decisions/0075-staff-console.md): one member per role, seeded in demo mode
 * when there is no staff account yet, with a public password and public TOTP secrets — as public
 * as the demo customers' password, and printed by `npm start` next to their logins. A real
 * installation creates its first admin with `npm run operator -- staff add <email> --role admin`.
 */

export const DEMO_STAFF_PASSWORD = 'DemoStaff1234!';

export interface DemoStaff {
  email: string;
  name: string;
  role: StaffRole;
  /** Base32, 32 characters (160 bits): add it to an authenticator app, or `npm run totp -- <secret>`. */
  totpSecret: string;
}

export const DEMO_STAFF: readonly DemoStaff[] = [
  {
    email: 'ragna@staff.alda.fo',
    name: 'Ragna Hansen',
    role: 'admin',
    totpSecret: 'KRUGKIDBNRSGCIDTORQWMZRAMFSG22LO',
  },
  {
    email: 'sjurdur@staff.alda.fo',
    name: 'Sjúrður Olsen',
    role: 'support',
    totpSecret: 'KNSXE5TJMNSSAZDFONVSAZDFNVXSA2LM',
  },
  {
    email: 'turid@staff.alda.fo',
    name: 'Turið Petersen',
    role: 'provisioning',
    totpSecret: 'KBZG65TJONUW63TJNZTSAZDFNVXSA3DJ',
  },
  {
    email: 'bjarni@staff.alda.fo',
    name: 'Bjarni Jacobsen',
    role: 'content',
    totpSecret: 'INXW45DFNZ2CAZDFNVXSA3DJNZSSAYLM',
  },
];

/**
 * Creates the demo staff members that do not exist yet; answers how many were created. Several
 * instances may start together on one empty database: the unique e-mail decides, and a member a
 * sibling instance created between our list and our insert (STAFF_EXISTS) is simply there.
 */
export async function seedDemoStaff(staff: StaffService): Promise<number> {
  const existing = new Set((await staff.list()).map((member) => member.email));
  let created = 0;
  for (const member of DEMO_STAFF) {
    if (existing.has(member.email)) continue;
    try {
      await staff.create(
        {
          email: member.email,
          name: member.name,
          role: member.role,
          password: DEMO_STAFF_PASSWORD,
          totpSecret: member.totpSecret,
        },
        { actor: 'demo-seed', staffUserId: null },
      );
      created += 1;
    } catch (error) {
      if (error instanceof AppError && error.code === 'STAFF_EXISTS') continue;
      throw error;
    }
  }
  return created;
}
