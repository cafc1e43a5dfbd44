import { PIN_LENGTH } from '../constants';

/** The pattern of a one-time code (also written into the OpenAPI document by the schemas). */
export const PIN_CODE = new RegExp(`^\\d{${PIN_LENGTH}}$`);

/** A one-time SMS code as sent: exactly {@link PIN_LENGTH} digits (SPEC §5 PIN, `INVALID_PIN`). */
export function isPinCode(value: string): boolean {
  return PIN_CODE.test(value);
}
