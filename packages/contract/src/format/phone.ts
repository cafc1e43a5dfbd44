/** A 6-digit Faroese number grouped in pairs, as people write it: 21 34 56. */
export function formatPhoneNumber(phoneNumber: string): string {
  const digits = phoneNumber.replace(/\D/g, '');
  return digits.length === 6 ? digits.replace(/(\d{2})(\d{2})(\d{2})/, '$1 $2 $3') : phoneNumber;
}
