import QRCode from 'qrcode';
import type { StaffCreateRequest, StaffEnrolment } from '@alda/contract/schemas/staff';
import { AppError } from '../../errors';
import { OperatorError } from '../operator/service';
import { normalizeStaffEmail, type StaffService } from './service';

/*
 * The operator command's `staff` verbs as text (`npm run operator -- staff add|list|disable|
 * enable|allow-totp`): the same staff service as the console's admin screen, so one set of rules
 * serves both. The first admin of an installation is made here, and a member of a passkey-only
 * role who lost their passkey is let in with TOTP once (ADR 0097).
 */

function groups(secret: string): string {
  return secret.replace(/(.{4})/g, '$1 ').trim();
}

async function enrolmentText(enrolment: StaffEnrolment, appUrl: string): Promise<string> {
  const qr = await QRCode.toString(enrolment.otpauthUri, {
    type: 'utf8',
    errorCorrectionLevel: 'M',
  });
  return [
    `Staff member added: ${enrolment.staff.email} (${enrolment.staff.role}), id ${enrolment.staff.id}`,
    '',
    'Shown once — hand these over in person:',
    ...(enrolment.password ? [`  first password   ${enrolment.password}`] : []),
    `  TOTP secret      ${groups(enrolment.totpSecret)}`,
    `  otpauth URI      ${enrolment.otpauthUri}`,
    `  recovery codes   ${enrolment.recoveryCodes.join('  ')}`,
    '',
    'Scan with an authenticator app:',
    qr,
    `Sign in at ${appUrl}/console/ with the e-mail, the password and the app's 6-digit code.`,
    '',
  ].join('\n');
}

export function createStaffCommands(staff: StaffService, appUrl: string) {
  async function byEmail(email: string) {
    const normalized = normalizeStaffEmail(email);
    const member = (await staff.list()).find((m) => m.email === normalized);
    if (!member) throw new OperatorError(`No staff member ${normalized}.`);
    return member;
  }
  return {
    async add(operator: string, input: StaffCreateRequest): Promise<string> {
      const enrolment = await staff
        .create(input, { actor: operator, staffUserId: null })
        .catch((error: unknown) => {
          if (error instanceof AppError && error.code === 'STAFF_EXISTS')
            throw new OperatorError(
              `A staff member ${normalizeStaffEmail(input.email)} exists already.`,
            );
          throw error;
        });
      return enrolmentText(enrolment, appUrl);
    },
    async list(): Promise<string> {
      const members = await staff.list();
      if (members.length === 0)
        return 'No staff accounts. Add the first: staff add <email> --role admin\n';
      const width = Math.max(...members.map((m) => m.email.length));
      return `${members
        .map(
          (m) =>
            `${m.email.padEnd(width)}  ${m.role.padEnd(12)}  ${m.disabledAt ? `disabled ${m.disabledAt}` : 'active'}  ${m.name}  (${m.passkeys} passkey${m.passkeys === 1 ? '' : 's'})`,
        )
        .join('\n')}\n`;
    },
    async setDisabled(
      operator: string,
      email: string,
      disabled: boolean,
      reason: string,
    ): Promise<string> {
      const member = await byEmail(email);
      const updated = await staff
        .update(member.id, { disabled, reason }, { actor: operator, staffUserId: null })
        .catch((error: unknown) => {
          throw error instanceof AppError
            ? new OperatorError(`${error.code}: ${error.message}`)
            : error;
        });
      return `${updated.email}: ${updated.disabledAt ? 'disabled; its sessions ended' : 'enabled'}.\n`;
    },
    /** `staff allow-totp`: one TOTP sign-in within the hour, though the role requires passkeys. */
    async allowTotp(operator: string, email: string, reason: string): Promise<string> {
      const member = await byEmail(email);
      const {
        staff: updated,
        until,
        requirePasskey,
      } = await staff.allowTotp(member.id, reason, {
        actor: operator,
        staffUserId: null,
      });
      return [
        `${updated.email} may sign in once with the authenticator app's code (or a recovery code) until ${until.toISOString()}.`,
        requirePasskey
          ? `Their role (${updated.role}) requires passkeys: after that sign-in they add a new passkey under "My passkeys" in the console.`
          : `Their role (${updated.role}) does not require passkeys now: they can sign in with the code anyway.`,
        ...(updated.disabledAt ? ['The account is disabled: enable it first (staff enable).'] : []),
        '',
      ].join('\n');
    },
  };
}

export type StaffCommands = ReturnType<typeof createStaffCommands>;
