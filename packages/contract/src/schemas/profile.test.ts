import { describe, expect, it } from 'vitest';
import { placeOfPostCode } from '../localities/lookup';
import { registerRequest, registerRequestWithoutAgeLimit } from './auth-register';
import { changePasswordForm, changePasswordRequest, updateUserRequest } from './profile';

const keysOf = (result: { error?: { issues: { path: PropertyKey[]; message: string }[] } }) =>
  Object.fromEntries((result.error?.issues ?? []).map((i) => [i.path.join('.'), i.message]));

describe('profile schemas (SPEC §2 profile, §3 localities, §5)', () => {
  it('accepts a partial update and normalises what it changes', () => {
    const parsed = updateUserRequest.parse({ email: ' Ny@Demo.Alda.FO ', showInPhoneBook: true });
    expect(parsed).toEqual({ email: 'ny@demo.alda.fo', showInPhoneBook: true });
    expect(updateUserRequest.parse({})).toEqual({});
  });

  it('needs postal code and city together, and the city must have that code (SPEC §3)', () => {
    expect(keysOf(updateUserRequest.safeParse({ postCode: '100' }))).toEqual({ city: 'REQUIRED' });
    expect(keysOf(updateUserRequest.safeParse({ city: 'Tórshavn' }))).toEqual({
      postCode: 'REQUIRED',
    });
    expect(keysOf(updateUserRequest.safeParse({ postCode: '100', city: 'Klaksvík' }))).toEqual({
      city: 'CITY_POSTCODE_MISMATCH',
    });
    expect(updateUserRequest.safeParse({ postCode: '700', city: 'klaksvik' }).success).toBe(true);
    // One problem per field: an unknown code is reported on the code, not also on the city.
    expect(keysOf(updateUserRequest.safeParse({ postCode: '999', city: 'Tórshavn' }))).toEqual({
      postCode: 'UNKNOWN_POSTCODE',
    });
    expect(keysOf(updateUserRequest.safeParse({ firstname: '  ' }))).toEqual({
      firstname: 'REQUIRED',
    });
  });

  it('resolves a city to its listed place by postal code, loosely spelled', () => {
    expect(placeOfPostCode('100', 'torshavn')?.name).toBe('Tórshavn');
    expect(placeOfPostCode('100', 'Havn')?.name).toBe('Tórshavn');
    expect(placeOfPostCode('700', 'Tórshavn')).toBeUndefined();
    expect(placeOfPostCode('100', '')).toBeUndefined();
    const nes = placeOfPostCode('655', 'Nes');
    expect(nes?.name).toBe('Nes, Eysturoy');
  });

  it('checks the new password rule, not the current password, on change-password (SPEC §5)', () => {
    expect(
      changePasswordRequest.safeParse({ currentPassword: 'old', password: 'Nytt1234!' }).success,
    ).toBe(true);
    expect(
      keysOf(changePasswordRequest.safeParse({ currentPassword: '', password: 'weak' })),
    ).toEqual({ currentPassword: 'REQUIRED', password: 'PASSWORD_TOO_WEAK' });
    expect(
      keysOf(
        changePasswordForm.safeParse({
          currentPassword: 'old',
          password: 'Nytt1234!',
          passwordRepeat: 'Nytt1234?',
        }),
      ),
    ).toEqual({ passwordRepeat: 'PASSWORDS_DO_NOT_MATCH' });
  });

  it('leaves the age to the API in the server variant of register, keeping every other rule', () => {
    const form = {
      firstname: 'Óli',
      lastname: 'Jacobsen',
      email: 'oli@example.fo',
      phoneNumber: '+298 21 12 34',
      birthDate: '01.01.2015',
      address: 'Gøta 1',
      postCode: '100',
      city: 'Tórshavn',
      password: 'Abcdefg1!',
      passwordRepeat: 'Abcdefg1!',
    };
    expect(keysOf(registerRequest.safeParse(form))).toEqual({ birthDate: 'TOO_YOUNG' });
    expect(registerRequestWithoutAgeLimit.parse(form).phoneNumber).toBe('211234');
    expect(
      keysOf(
        registerRequestWithoutAgeLimit.safeParse({ ...form, passwordRepeat: 'x', birthDate: '' }),
      ),
    ).toEqual({ birthDate: 'REQUIRED', passwordRepeat: 'PASSWORDS_DO_NOT_MATCH' });
  });
});
