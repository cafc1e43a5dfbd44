import { rm } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/client';
import { usingPostgres } from './helper';
import { operatorCli as cli, startOperatorServer } from './operator-server-helper';

/*
 * The operator command beside a running server on the embedded database (issue 31 item 5,
 * docs/decisions/0075-staff-console.md): this process holds the PGlite folder open and serves
 * the operator socket as `main.ts` does; the real program (`tsx src/operator.ts`) hands its
 * command over and prints the answer. Then, with the "server" gone, the program opens the folder
 * itself and sees the same rows.
 */

let dir = '';
let held: Database | undefined;
let socket: { close(): Promise<void> } | undefined;

beforeAll(async () => {
  if (usingPostgres) return;
  ({ dir, database: held, socket } = await startOperatorServer('alda-opsock-'));
}, 60_000);

afterAll(async () => {
  await socket?.close();
  await held?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe.skipIf(usingPostgres)('npm run operator beside a running server on PGlite', () => {
  it('adds the first admin through the server, lists staff, and the audit log names the operator', async () => {
    const env = { DATA_DIR: dir, DATABASE_URL: '', OPERATOR: 'installer' };
    const added = await cli(
      ['staff', 'add', 'First.Admin@staff.alda.fo', '--role', 'admin', '--name', 'First Admin'],
      env,
    );
    expect(added.stderr).not.toContain('open in another process');
    expect(added.code).toBe(0);
    expect(added.stdout).toContain('Staff member added: first.admin@staff.alda.fo (admin)');
    expect(added.stdout).toMatch(/first password {3}\S{20}/);
    expect(added.stdout).toContain('otpauth://totp/Alda:first.admin%40staff.alda.fo?secret=');
    expect(added.stdout.match(/[a-z0-9]{5}-[a-z0-9]{5}/g)).toHaveLength(10);

    const again = await cli(['staff', 'add', 'first.admin@staff.alda.fo', '--role', 'admin'], env);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('exists already');

    const badRole = await cli(['staff', 'add', 'x@staff.alda.fo', '--role', 'boss'], env);
    expect(badRole.code).toBe(2);
    expect(badRole.stderr).toContain('--role must be one of support, provisioning, content, admin');

    const listed = await cli(['staff', 'list'], env);
    expect(listed.stdout).toMatch(/first\.admin@staff\.alda\.fo\s+admin\s+active\s+First Admin/);

    const disabled = await cli(
      ['staff', 'disable', 'first.admin@staff.alda.fo', '--reason', 'Test of disabling'],
      env,
    );
    expect(disabled.stdout).toContain('disabled; its sessions ended');

    // A port-out through the server: refused (no such number here) and audited all the same.
    const port = await cli(['port-out', '999999', 'ABCD-EFG-HJK'], env);
    expect(port.code).toBe(1);
    expect(port.stderr).toContain('Port-out refused (recorded): PORT_OUT_CODE_INVALID.');

    const log = await cli(['actions', '--limit', '5'], env);
    expect(log.stdout).toMatch(/installer\s+port-out\s+999999\s+PORT_OUT_CODE_INVALID/);
    expect(log.stdout).toMatch(/installer\s+staff\.update/);
    expect(log.stdout).toMatch(/installer\s+staff\.create/);
  }, 120_000);

  it('opens the folder itself once the server is gone', async () => {
    await socket?.close();
    socket = undefined;
    await held?.close();
    held = undefined;
    const listed = await cli(['staff', 'list'], { DATA_DIR: dir, DATABASE_URL: '' });
    expect(listed.code).toBe(0);
    expect(listed.stdout).toMatch(/first\.admin@staff\.alda\.fo\s+admin\s+disabled/);
  }, 60_000);
});
