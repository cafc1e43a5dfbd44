/**
 * The seam to the mobile network's provisioning systems (docs/decisions/0055-provisioning.md):
 * the HLR/HSS that makes a number live, the SM-DP+ that serves eSIM profiles, the SIM stock and
 * the number portability database. Only the simulator exists today (`simulator.ts`); a real
 * adapter implements the same calls.
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

export interface NetworkAdapter {
  readonly kind: 'simulator';
  /** Seconds an automatic step takes (the worker schedules the next step this far ahead). */
  readonly stepS: number;
  /** Asks the current provider to release `msisdn`; the SIM card number proves the holder. */
  requestPort(msisdn: string, iccid: string, now: Date): Promise<PortAnswer>;
  /** Prepares an eSIM profile for the number. */
  prepareEsim(msisdn: string): Promise<EsimProfile>;
  /** Takes a physical SIM from stock for the number. */
  issueSim(msisdn: string): Promise<IssuedSim>;
  /** Puts the number in service on the SIM (the old SIM of the number stops). */
  activate(input: ActivateInput): Promise<void>;
  /**
   * Bars (`true`) or lets through (`false`) the number's mobile data in the network (the HLR/HSS
   * subscriber profile); calls and SMS are untouched. Sets a state, never toggles, so a retried
   * or repeated call is harmless (the owner controls of ADR 0068 rely on it). Throws when the
   * network did not take the change.
   */
  setDataBarred(msisdn: string, barred: boolean): Promise<void>;
  /**
   * Bars (`true`) or lets through (`false`) the number's mobile data while roaming only (the
   * roaming spend cap, ADR 0078); data at home, calls and SMS are untouched. Sets a state, never
   * toggles; throws when the network did not take the change.
   */
  setRoamingDataBarred(msisdn: string, barred: boolean): Promise<void>;
}
