import { describe, expect, it } from 'vitest';
import { isDeliveryReceipt, parseDeliveryReceipt, receiptError, sameSmscId } from './smpp-receipt';

const TEXT =
  'id:7A1F00 sub:001 dlvrd:001 submit date:2611260400 done date:2611260401 stat:DELIVRD err:000 text:Kotan hja';

describe('SMPP delivery receipts (issue 43: deliver_sm receipts give each message a state)', () => {
  it('reads a receipt given only as text (SMPP 3.4 Appendix B)', () => {
    expect(parseDeliveryReceipt({ esm_class: 0x04, text: TEXT })).toEqual({
      messageId: '7A1F00',
      outcome: 'delivered',
      stat: 'DELIVRD',
      err: '000',
    });
    const failed = parseDeliveryReceipt({
      esm_class: 0x04,
      text: TEXT.replace('DELIVRD', 'UNDELIV').replace('err:000', 'err:001'),
    });
    expect(failed).toMatchObject({ outcome: 'failed', stat: 'UNDELIV', err: '001' });
    expect(failed && receiptError(failed)).toBe('UNDELIV err:001');
  });

  it('prefers the TLVs receipted_message_id and message_state', () => {
    expect(
      parseDeliveryReceipt({
        esm_class: 0x04,
        receipted_message_id: 'smsc-42',
        message_state: 5,
        network_error_code: Buffer.from([3, 0, 1]),
        text: TEXT,
      }),
    ).toEqual({ messageId: 'smsc-42', outcome: 'failed', stat: 'UNDELIV', err: '000' });
    expect(
      parseDeliveryReceipt({
        esm_class: 0x04,
        receipted_message_id: 'smsc-43',
        message_state: 8,
        network_error_code: Buffer.from([3, 0, 11]),
      }),
    ).toEqual({ messageId: 'smsc-43', outcome: 'failed', stat: 'REJECTD', err: '3:11' });
    expect(
      parseDeliveryReceipt({ esm_class: 0x04, receipted_message_id: 'x', message_state: 2 }),
    ).toMatchObject({ outcome: 'delivered' });
  });

  it('treats every final failure as failed, and ENROUTE or ACCEPTD as not final', () => {
    for (const stat of ['EXPIRED', 'DELETED', 'UNDELIV', 'UNKNOWN', 'REJECTD'])
      expect(parseDeliveryReceipt({ esm_class: 4, text: `id:1 stat:${stat}` })?.outcome).toBe(
        'failed',
      );
    for (const stat of ['ENROUTE', 'ACCEPTD'])
      expect(parseDeliveryReceipt({ esm_class: 4, text: `id:1 stat:${stat}` })?.outcome).toBe(
        'pending',
      );
  });

  it('ignores a deliver_sm that is no receipt (a reply from a phone), or names no message', () => {
    expect(isDeliveryReceipt(0x00)).toBe(false);
    expect(isDeliveryReceipt(0x40)).toBe(false);
    expect(isDeliveryReceipt(0x44)).toBe(true);
    expect(parseDeliveryReceipt({ esm_class: 0, text: TEXT })).toBeNull();
    expect(parseDeliveryReceipt({ esm_class: 4, text: 'stat:DELIVRD' })).toBeNull();
  });
});

describe('receipt ids in another form (issue 61 §5)', () => {
  it('matches a receipt id that is the decimal form of the hex id of submit_sm_resp', () => {
    expect(sameSmscId('m1', 'm1')).toBe(true);
    expect(sameSmscId('2712847316', 'A1B2C3D4')).toBe(true);
    expect(sameSmscId('2712847316', 'a1b2c3d4')).toBe(true);
    expect(sameSmscId('169552901', '000A1B2C05')).toBe(true);
    // 64-bit ids, beyond a double's exact integers.
    expect(sameSmscId('18446744073709551615', 'FFFFFFFFFFFFFFFF')).toBe(true);
  });

  it('matches nothing else: another number, a non-hex id, or hex given for a decimal id', () => {
    expect(sameSmscId('2712847317', 'A1B2C3D4')).toBe(false);
    expect(sameSmscId('12', 'm12')).toBe(false);
    expect(sameSmscId('A1B2C3D4', '2712847316')).toBe(false);
    expect(sameSmscId('', '0')).toBe(false);
  });
});
