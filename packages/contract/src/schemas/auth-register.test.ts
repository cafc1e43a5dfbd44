import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  enterPinRequest,
  registerRequest,
  requestPinRequest,
  reservedNumbersResponse,
  resetPasswordForm,
  resetPasswordRequest,
  type RegisterRequestInput,
} from './auth-register';

const valid: RegisterRequestInput = {
  firstname: ' Jóannes ',
  lastname: 'Patursson',
  email: ' Joannes@Example.FO ',
  phoneNumber: '+298 21 12 34',
  birthDate: '17.06.1990',
  address: 'Áarvegur 12',
  postCode: '100',
  city: 'Tórshavn',
  password: 'Kirkjubøur1',
  passwordRepeat: 'Kirkjubøur1',
};

const keysOf = (result: { error?: { issues: { path: PropertyKey[]; message: string }[] } }) =>
  Object.fromEntries((result.error?.issues ?? []).map((i) => [i.path.join('.'), i.message]));

describe('register request (SPEC §5, §7 register)', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date('2024-06-01T12:00:00Z'));
  });
  afterEach(() => vi.useRealTimers());

  it('accepts a complete form and normalises it (SPEC §5)', () => {
    const parsed = registerRequest.parse(valid);
    expect(parsed).toMatchObject({
      firstname: 'Jóannes',
      email: 'joannes@example.fo',
      phoneNumber: '211234',
      birthDate: '17.06.1990',
      postCode: '100',
    });
  });

  it('parses its own output to the same value, so a form can post what it parsed (SPEC §5)', () => {
    const once = registerRequest.parse(valid);
    expect(registerRequest.parse(once)).toEqual(once);
  });

  it('reports REQUIRED, once, for every missing or empty field at once (SPEC §5)', () => {
    const blank = Object.fromEntries(Object.keys(valid).map((field) => [field, '']));
    for (const input of [{}, blank]) {
      const issues = registerRequest.safeParse(input).error?.issues ?? [];
      expect(issues.map((i) => i.path.join('.')).sort()).toEqual(Object.keys(valid).sort());
      expect(new Set(issues.map((i) => i.message))).toEqual(new Set(['REQUIRED']));
    }
  });

  it('reports each rule’s own key (SPEC §5)', () => {
    const result = registerRequest.safeParse({
      ...valid,
      email: 'joannes@',
      phoneNumber: '12345',
      birthDate: '31.02.1990',
      postCode: '1000',
      password: 'kirkjubour',
      passwordRepeat: 'something else',
    });
    expect(keysOf(result)).toEqual({
      email: 'INVALID_EMAIL',
      phoneNumber: 'INVALID_PHONE',
      birthDate: 'INVALID_DATE',
      postCode: 'INVALID_POSTCODE',
      password: 'PASSWORD_TOO_WEAK',
      passwordRepeat: 'PASSWORDS_DO_NOT_MATCH',
    });
  });

  it('reports one key per failed field, the first rule it breaks (SPEC §5)', () => {
    const issues = registerRequest.safeParse({
      ...valid,
      email: '',
      birthDate: '31.02.1990',
      postCode: '12',
    }).error?.issues;
    expect(issues?.map((i) => [i.path.join('.'), i.message])).toEqual([
      ['email', 'REQUIRED'],
      ['birthDate', 'INVALID_DATE'],
      ['postCode', 'INVALID_POSTCODE'],
    ]);
  });

  it('rejects users under 18 with TOO_YOUNG (SPEC §5)', () => {
    expect(keysOf(registerRequest.safeParse({ ...valid, birthDate: '02.06.2006' }))).toEqual({
      birthDate: 'TOO_YOUNG',
    });
    expect(registerRequest.safeParse({ ...valid, birthDate: '01.06.2006' }).success).toBe(true);
  });

  it('rejects postal codes that do not exist in the Faroe Islands (SPEC §3, §5)', () => {
    expect(keysOf(registerRequest.safeParse({ ...valid, postCode: '999' }))).toEqual({
      postCode: 'UNKNOWN_POSTCODE',
    });
  });
});

describe('phone login and password reset (SPEC §7 Auth)', () => {
  it('normalises the number of request-pin and enter-pin (SPEC §5, §7)', () => {
    expect(requestPinRequest.parse({ phoneNumber: '00298 211234' })).toEqual({
      phoneNumber: '211234',
    });
    expect(enterPinRequest.parse({ phoneNumber: '211234', password: ' 123456 ' })).toEqual({
      phoneNumber: '211234',
      password: '123456',
    });
    expect(
      keysOf(enterPinRequest.safeParse({ phoneNumber: '211234', password: '12a456' })),
    ).toEqual({
      password: 'INVALID_PIN',
    });
    expect(enterPinRequest.safeParse({ phoneNumber: '', password: '' }).error?.issues).toHaveLength(
      2,
    );
  });

  it('takes {token, password} to reset, and checks the repeat on the form (SPEC §5, §7)', () => {
    expect(resetPasswordRequest.parse({ token: 't0k3n', password: 'Nýtt-loyniorð1' }).token).toBe(
      't0k3n',
    );
    expect(keysOf(resetPasswordRequest.safeParse({ token: '', password: 'weak' }))).toEqual({
      token: 'REQUIRED',
      password: 'PASSWORD_TOO_WEAK',
    });
    expect(
      keysOf(
        resetPasswordForm.safeParse({
          token: 't',
          password: 'Abcdefg1',
          passwordRepeat: 'Abcdefg2',
        }),
      ),
    ).toEqual({ passwordRepeat: 'PASSWORDS_DO_NOT_MATCH' });
  });

  it('describes a number search answer (SPEC §7 reserved-numbers)', () => {
    const answer = {
      phoneNumber: '211234',
      status: 'free',
      reservationId: 'res_1',
      reservedUntil: '2024-06-01T12:15:00Z',
      suggestions: [],
      numberClass: null,
      oneOffPrice: null,
    };
    expect(reservedNumbersResponse.parse(answer)).toEqual(answer);
    expect(reservedNumbersResponse.safeParse({ ...answer, status: 'taken' }).success).toBe(false);
    // An easy number carries its class and one-off price (issue 33 §1, ADR 0077).
    const easy = {
      ...answer,
      phoneNumber: '222222',
      numberClass: 'solid',
      oneOffPrice: { net: 160000, vat: 40000, gross: 200000 },
    };
    expect(reservedNumbersResponse.parse(easy)).toEqual(easy);
    expect(reservedNumbersResponse.safeParse({ ...easy, numberClass: 'shiny' }).success).toBe(
      false,
    );
  });
});
