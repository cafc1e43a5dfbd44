/*
 * The ASP.NET Core SignalR JSON hub protocol, version 1 (dotnet/aspnetcore
 * src/SignalR/docs/specs/HubProtocol.md): UTF-8 JSON messages, each terminated by the record
 * separator 0x1E, preceded by a handshake. Only what a server needs: parsing what clients send,
 * writing what servers send. No I/O here (hub-server.ts owns the sockets).
 */

/** Terminates every message, handshake included. */
export const RECORD_SEPARATOR = '\u001e';

/** Message types of the hub protocol. */
export const MessageType = {
  Invocation: 1,
  StreamItem: 2,
  Completion: 3,
  StreamInvocation: 4,
  CancelInvocation: 5,
  Ping: 6,
  Close: 7,
  Ack: 8,
  Sequence: 9,
} as const;

export const HUB_PROTOCOL_NAME = 'json';
export const HUB_PROTOCOL_VERSION = 1;

/** A client's request to run a hub method (type 1); without invocationId it wants no answer. */
export interface InvocationMessage {
  type: typeof MessageType.Invocation;
  invocationId?: string | undefined;
  target: string;
  arguments: unknown[];
  /** Client-to-server streams (not supported here). */
  streamIds?: string[] | undefined;
}

/** What a client may send after the handshake, as far as this server cares. */
export type ClientMessage =
  | InvocationMessage
  | { type: typeof MessageType.StreamInvocation; invocationId: string; target: string }
  | { type: typeof MessageType.CancelInvocation; invocationId: string }
  | { type: typeof MessageType.Ping }
  | { type: typeof MessageType.Close; error?: string | undefined }
  /** Any other type (stream items, completions, ack/sequence): valid, but nothing to do. */
  | { type: 'ignored' };

/** Thrown for bytes that are not the hub protocol: the connection is closed with an error. */
export class HubProtocolError extends Error {
  override name = 'HubProtocolError';
}

/**
 * Splits incoming text frames into messages. A frame may carry several messages, and (not with
 * the official clients, but a proxy or another client may) one message may span frames, so an
 * incomplete tail is kept until its separator arrives — up to `maxMessageChars`.
 */
export class MessageReader {
  private pending = '';

  constructor(private readonly maxMessageChars: number) {}

  /** The complete messages in `chunk` (plus what was pending), without separators. */
  push(chunk: string): string[] {
    const text = this.pending + chunk;
    const parts = text.split(RECORD_SEPARATOR);
    this.pending = parts.pop() ?? '';
    if (this.pending.length > this.maxMessageChars) {
      throw new HubProtocolError('Message is too large.');
    }
    for (const part of parts) {
      if (part.length > this.maxMessageChars) throw new HubProtocolError('Message is too large.');
    }
    return parts;
  }
}

function parseJsonObject(text: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new HubProtocolError('Message is not valid JSON.');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new HubProtocolError('Message is not a JSON object.');
  }
  return value as Record<string, unknown>;
}

/**
 * The handshake request `{"protocol":"json","version":1}`. Answers the error text to send back
 * (`{"error": …}`) when the protocol or version is not ours, or null when accepted.
 */
export function checkHandshake(text: string): string | null {
  let request: Record<string, unknown>;
  try {
    request = parseJsonObject(text);
  } catch {
    return 'Handshake request is not valid JSON.';
  }
  const { protocol, version } = request;
  if (typeof protocol !== 'string' || typeof version !== 'number') {
    return 'Handshake request must name a protocol and a version.';
  }
  if (protocol !== HUB_PROTOCOL_NAME) {
    return `The protocol '${protocol}' is not supported.`;
  }
  if (version !== HUB_PROTOCOL_VERSION) {
    return `The server does not support version ${version} of the '${protocol}' protocol.`;
  }
  return null;
}

const optionalString = (value: unknown, what: string): string | undefined => {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw new HubProtocolError(`${what} must be a string.`);
  return value;
};

/** One message a client sent after the handshake. */
export function parseClientMessage(text: string): ClientMessage {
  const message = parseJsonObject(text);
  switch (message.type) {
    case MessageType.Invocation: {
      const target = message.target;
      if (typeof target !== 'string') throw new HubProtocolError('Invocation needs a target.');
      const args = message.arguments ?? [];
      if (!Array.isArray(args)) throw new HubProtocolError('Invocation arguments must be a list.');
      const streamIds = message.streamIds;
      if (streamIds !== undefined && streamIds !== null && !Array.isArray(streamIds)) {
        throw new HubProtocolError('streamIds must be a list.');
      }
      return {
        type: MessageType.Invocation,
        invocationId: optionalString(message.invocationId, 'invocationId'),
        target,
        arguments: args,
        streamIds: Array.isArray(streamIds) ? streamIds.map(String) : undefined,
      };
    }
    case MessageType.StreamInvocation: {
      const invocationId = optionalString(message.invocationId, 'invocationId');
      const target = message.target;
      if (invocationId === undefined || typeof target !== 'string') {
        throw new HubProtocolError('StreamInvocation needs an invocationId and a target.');
      }
      return { type: MessageType.StreamInvocation, invocationId, target };
    }
    case MessageType.CancelInvocation:
      return {
        type: MessageType.CancelInvocation,
        invocationId: optionalString(message.invocationId, 'invocationId') ?? '',
      };
    case MessageType.Ping:
      return { type: MessageType.Ping };
    case MessageType.Close:
      return { type: MessageType.Close, error: optionalString(message.error, 'error') };
    case MessageType.StreamItem:
    case MessageType.Completion:
    case MessageType.Ack:
    case MessageType.Sequence:
      return { type: 'ignored' };
    default:
      // Newer protocol revisions may add types; the spec asks receivers to ignore unknown ones.
      if (typeof message.type !== 'number') throw new HubProtocolError('Message has no type.');
      return { type: 'ignored' };
  }
}

/** A framed message, ready for a text frame. */
export const frame = (message: object): string => JSON.stringify(message) + RECORD_SEPARATOR;

export const handshakeResponse = (error?: string): string => frame(error ? { error } : {});

export const pingMessage = (): string => frame({ type: MessageType.Ping });

export const closeMessage = (options: { error?: string; allowReconnect?: boolean }): string =>
  frame({
    type: MessageType.Close,
    ...(options.error ? { error: options.error } : {}),
    ...(options.allowReconnect ? { allowReconnect: true } : {}),
  });

export const invocationMessage = (target: string, args: unknown[]): string =>
  frame({ type: MessageType.Invocation, target, arguments: args });

export const completionMessage = (
  invocationId: string,
  outcome: { result: unknown } | { error: string },
): string =>
  frame(
    'error' in outcome
      ? { type: MessageType.Completion, invocationId, error: outcome.error }
      : // `result` is omitted for a void method, as ASP.NET Core does.
        outcome.result === undefined
        ? { type: MessageType.Completion, invocationId }
        : { type: MessageType.Completion, invocationId, result: outcome.result },
  );
