import { fromWireNumber } from '@alda/contract/rules/phone';
import type { NetworkCall } from '../network';
import type { NetworkSimulator } from '../simulator';

/*
 * The service specifications the demo OSS knows (docs/decisions/0082-network-tmf641.md, "Wire
 * format"), each carried out by the network simulator (`simulator.ts`): the demo answers as an
 * OSS with the simulator's results. A real OSS has its own catalogue; these ids are what Alda's
 * TMF641 adapter orders.
 */

/** A characteristic as the demo returns it on a completed item. */
export type ResultCharacteristic = {
  name: string;
  valueType: 'string';
  value: string;
};

/** A TMF641 error message (ServiceOrderErrorMessage / ServiceOrderItemErrorMessage). */
export interface DemoErrorMessage {
  code: string;
  reason: string;
  message: string;
}

export type ItemOutcome =
  { ok: true; results: ResultCharacteristic[] } | { ok: false; error: DemoErrorMessage };

/** The item's characteristics by name, as sent. */
export type Values = ReadonlyMap<string, unknown>;

export interface DemoSpecification {
  id: string;
  name: string;
  /** What is wrong with the item's characteristics (400 INVALID_CHARACTERISTIC), or null. */
  check(values: Values): string | null;
  /** Carries the item out on the simulator at `at`. */
  perform(
    network: NetworkSimulator,
    values: Values,
    at: Date,
    call: NetworkCall,
  ): Promise<ItemOutcome>;
}

const result = (name: string, value: string): ResultCharacteristic => ({
  name,
  valueType: 'string',
  value,
});

/** The number as the simulator keeps it (6 digits), from `298xxxxxx` (or 6 digits), or null. */
function localNumber(values: Values): string | null {
  const value = values.get('msisdn');
  if (typeof value !== 'string' || !/^(298)?\d{6}$/.test(value)) return null;
  return fromWireNumber(value);
}

function text(values: Values, name: string): string | null {
  const value = values.get(name);
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : null;
}

/** `true`/`false`, also as the strings a client may send; null for anything else. */
function flag(values: Values, name: string): boolean | null {
  const value = values.get(name);
  if (value === true || value === 'true') return true;
  if (value === false || value === 'false') return false;
  return null;
}

const MSISDN_PROBLEM = 'msisdn must be the number as 298 and 6 digits';

/** The number (as a string of 298 and six digits) and nothing else is needed. */
function numberOnly(values: Values): string | null {
  return localNumber(values) === null ? MSISDN_PROBLEM : null;
}

/** A card number as a donor operator checks it: 10 to 22 digits. */
const ICCID = /^\d{10,22}$/;

function barring(id: string, name: string, characteristic: string, kind: 'data' | 'roaming') {
  const spec: DemoSpecification = {
    id,
    name,
    check(values) {
      if (localNumber(values) === null) return MSISDN_PROBLEM;
      return flag(values, characteristic) === null
        ? `${characteristic} must be true or false`
        : null;
    },
    async perform(network, values, _at, call) {
      const msisdn = localNumber(values)!;
      const barred = flag(values, characteristic)!;
      if (kind === 'data') await network.setDataBarred(msisdn, barred, call);
      else await network.setRoamingDataBarred(msisdn, barred, call);
      return { ok: true, results: [] };
    },
  };
  return spec;
}

export const DEMO_SPECIFICATIONS: readonly DemoSpecification[] = [
  {
    id: 'alda-mobile-line',
    name: 'Mobile line',
    check(values) {
      if (localNumber(values) === null) return MSISDN_PROBLEM;
      const iccid = text(values, 'iccid');
      const matchingId = text(values, 'esimMatchingId');
      if ((iccid === null) === (matchingId === null))
        return 'exactly one of iccid and esimMatchingId is needed';
      return iccid !== null && !ICCID.test(iccid) ? 'iccid must be 10 to 22 digits' : null;
    },
    async perform(network, values, _at, call) {
      await network.activate(
        {
          msisdn: localNumber(values)!,
          iccid: text(values, 'iccid'),
          esimMatchingId: text(values, 'esimMatchingId'),
        },
        call,
      );
      return { ok: true, results: [] };
    },
  },
  {
    id: 'alda-esim-profile',
    name: 'eSIM profile',
    check: numberOnly,
    async perform(network, values, _at, call) {
      const profile = await network.prepareEsim(localNumber(values)!, call);
      return {
        ok: true,
        results: [
          result('smdpAddress', profile.smdpAddress),
          result('matchingId', profile.matchingId),
        ],
      };
    },
  },
  {
    id: 'alda-sim-card',
    name: 'SIM card',
    check: numberOnly,
    async perform(network, values, _at, call) {
      const card = await network.issueSim(localNumber(values)!, call);
      return {
        ok: true,
        results: [result('iccid', card.iccid), result('pin', card.pin), result('puk', card.puk)],
      };
    },
  },
  {
    id: 'alda-number-port-in',
    name: 'Number port-in',
    check(values) {
      if (localNumber(values) === null) return MSISDN_PROBLEM;
      const donor = text(values, 'donorIccid');
      return donor === null || !ICCID.test(donor)
        ? "donorIccid must be the donor SIM card's number (10 to 22 digits)"
        : null;
    },
    async perform(network, values, at, call) {
      const answer = await network.requestPort(
        localNumber(values)!,
        text(values, 'donorIccid')!,
        at,
        call,
      );
      if (answer.status === 'rejected') {
        return {
          ok: false,
          error: {
            code: answer.code,
            reason: 'The donor operator refused the port',
            message: 'The SIM card number does not match the number to port.',
          },
        };
      }
      return { ok: true, results: [result('portDate', answer.portDate.toISOString())] };
    },
  },
  barring('alda-data-barring', 'Data barring', 'dataBarred', 'data'),
  barring('alda-roaming-data-barring', 'Roaming data barring', 'roamingDataBarred', 'roaming'),
];

export function specificationOf(id: string): DemoSpecification | undefined {
  return DEMO_SPECIFICATIONS.find((spec) => spec.id === id);
}
