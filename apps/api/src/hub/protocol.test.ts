import { describe, expect, it } from 'vitest';
import { createConnectionTokens } from './connection-tokens';
import {
  checkHandshake,
  completionMessage,
  HubProtocolError,
  MessageReader,
  parseClientMessage,
  RECORD_SEPARATOR as RS,
} from './protocol';

describe('MessageReader (HubProtocol.md: JSON messages terminated by 0x1E)', () => {
  it('splits several messages of one frame and keeps an unfinished one for the next frame', () => {
    const reader = new MessageReader(100);
    expect(reader.push(`{"type":6}${RS}{"type":6}${RS}{"ty`)).toEqual(['{"type":6}', '{"type":6}']);
    expect(reader.push(`pe":7}${RS}`)).toEqual(['{"type":7}']);
    expect(reader.push('')).toEqual([]);
  });

  it('refuses a message, finished or not, longer than the limit', () => {
    expect(() => new MessageReader(10).push(`${'x'.repeat(11)}${RS}`)).toThrow(HubProtocolError);
    const reader = new MessageReader(10);
    reader.push('x'.repeat(6));
    expect(() => reader.push('x'.repeat(6))).toThrow('Message is too large.');
  });
});

describe('handshake and messages', () => {
  it('accepts json v1 only, with the wording ASP.NET Core uses', () => {
    expect(checkHandshake('{"protocol":"json","version":1}')).toBeNull();
    expect(checkHandshake('{"protocol":"messagepack","version":1}')).toBe(
      "The protocol 'messagepack' is not supported.",
    );
    expect(checkHandshake('{"protocol":"json","version":2}')).toBe(
      "The server does not support version 2 of the 'json' protocol.",
    );
    expect(checkHandshake('{}')).toMatch(/must name a protocol/);
    expect(checkHandshake('nope')).toMatch(/not valid JSON/);
  });

  it('parses invocations and ignores message types it has nothing to do with', () => {
    expect(
      parseClientMessage(
        '{"type":1,"invocationId":"1","target":"ListenToOrder","arguments":["a"]}',
      ),
    ).toEqual({
      type: 1,
      invocationId: '1',
      target: 'ListenToOrder',
      arguments: ['a'],
      streamIds: undefined,
    });
    expect(parseClientMessage('{"type":1,"target":"X"}')).toMatchObject({ arguments: [] });
    expect(parseClientMessage('{"type":8,"sequenceId":3}')).toEqual({ type: 'ignored' });
    expect(parseClientMessage('{"type":42}')).toEqual({ type: 'ignored' });
    expect(() => parseClientMessage('{"type":1,"arguments":[]}')).toThrow(HubProtocolError);
    expect(() => parseClientMessage('{"type":1,"target":"X","arguments":{}}')).toThrow(
      HubProtocolError,
    );
    expect(() => parseClientMessage('[1]')).toThrow(HubProtocolError);
  });

  it('writes completions with a result, without one (void) and with an error', () => {
    expect(completionMessage('1', { result: 5 })).toBe(
      `{"type":3,"invocationId":"1","result":5}${RS}`,
    );
    expect(completionMessage('2', { result: undefined })).toBe(
      `{"type":3,"invocationId":"2"}${RS}`,
    );
    expect(completionMessage('3', { error: 'no' })).toBe(
      `{"type":3,"invocationId":"3","error":"no"}${RS}`,
    );
  });
});

describe('connection tokens', () => {
  const key = new Uint8Array(32).fill(7);

  it('open one connection for the user they were issued to, once, within their lifetime', () => {
    let now = 1_000_000;
    const tokens = createConnectionTokens({ key, ttlMs: 15_000, now: () => now });
    const { connectionId, connectionToken } = tokens.issue('user-a');
    expect(tokens.redeem(connectionToken, 'user-b')).toBeNull();
    expect(tokens.redeem(connectionToken, 'user-a')).toEqual({ connectionId });
    expect(tokens.redeem(connectionToken, 'user-a')).toBeNull();

    const late = tokens.issue('user-a').connectionToken;
    now += 15_001;
    expect(tokens.redeem(late, 'user-a')).toBeNull();
  });

  it('refuse a token signed with another key or altered in any way', () => {
    const tokens = createConnectionTokens({ key, ttlMs: 15_000 });
    const other = createConnectionTokens({ key: new Uint8Array(32).fill(8), ttlMs: 15_000 });
    expect(tokens.redeem(other.issue('user-a').connectionToken, 'user-a')).toBeNull();

    const [body, signature] = tokens.issue('user-a').connectionToken.split('.');
    const forged = Buffer.from(
      JSON.stringify({
        ...JSON.parse(Buffer.from(body ?? '', 'base64url').toString()),
        u: 'user-b',
      }),
    ).toString('base64url');
    expect(tokens.redeem(`${forged}.${signature}`, 'user-b')).toBeNull();
    expect(tokens.redeem(`${body}.`, 'user-a')).toBeNull();
    expect(tokens.redeem('garbage', 'user-a')).toBeNull();
  });
});
