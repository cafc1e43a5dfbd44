/*
 * Types of the parts of the `smpp` package (farhadi/node-smpp 0.5, plain JavaScript) that the
 * SMPP adapter and its tests use. A PDU carries its parameters and TLVs as plain fields, named as
 * in the SMPP 3.4 specification; a decoded short_message is `{ udh?, message }`.
 */
declare module 'smpp' {
  import type { EventEmitter } from 'node:events';
  import type { Server as NetServer, Socket } from 'node:net';
  import type { ConnectionOptions as TlsConnectionOptions, TlsOptions } from 'node:tls';

  export interface DecodedShortMessage {
    /** Each information element of the UDH, as its IEI, length and data octets. */
    udh?: Buffer[];
    message: string | Buffer;
  }

  export class PDU {
    constructor(command: string, options?: Record<string, unknown>);
    command: string;
    command_id: number;
    command_status: number;
    sequence_number: number;
    system_id?: string;
    password?: string;
    system_type?: string;
    interface_version?: number;
    address_range?: string;
    message_id?: string;
    source_addr_ton?: number;
    source_addr_npi?: number;
    source_addr?: string;
    dest_addr_ton?: number;
    dest_addr_npi?: number;
    destination_addr?: string;
    esm_class?: number;
    registered_delivery?: number;
    /** Decoded by the library: a relative time (`…R`) or an absolute one becomes a Date. */
    validity_period?: Date | string;
    data_coding?: number;
    short_message?: Buffer | DecodedShortMessage | string;
    receipted_message_id?: string;
    message_state?: number;
    network_error_code?: Buffer;
    isResponse(): boolean;
    response(options?: Record<string, unknown>): PDU;
    toBuffer(): Buffer;
  }

  type ResponseCallback = (pdu: PDU) => void;
  type Command = (
    options?: Record<string, unknown>,
    responseCallback?: ResponseCallback,
    sendCallback?: ResponseCallback,
  ) => boolean;

  export class Session extends EventEmitter {
    socket: Socket;
    /** Writes the PDU; false when the socket is not writable (then no callback ever runs). */
    send(pdu: PDU, responseCallback?: ResponseCallback, sendCallback?: ResponseCallback): boolean;
    close(callback?: () => void): void;
    destroy(callback?: () => void): void;
    pause(): void;
    resume(): void;
    bind_transceiver: Command;
    bind_transceiver_resp: Command;
    submit_sm: Command;
    submit_sm_resp: Command;
    deliver_sm: Command;
    deliver_sm_resp: Command;
    enquire_link: Command;
    enquire_link_resp: Command;
    unbind: Command;
    unbind_resp: Command;
    generic_nack: Command;
  }

  export class Server extends NetServer {
    sessions: Session[];
  }

  /** Where and how to connect: `tls` makes it SMPP over TLS, with node:tls's options. */
  export interface ConnectOptions extends Omit<TlsConnectionOptions, 'host' | 'port'> {
    host: string;
    port: number;
    tls?: boolean;
  }

  /** The package's CommonJS exports (imported as `import smpp from 'smpp'`). */
  const smpp: {
    connect(options: ConnectOptions, listener?: () => void): Session;
    createServer(listener?: (session: Session) => void): Server;
    /** With `key` and `cert`: an SMPP server over TLS. */
    createServer(options: TlsOptions, listener?: (session: Session) => void): Server;
    PDU: typeof PDU;
    gsmCoder: {
      encode(text: string, encoding?: number): Buffer;
      decode(octets: Buffer, encoding?: number): string;
    };
    /** command_status names (ESME_ROK, ESME_RTHROTTLED, …) and their values. */
    errors: Record<string, number>;
  };
  export default smpp;
}
