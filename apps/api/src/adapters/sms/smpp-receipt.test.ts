import { describe, expect, it } from 'vitest';
import { isDeliveryReceipt, parseDeliveryReceipt, receiptError } from './smpp-receipt';

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
