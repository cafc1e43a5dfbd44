import { chmodSync, existsSync, unlinkSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';

/*
 * The operator command beside a running server on the embedded database (docs/decisions/
 * 0075-staff-console.md "The command line beside the server"). PGlite is opened by one process
 * at a time, so while the server runs, `npm run operator` hands its command line to the server
 * over a Unix socket in the data folder and prints what the server answers: the command runs in
 * the server's process, on the server's database, with the same code as when it runs alone.
 *
 * Who may use the socket is decided by the file system: it is created 0600 in DATA_DIR, which
 * holds the whole database anyway — whoever can open the socket can already read every row.
 * On PostgreSQL the command connects to the database itself and the socket is not used.
 */

export interface OperatorRequest {
  argv: string[];
  /** The caller's $OPERATOR, and its OS user: who the audit log names. */
  operator: string | undefined;
  osUser: string;
}

export interface OperatorAnswer {
  code: number;
  out: string;
  err: string;
}

/** The socket of a PGlite folder; null when its path is too long for a Unix socket (~104 bytes). */
export function operatorSocketPath(dataDir: string): string | null {
  const file = path.join(path.resolve(dataDir), 'operator.sock');
  return Buffer.byteLength(file) <= 100 ? file : null;
}

const MAX_REQUEST_BYTES = 64 * 1024;

/** Serves operator commands on the socket until `close()`; a stale socket file is replaced. */
export async function serveOperatorSocket(
  socketPath: string,
  run: (request: OperatorRequest) => Promise<OperatorAnswer>,
): Promise<{ close(): Promise<void> }> {
  if (existsSync(socketPath)) unlinkSync(socketPath);
  const server = net.createServer((socket) => {
    let body = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      body += chunk;
      if (body.length > MAX_REQUEST_BYTES) socket.destroy();
      const newline = body.indexOf('\n');
      if (newline === -1) return;
      socket.removeAllListeners('data');
      let request: OperatorRequest;
      try {
        const parsed = JSON.parse(body.slice(0, newline)) as Partial<OperatorRequest>;
        if (!Array.isArray(parsed.argv) || !parsed.argv.every((a) => typeof a === 'string'))
          throw new Error('argv');
        request = {
          argv: parsed.argv,
          operator: typeof parsed.operator === 'string' ? parsed.operator : undefined,
          osUser: typeof parsed.osUser === 'string' ? parsed.osUser : '',
        };
      } catch {
        socket.end(
          `${JSON.stringify({ code: 2, out: '', err: 'Malformed operator request.\n' })}\n`,
        );
        return;
      }
      void run(request).then(
        (answer) => socket.end(`${JSON.stringify(answer)}\n`),
        (error: unknown) =>
          socket.end(
            `${JSON.stringify({ code: 1, out: '', err: `Failed: ${error instanceof Error ? error.message : String(error)}\n` })}\n`,
          ),
      );
    });
    socket.on('error', () => socket.destroy());
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(socketPath, () => {
      server.off('error', reject);
      resolve();
    });
  });
  chmodSync(socketPath, 0o600);
  return {
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        if (existsSync(socketPath)) unlinkSync(socketPath);
      }),
  };
}

/**
 * Sends a command to the server of this folder. Answers null when no server listens there (no
 * socket, or a stale one): the caller then opens the folder itself.
 */
export function sendToOperatorSocket(
  socketPath: string,
  request: OperatorRequest,
): Promise<OperatorAnswer | null> {
  if (!existsSync(socketPath)) return Promise.resolve(null);
  return new Promise((resolve, reject) => {
    const socket = net.connect(socketPath);
    let body = '';
    let connected = false;
    socket.setEncoding('utf8');
    socket.on('connect', () => {
      connected = true;
      socket.write(`${JSON.stringify(request)}\n`);
    });
    socket.on('data', (chunk: string) => {
      body += chunk;
    });
    socket.on('end', () => {
      try {
        resolve(JSON.parse(body) as OperatorAnswer);
      } catch {
        reject(new Error('The server gave no answer to the operator command.'));
      }
    });
    socket.on('error', (error: NodeJS.ErrnoException) => {
      if (!connected && (error.code === 'ECONNREFUSED' || error.code === 'ENOENT')) resolve(null);
      else reject(error);
    });
  });
}
