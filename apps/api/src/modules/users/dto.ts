import type { User } from '@alda/contract/schemas/auth';
import type { UserRow } from '../../db/schema/users';

/** The user as the contract describes it; the password hash never leaves the server. */
export function toUserDto(row: UserRow): User {
  return {
    id: row.id,
    firstname: row.firstname,
    lastname: row.lastname,
    email: row.email,
    phoneNumber: row.phoneNumber,
    birthDate: row.birthDate,
    address: row.address,
    postCode: row.postCode,
    city: row.city,
    locale: row.locale,
    createdAt: row.createdAt.toISOString(),
    showInPhoneBook: row.showInPhoneBook,
    hasPassword: row.passwordHash !== null,
    usageAlerts: { at80: row.usageAlert80, at100: row.usageAlert100, email: row.usageAlertEmail },
  };
}
