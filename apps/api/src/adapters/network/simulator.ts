import { randomInt } from 'node:crypto';
import { luhnCheckDigit } from '@alda/contract/rules/iccid';
import type { NetworkAdapter } from './network';

/** ICCID prefix of our cards: 89 (telecom), 298 (Faroe Islands), then issuer digits. */
const ICCID_PREFIX = '8929801';
/** Letters and digits of a matching id, without the easily confused 0/O and 1/I. */
const MATCHING_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

function digits(count: number): string {
  let out = '';
  for (let i = 0; i < count; i += 1) out += String(randomInt(10));
  return out;
}

/** A matching id like `A1B2-C3D4-E5F6-G7H8`: four groups of four upper-case letters or digits. */
export function newMatchingId(): string {
  const groups: string[] = [];
  for (let g = 0; g < 4; g += 1) {
    let group = '';
    for (let i = 0; i < 4; i += 1) group += MATCHING_ALPHABET[randomInt(MATCHING_ALPHABET.length)];
    groups.push(group);
  }
  return groups.join('-');
}

/** A 19-digit ICCID of ours with a valid Luhn check digit. */
export function newIccid(): string {
  const payload = `${ICCID_PREFIX}${digits(11)}`;
  return `${payload}${luhnCheckDigit(payload)}`;
}

/** The simulator, which can also be asked what it holds (tests, the demo). */
export interface NetworkSimulator extends NetworkAdapter {
  /** Whether the number's mobile data is barred in the simulated network. */
  isDataBarred(msisdn: string): boolean;
  /** Whether the number's data abroad is barred (the roaming cap was reached, ADR 0078). */
  isRoamingDataBarred(msisdn: string): boolean;
}

/**
 * The network simulator (the default adapter): everything succeeds after `stepS` seconds, except
 * a port whose SIM card number ends in `0000`, which the other provider rejects
 * (PORT_SIMCARD_MISMATCH) — so the correction path can be tried in the demo. Data bars are kept
 * in memory, as the HLR would keep them (a restart of the simulator forgets them; the database
 * still says which numbers are paused, and the demo's usage simulator reads that).
 */
export function createNetworkSimulator(options: {
  stepS: number;
  smdpAddress: string;
}): NetworkSimulator {
  const barred = new Set<string>();
  const roamingBarred = new Set<string>();
  return {
    kind: 'simulator',
    stepS: options.stepS,
    async requestPort(_msisdn, iccid, now) {
      if (iccid.endsWith('0000')) return { status: 'rejected', code: 'PORT_SIMCARD_MISMATCH' };
      return { status: 'accepted', portDate: new Date(now.getTime() + options.stepS * 1000) };
    },
    async prepareEsim() {
      return { smdpAddress: options.smdpAddress, matchingId: newMatchingId() };
    },
    async issueSim() {
      return { iccid: newIccid(), pin: digits(4), puk: digits(8) };
    },
    async activate() {},
    async setDataBarred(msisdn, bar) {
      if (bar) barred.add(msisdn);
      else barred.delete(msisdn);
    },
    isDataBarred: (msisdn) => barred.has(msisdn),
    async setRoamingDataBarred(msisdn, bar) {
      if (bar) roamingBarred.add(msisdn);
      else roamingBarred.delete(msisdn);
    },
    isRoamingDataBarred: (msisdn) => roamingBarred.has(msisdn),
  };
}
