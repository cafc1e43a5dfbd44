/*
 * Delivery receipts of SMPP 3.4 (§5.2.12 esm_class, §5.3.2.12 receipted_message_id,
 * §5.3.2.35 message_state, Appendix B text format). An SMSC sends a receipt as a deliver_sm with
 * the esm_class message type "SMSC Delivery Receipt"; most give the TLVs, many only the text
 * `id:… sub:… dlvrd:… submit date:… done date:… stat:DELIVRD err:000 text:…`. Both are read, the
 * TLVs first. Pure: unit-tested beside, used by the SMPP adapter.
 */

/** esm_class bits 2–5, the message type; 0b0001 there is an SMSC delivery receipt. */
const MESSAGE_TYPE_MASK = 0x3c;
const DELIVERY_RECEIPT = 0x04;

/** message_state values (SMPP 3.4 §5.2.28) and their Appendix B `stat` words. */
const STATES: Record<number, string> = {
  1: 'ENROUTE',
  2: 'DELIVRD',
  3: 'EXPIRED',
  4: 'DELETED',
  5: 'UNDELIV',
  6: 'ACCEPTD',
  7: 'UNKNOWN',
  8: 'REJECTD',
};

/** Final states that mean the phone did not get the message. */
const FAILED = new Set(['EXPIRED', 'DELETED', 'UNDELIV', 'UNKNOWN', 'REJECTD']);

export interface DeliveryReceipt {
  /** The SMSC's id of the part, as its submit_sm_resp gave it. */
  messageId: string;
  /** `delivered` and `failed` are final; `pending` (ENROUTE, ACCEPTD) changes nothing. */
  outcome: 'delivered' | 'failed' | 'pending';
  /** The SMSC's state word (DELIVRD, UNDELIV, …). */
  stat: string;
  /** The SMSC's error code (`err:` of the text, or the network_error_code TLV), when it gave one. */
  err: string | null;
}

export interface ReceiptFields {
  esm_class?: number | undefined;
  receipted_message_id?: string | undefined;
  message_state?: number | undefined;
  network_error_code?: Buffer | undefined;
  /** The decoded short_message text. */
  text?: string | undefined;
}

export function isDeliveryReceipt(esmClass: number | undefined): boolean {
  return ((esmClass ?? 0) & MESSAGE_TYPE_MASK) === DELIVERY_RECEIPT;
}

/** A deliver_sm's receipt, or null when it is none or names no message. */
export function parseDeliveryReceipt(pdu: ReceiptFields): DeliveryReceipt | null {
  if (!isDeliveryReceipt(pdu.esm_class)) return null;
  const text = pdu.text ?? '';
  const field = (name: string) =>
    new RegExp(`(?:^|\\s)${name}:(\\S+)`, 'i').exec(text)?.[1] ?? undefined;
  const messageId = pdu.receipted_message_id?.trim() || field('id');
  if (!messageId) return null;
  const stat = (
    (pdu.message_state !== undefined ? STATES[pdu.message_state] : undefined) ??
    field('stat') ??
    'UNKNOWN'
  ).toUpperCase();
  const err = field('err') ?? networkError(pdu.network_error_code);
  const outcome = stat === 'DELIVRD' ? 'delivered' : FAILED.has(stat) ? 'failed' : 'pending';
  return { messageId, outcome, stat, err: err ?? null };
}

/** network_error_code (§5.3.2.31): network type (1 octet) and error code (2 octets). */
function networkError(value: Buffer | undefined): string | undefined {
  if (!value || value.length < 3) return undefined;
  return `${value.readUInt8(0)}:${value.readUInt16BE(1)}`;
}

/**
 * Whether a receipt's id names the part the SMSC gave `smscId` in its submit_sm_resp: the same
 * id, or (as some SMSCs do) the decimal form of a hexadecimal one — `id:2712847316` for
 * `A1B2C3D4`, whatever the case and leading zeros of the hex.
 */
export function sameSmscId(receiptId: string, smscId: string): boolean {
  if (receiptId === smscId) return true;
  if (!/^\d{1,40}$/.test(receiptId) || !/^[0-9a-f]{1,32}$/i.test(smscId)) return false;
  return BigInt(receiptId) === BigInt(`0x${smscId}`);
}

/** What staff read for a failed receipt: the state and the error, as the SMSC said them. */
export function receiptError(receipt: DeliveryReceipt): string {
  return receipt.err ? `${receipt.stat} err:${receipt.err}` : receipt.stat;
}
