import type { RegisterRequestInput } from '@alda/contract/schemas/auth-register';

/**
 * A valid registration form (SPEC §3) of a new customer, Kári Hansen in Tórshavn, with the
 * e-mail and number a test gives (both must be unique), and any other field overridden.
 */
export function registrationForm(
  fields: Pick<RegisterRequestInput, 'email' | 'phoneNumber'> & Partial<RegisterRequestInput>,
): RegisterRequestInput {
  return {
    firstname: 'Kári',
    lastname: 'Hansen',
    birthDate: '15.05.1990',
    address: 'Niels Finsens gøta 7',
    postCode: '100',
    city: 'Tórshavn',
    password: 'Sterkt1234!',
    passwordRepeat: 'Sterkt1234!',
    ...fields,
  };
}
