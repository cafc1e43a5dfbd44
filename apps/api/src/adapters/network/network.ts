import { randomUUID } from 'node:crypto';
import type { Db } from '../../db/client';

/**
 * The seam to the mobile network's provisioning systems (docs/decisions/0055-provisioning.md):
 * the HLR/HSS that makes a number live, the SM-DP+ that serves eSIM profiles, the SIM stock and
 * the number portability database. Two adapters implement it, chosen by `NETWORK_ADAPTER`: the
 * simulator (`simulator.ts`, the default: everything happens in memory) and TMF641 Service
 * Ordering against the operator's OSS (`tmf641/`, docs/decisions/0082-network-tmf641.md), where
 * every call is a service order that completes later.
 */

/** The other provider's answer to a port request. */
export type PortAnswer =
  | { status: 'accepted'; /** The day the number moves to us. */ portDate: Date }
  | {
      status: 'rejected';
      /** Why; the customer can correct the SIM card number and ask again. */
      code: 'PORT_SIMCARD_MISMATCH';
    };

/** An eSIM profile prepared on the SM-DP+ (GSMA SGP.22 activation code parts). */
export interface EsimProfile {
  smdpAddress: string;
  /** Matching id, e.g. `A1B2-C3D4-E5F6-G7H8`. */
  matchingId: string;
}

/** A physical SIM taken from stock for a number. */
export interface IssuedSim {
  /** ITU-T E.118 ICCID with its Luhn check digit. */
  iccid: string;
  pin: string;
  puk: string;
}

export interface ActivateInput {
  msisdn: string;
  /** The physical SIM (ICCID) or the eSIM profile (matching id) the number is put on. */
  iccid: string | null;
  esimMatchingId: string | null;
}

/**
 * What every call carries besides its values.
 *
 * `key` is the call's idempotency key (the TMF641 adapter's `externalId`): the same key is the
 * same logical call, so asking again — a worker round after the network said "not yet", a retry
 * after a crash — never makes a second order; a new key is a new order. Provisioning uses
 * {@link orderCallKey}, a barring change {@link barringKey}. The simulator ignores it.
 *
 * `tx` is the caller's open transaction when the call is made inside one (provisioning steps,
 * the owner controls): on the embedded PGlite, one connection, the TMF641 adapter records its
 * service order there, since a write beside the transaction would wait for it to end.
 */
export interface NetworkCall {
  key: string;
  tx?: Db | undefined;
}

/**
 * The network has not finished the call yet (a TMF641 service order acknowledged or in
 * progress): nothing is done, ask again with the same key after `retryAfterS` seconds (sooner
 * when the network says it is done). Provisioning leaves the order waiting on the network.
 */
export class NetworkPendingError extends Error {
  override name = 'NetworkPendingError';
  constructor(
    readonly key: string,
    /** The network's state of the order, e.g. `acknowledged`, `inProgress`, `held`. */
    readonly state: string,
    readonly retryAfterS: number,
  ) {
    super(`network order ${key} is ${state}; ask again in ${retryAfterS} s`);
  }
}

/**
 * The network carried out the call and it failed (a TMF641 order `failed`, `partial`,
 * `rejected` or `cancelled`): `reason` is the network's own words, for staff; `code` its error
 * code when it gave one. Asking again with the same key answers the same failure.
 */
export class NetworkOrderFailedError extends Error {
  override name = 'NetworkOrderFailedError';
  constructor(
    readonly key: string,
    readonly state: string,
    readonly code: string | null,
    readonly reason: string,
  ) {
    super(`network order ${key} ${state}: ${code ? `${code}: ` : ''}${reason}`);
  }
}

/**
 * The key of a provisioning order's network call: `alda:order:<orderId>:<call>:<attempt>`, where
 * `call` names the step or the call within it (`esim_ready`, `port_date_set`, `prepareEsim`,
 * `issueSim`, `activate`) and `attempt` counts the failed and rejected steps the order has had,
 * so an operator's retry after a failure, or a port asked again with a corrected SIM card
 * number, is a new order while a worker round asking again is not.
 */
export function orderCallKey(orderId: string, call: string, attempt: number): string {
  return `alda:order:${orderId}:${call}:${attempt}`;
}

/**
 * The key of one barring change: `alda:bar:<line or number>:<data|roaming>:<true|false>:<uuid>`,
 * fresh for every logical change (the owner pausing data, the roaming cap stopping a number):
 * setting the same state again later is a new order, so a bar that failed is set by the next.
 */
export function barringKey(subject: string, what: 'data' | 'roaming', barred: boolean): string {
  return `alda:bar:${subject}:${what}:${String(barred)}:${randomUUID()}`;
}

export interface NetworkAdapter {
  readonly kind: 'simulator' | 'tmf641';
  /** Seconds an automatic step takes (the worker schedules the next step this far ahead). */
  readonly stepS: number;
  /** Asks the current provider to release `msisdn`; the SIM card number proves the holder. */
  requestPort(msisdn: string, iccid: string, now: Date, call: NetworkCall): Promise<PortAnswer>;
  /** Prepares an eSIM profile for the number. */
  prepareEsim(msisdn: string, call: NetworkCall): Promise<EsimProfile>;
  /** Takes a physical SIM from stock for the number. */
  issueSim(msisdn: string, call: NetworkCall): Promise<IssuedSim>;
  /** Puts the number in service on the SIM (the old SIM of the number stops). */
  activate(input: ActivateInput, call: NetworkCall): Promise<void>;
  /**
   * Bars (`true`) or lets through (`false`) the number's mobile data in the network (the HLR/HSS
   * subscriber profile); calls and SMS are untouched. Sets a state, never toggles, so a retried
   * or repeated call is harmless (the owner controls of ADR 0068 rely on it). Throws when the
   * network did not take the change. Resolves only once the network has carried it out (the
   * TMF641 adapter waits up to TMF641_WAIT_S for that).
   */
  setDataBarred(msisdn: string, barred: boolean, call: NetworkCall): Promise<void>;
  /**
   * Bars (`true`) or lets through (`false`) the number's mobile data while roaming only (the
   * roaming spend cap, ADR 0078); data at home, calls and SMS are untouched. Sets a state, never
   * toggles; throws when the network did not take the change.
   */
  setRoamingDataBarred(msisdn: string, barred: boolean, call: NetworkCall): Promise<void>;
}
