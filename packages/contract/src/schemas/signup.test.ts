import { describe, expect, it } from 'vitest';
import { signupPayload, type SignupPayloadInput } from './signup';

const esim: SignupPayloadInput = {
  planId: 'plan_10gb',
  euPackage: false,
  phoneNumberReservationId: 'res_1',
  eSim: true,
  hasAcceptedBindingPeriod: true,
  hasAcceptedTerms: true,
  simcardNumber: null,
  porting: null,
  simPickupLocationId: null,
  simShippingAddress: null,
};

const keysOf = (input: unknown) =>
  Object.fromEntries(
    (signupPayload.safeParse(input).error?.issues ?? []).map((i) => [i.path.join('.'), i.message]),
  );

describe('signup payload (SPEC §3 "Signup payload", §5)', () => {
  it('accepts a new number on an eSIM (SPEC §3)', () => {
    expect(signupPayload.parse(esim)).toEqual({ ...esim, sameAddressConfirmed: false });
  });

  it('accepts a ported number on a physical SIM shipped home (SPEC §3)', () => {
    const parsed = signupPayload.parse({
      ...esim,
      phoneNumberReservationId: null,
      eSim: false,
      porting: { phoneNumber: '+298 21 12 34', simcardNumber: '8929 8010 0000 0000 128' },
      simShippingAddress: { address: 'Heygsvegur 3', postCode: '700', city: 'Klaksvík' },
    });
    expect(parsed.porting).toEqual({ phoneNumber: '211234', simcardNumber: '8929801000000000128' });
    expect(signupPayload.parse(parsed)).toEqual(parsed);
  });

  it('requires the binding period and the terms to be accepted (SPEC §1 commitment, §5 terms)', () => {
    expect(keysOf({ ...esim, hasAcceptedBindingPeriod: false, hasAcceptedTerms: false })).toEqual({
      hasAcceptedBindingPeriod: 'MUST_ACCEPT',
      hasAcceptedTerms: 'MUST_ACCEPT',
    });
  });

  it('needs exactly one of a reserved number or porting (SPEC §3)', () => {
    expect(keysOf({ ...esim, phoneNumberReservationId: null })).toEqual({
      phoneNumberReservationId: 'REQUIRED',
    });
    expect(
      keysOf({ ...esim, porting: { phoneNumber: '211234', simcardNumber: '8929801000000000128' } }),
    ).toEqual({ phoneNumberReservationId: 'REQUIRED' });
  });

  it('needs a physical SIM to come from exactly one place (SPEC §3 "Signup state")', () => {
    expect(keysOf({ ...esim, eSim: false })).toEqual({ simPickupLocationId: 'REQUIRED' });
    expect(
      signupPayload.safeParse({ ...esim, eSim: false, simPickupLocationId: 'posta_havn' }).success,
    ).toBe(true);
    expect(
      keysOf({
        ...esim,
        eSim: false,
        simPickupLocationId: 'posta_havn',
        simShippingAddress: { address: 'Heygsvegur 3', postCode: '700', city: 'Klaksvík' },
      }),
    ).toEqual({ simPickupLocationId: 'REQUIRED' });
    expect(keysOf({ ...esim, simPickupLocationId: 'posta_havn' })).toEqual({ eSim: 'INVALID' });
  });

  it('checks the shipping address and SIM card numbers (SPEC §3, §5)', () => {
    expect(
      keysOf({
        ...esim,
        eSim: false,
        simShippingAddress: { address: '', postCode: '12', city: 'Klaksvík' },
      }),
    ).toEqual({
      'simShippingAddress.address': 'REQUIRED',
      'simShippingAddress.postCode': 'INVALID_POSTCODE',
    });
    expect(keysOf({ ...esim, eSim: false, simcardNumber: '1234' })).toEqual({
      simcardNumber: 'INVALID_SIMCARD_NUMBER',
    });
  });
});
