import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { sql } from 'drizzle-orm';
import pino from 'pino';
import { createMessaging } from './adapters/messaging';
import { createNetwork } from './adapters/network/create-network';
import { registerHub } from './adapters/network/tmf641/hub';
import { createBackgroundTasks } from './background';
import { commandEnv } from './command-env';
import { ConfigError, loadConfig, type Config } from './config';
import { openDatabase, type Database } from './db/client';
import { pgliteFolderProblem } from './db/pglite-folder';
import { rowsOf } from './db/rows';
import { createOperatorCommands, type OperatorCommands } from './modules/operator/commands';
import {
  createOperatorService,
  OperatorError,
  operatorName,
  ORDER_STATES,
  type OrderStateFilter,
} from './modules/operator/service';
import { createProvisioningService } from './modules/provisioning/service';
import { createRateLimiter } from './modules/rate-limits/service';
import {
  createNumberProtectionService,
  type NumberProtectionService,
} from './modules/number-protection/service';
import { portOutInboundRequest } from '@alda/contract/schemas/number-protection';
import { AppError } from './errors';
import { createStaffService } from './modules/staff/service';
import { createRelyingParty } from './modules/passkeys/relying-party';
import { createStaffCommands, type StaffCommands } from './modules/staff/commands-service';
import { createPartnerCommands, type PartnerCommands } from './modules/partners/commands';
import { createPartnerService } from './modules/partners/service';
import { createPaymentCommands, type PaymentCommands } from './modules/payments/commands';
import { recordAudit } from './modules/operator/audit';
import type { ConfiguredNetwork } from './adapters/network/create-network';
import type { FastifyBaseLogger } from 'fastify';
import { isPartnerScope, PARTNER_SCOPES } from '@alda/contract/schemas/camara';
import { deriveKey } from './modules/auth/tokens';
import { operatorSocketPath, sendToOperatorSocket, serveOperatorSocket } from './operator-socket';
import { STAFF_ROLES, staffRole, type StaffRole } from '@alda/contract/schemas/staff';
import { z } from 'zod';

/*
 * `npm run operator -- <verb> [args]` (docs/operations.md "Operator commands", ADR 0055
 * "Operators"): provisioning orders and status messages by hand, against the configured database
 * (DATABASE_URL, else the PGlite folder DATA_DIR). This file only parses the command line, opens
 * the database and sets the exit code; modules/operator holds the rules and the output.
 *
 * Exit codes: 0 done, 1 refused or failed (with a message on stderr), 2 usage error.
 */

export const HELP = `Usage: npm run operator -- <verb> [args] [--as <name>]

Orders in provisioning (docs/decisions/0055-provisioning.md):
  orders [--state <state>] [--limit N]   orders by state (default processing, limit 50):
                                         ${ORDER_STATES.join(' | ')}
  order <id>                             one order with all its steps
  advance <id> [--reason "..."]          perform the order's next step now
  complete <id> --reason "..."           make the line active and complete the order
  fail <id> --reason "..."               stop the order; the customer sees the reason
  retry <id> [--reason "..."]            try a failed order's step again

Status messages shown at app start (SPEC §1, §4 "Status messages"):
  status publish --title-fo T --title-en T --body-fo B --body-en B [--from ISO] [--to ISO]
                 [--urgent]              --urgent: also push it, at its start, to every customer
                                         with a push device (even in their quiet hours)
  status list [--limit N]
  status end <id> [--reason "..."]       ends the message now

Staff accounts of the console at /console/ (docs/decisions/0075-staff-console.md):
  staff add <email> --role <role> [--name "..."]
                                         a new staff member (${STAFF_ROLES.join(' | ')}); prints the
                                         first password, the TOTP secret (QR) and recovery codes once
  staff list                             the staff accounts
  staff disable <email> --reason "..."   the account can no longer sign in; its sessions end
  staff enable <email> --reason "..."
  staff allow-totp <email> --reason "..."
                                         break-glass for a member whose role requires passkeys
                                         and who lost theirs (ADR 0097): for the next hour, one
                                         sign-in with the app's code (or a recovery code) is let
                                         through, to add a new passkey

Number protection (docs/decisions/0076-number-protection.md):
  port-out <number> <code> [--provider "..."]
                                         another provider asks for a number with the customer's
                                         port-out code: refused (locked, wrong code, …) or accepted
                                         (the line ends after one provisioning step); recorded

Partner clients of the CAMARA SIM Swap API (banks; OAuth 2.0 client credentials, issue 32):
  partner add <name> --scope <scope>     a new client (scopes ${PARTNER_SCOPES.join(' | ')}, several
                                         comma-separated); prints client_id and client_secret once
  partner list                           the clients, their state and number of calls
  partner disable <client_id> [--reason "..."]
                                         no new tokens; its tokens stop working at once

Payments (docs/decisions/0081-vipps-mobilepay.md; PAYMENT_PROVIDER=vipps-mobilepay):
  payments webhooks register             registers PAYMENT_WEBHOOK_URL with Vipps MobilePay's
                                         Webhooks API for the ePayment events; the secret it
                                         answers is kept in the database, never printed
  payments webhooks list                 the webhooks Vipps MobilePay has for our sales unit

The network (docs/decisions/0082-network-tmf641.md; NETWORK_ADAPTER=tmf641):
  network hub register                   registers our listener (<APP_URL>/tmf-api/listener/
                                         serviceOrdering/v4) with the OSS's TMF641 hub again

Audit:
  actions [--limit N]                    the audit log (commands and console actions), newest first

Every change is recorded in operator_actions with the operator's name: --as <name>, else
$OPERATOR, else the OS user. Configuration as for the server (DATABASE_URL or DATA_DIR).
With PGlite (no DATABASE_URL) the database can be opened by one process at a time: while the
server runs, the command is handed to it over DATA_DIR/operator.sock and runs there.

Exit codes: 0 ok, 1 failed (unknown id, missing --reason, order not in a state for it), 2 usage.
`;

const OPTIONS = {
  help: { type: 'boolean', short: 'h' },
  as: { type: 'string' },
  state: { type: 'string' },
  limit: { type: 'string' },
  reason: { type: 'string' },
  'title-fo': { type: 'string' },
  'title-en': { type: 'string' },
  'body-fo': { type: 'string' },
  'body-en': { type: 'string' },
  from: { type: 'string' },
  to: { type: 'string' },
  urgent: { type: 'boolean' },
  role: { type: 'string' },
  name: { type: 'string' },
  provider: { type: 'string' },
  scope: { type: 'string' },
} as const satisfies ParseArgsConfig['options'];

/** Which options each command accepts (besides --as and --help). */
const ACCEPTS: Record<string, readonly (keyof typeof OPTIONS)[]> = {
  orders: ['state', 'limit'],
  order: [],
  advance: ['reason'],
  complete: ['reason'],
  fail: ['reason'],
  retry: ['reason'],
  'status publish': ['title-fo', 'title-en', 'body-fo', 'body-en', 'from', 'to', 'urgent'],
  'status list': ['limit'],
  'status end': ['reason'],
  actions: ['limit'],
  'staff add': ['role', 'name'],
  'staff list': [],
  'staff disable': ['reason'],
  'staff enable': ['reason'],
  'staff allow-totp': ['reason'],
  'port-out': ['provider'],
  'partner add': ['scope'],
  'partner list': [],
  'partner disable': ['reason'],
  'payments webhooks register': [],
  'payments webhooks list': [],
  'network hub register': [],
};

/** How many positional arguments (ids) each command takes after its verb. */
const ARITY: Record<string, number> = {
  orders: 0,
  order: 1,
  advance: 1,
  complete: 1,
  fail: 1,
  retry: 1,
  'status publish': 0,
  'status list': 0,
  'status end': 1,
  actions: 0,
  'staff add': 1,
  'staff list': 0,
  'staff disable': 1,
  'staff enable': 1,
  'staff allow-totp': 1,
  'port-out': 2,
  'partner add': 1,
  'partner list': 0,
  'partner disable': 1,
  'payments webhooks register': 0,
  'payments webhooks list': 0,
  'network hub register': 0,
};

class UsageError extends Error {}

export interface OperatorContext {
  /** Environment for the configuration and $OPERATOR. */
  env: Record<string, string | undefined>;
  out(text: string): void;
  err(text: string): void;
  /** The configuration (tests); otherwise loaded from `env`. */
  config?: Config;
  /** An already open database the command uses and leaves open (tests). */
  database?: Database;
  now?: () => Date;
  /** The OS user, when neither --as nor $OPERATOR names the operator. */
  osUser?: () => string;
  /** How provider adapters reach their APIs (tests); the global fetch otherwise. */
  fetch?: typeof fetch;
}

function limitOf(value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!/^\d+$/.test(value) || Number(value) < 1 || Number(value) > 1000)
    throw new UsageError(`--limit must be a whole number from 1 to 1000, not "${value}".`);
  return Number(value);
}

function timeOf(flag: string, value: string | undefined): Date | null {
  if (value === undefined) return null;
  // An ISO 8601 date-time with its offset, or a date (midnight UTC).
  const ok = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2}))?$/.test(value);
  const at = new Date(value);
  if (!ok || Number.isNaN(at.getTime()))
    throw new UsageError(
      `${flag} must be an ISO 8601 time with its offset, e.g. 2026-12-24T08:00:00Z, not "${value}".`,
    );
  return at;
}

function stateOf(value: string | undefined): OrderStateFilter {
  if (value === undefined) return 'processing';
  if (!(ORDER_STATES as readonly string[]).includes(value))
    throw new UsageError(`--state must be one of ${ORDER_STATES.join(', ')}, not "${value}".`);
  return value as OrderStateFilter;
}

interface Parsed {
  command: string;
  ids: string[];
  values: {
    [K in keyof typeof OPTIONS]?: (typeof OPTIONS)[K]['type'] extends 'boolean' ? boolean : string;
  };
}

function parse(argv: string[]): Parsed | 'help' {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  const { values, positionals } = parsed;
  if (values.help || positionals.length === 0) return 'help';
  const [verb = '', ...rest] = positionals;
  const command =
    verb === 'status' || verb === 'staff' || verb === 'partner'
      ? `${verb} ${rest.shift() ?? ''}`.trim()
      : verb === 'payments' || verb === 'network'
        ? `${verb} ${rest.shift() ?? ''} ${rest.shift() ?? ''}`.trim()
        : verb;
  const arity = ARITY[command];
  if (arity === undefined)
    throw new UsageError(
      verb === 'status'
        ? `status needs one of: publish, list, end.`
        : verb === 'staff'
          ? `staff needs one of: add, list, disable, enable, allow-totp.`
          : verb === 'partner'
            ? `partner needs one of: add, list, disable.`
            : verb === 'payments'
              ? `payments needs one of: webhooks register, webhooks list.`
              : verb === 'network'
                ? `network needs: hub register.`
                : `Unknown verb "${verb}".`,
    );
  if (rest.length !== arity)
    throw new UsageError(
      arity === 0
        ? `${command} takes no arguments (got ${rest.join(' ')}).`
        : command === 'port-out'
          ? 'port-out needs the number and the code: port-out <number> <code>.'
          : `${command} needs the id: ${command} <id>.`,
    );
  const accepted = new Set<string>(['as', 'help', ...(ACCEPTS[command] ?? [])]);
  const wrong = Object.keys(values).filter((key) => !accepted.has(key));
  if (wrong.length > 0)
    throw new UsageError(`${command} does not take ${wrong.map((key) => `--${key}`).join(', ')}.`);
  return { command, ids: rest, values };
}

/** A command ready to run: its option values are checked before the database is opened. */
type Prepared = (
  commands: OperatorCommands,
  operator: () => string,
  staff: StaffCommands,
  protection: NumberProtectionService,
  partners: PartnerCommands,
  payments: PaymentCommands,
  network: NetworkCommands,
) => Promise<string>;

function prepare(parsed: Parsed): Prepared {
  const { command, ids, values } = parsed;
  const id = ids[0] ?? '';
  switch (command) {
    case 'orders': {
      const state = stateOf(values.state);
      const limit = limitOf(values.limit, 50);
      return (commands) => commands.orders(state, limit);
    }
    case 'order':
      return (commands) => commands.order(id);
    case 'advance':
    case 'complete':
    case 'fail':
    case 'retry':
      return (commands, operator) => commands[command](operator(), id, values.reason);
    case 'status publish': {
      const input = {
        titleFo: values['title-fo'],
        titleEn: values['title-en'],
        bodyFo: values['body-fo'],
        bodyEn: values['body-en'],
        activeFrom: timeOf('--from', values.from),
        activeTo: timeOf('--to', values.to),
        urgent: values.urgent === true,
      };
      return (commands, operator) => commands.statusPublish(operator(), input);
    }
    case 'status list': {
      const limit = limitOf(values.limit, 50);
      return (commands) => commands.statusList(limit);
    }
    case 'status end':
      return (commands, operator) => commands.statusEnd(operator(), id, values.reason);
    case 'actions': {
      const limit = limitOf(values.limit, 50);
      return (commands) => commands.actions(limit);
    }
    case 'staff add': {
      const role = staffRoleOf(values.role);
      const email = staffEmailOf(id);
      const name = values.name?.trim() || email.split('@')[0] || email;
      return (_commands, operator, staff) => staff.add(operator(), { email, name, role });
    }
    case 'staff list':
      return (_commands, _operator, staff) => staff.list();
    case 'staff disable':
    case 'staff enable': {
      const email = staffEmailOf(id);
      const reason = values.reason?.trim();
      if (!reason || reason.length < 3) throw new UsageError(`${command} needs --reason "...".`);
      const disabled = command === 'staff disable';
      return (_commands, operator, staff) => staff.setDisabled(operator(), email, disabled, reason);
    }
    case 'staff allow-totp': {
      const email = staffEmailOf(id);
      const reason = values.reason?.trim();
      if (!reason || reason.length < 3) throw new UsageError(`${command} needs --reason "...".`);
      return (_commands, operator, staff) => staff.allowTotp(operator(), email, reason);
    }
    case 'port-out': {
      const request = portOutInboundRequest.safeParse({
        phoneNumber: ids[0],
        code: ids[1],
        provider: values.provider ?? 'operator',
      });
      if (!request.success)
        throw new UsageError('port-out needs a 6-digit number, a code and a --provider name.');
      return async (_commands, operator, _staff, protection) => {
        const provider = values.provider ?? `operator:${operator()}`;
        try {
          const done = await protection.requestPortOut(
            { ...request.data, provider },
            { actor: operator() },
          );
          return `Port-out accepted: order ${done.orderId}; the number moves at ${done.portDate}.\n`;
        } catch (error) {
          if (error instanceof AppError)
            throw new OperatorError(`Port-out refused (recorded): ${error.code}.`);
          throw error;
        }
      };
    }
    case 'partner add': {
      const name = id.trim();
      if (name.length === 0 || name.length > 100)
        throw new UsageError("partner add needs the partner's name (1–100 characters).");
      const scopes = (values.scope ?? '').split(/[\s,]+/).filter(Boolean);
      const unknown = scopes.filter((s) => !isPartnerScope(s));
      if (scopes.length === 0 || unknown.length > 0)
        throw new UsageError(
          `partner add needs --scope with ${PARTNER_SCOPES.join(', ')}${unknown.length > 0 ? `, not "${unknown.join(',')}"` : ''}.`,
        );
      return (_c, operator, _s, _p, partners) => partners.add(operator(), name, scopes);
    }
    case 'partner list':
      return (_c, _o, _s, _p, partners) => partners.list();
    case 'payments webhooks register':
      return (_c, operator, _s, _p, _partners, payments) => payments.register(operator());
    case 'payments webhooks list':
      return (_c, _o, _s, _p, _partners, payments) => payments.list();
    case 'network hub register':
      return (_c, operator, _s, _p, _partners, _payments, network) =>
        network.registerHub(operator());
    case 'partner disable': {
      const reason = values.reason?.trim() || undefined;
      return (_c, operator, _s, _p, partners) => partners.disable(operator(), id.trim(), reason);
    }
    default:
      throw new UsageError(`Unknown verb "${command}".`);
  }
}

interface NetworkCommands {
  registerHub(operator: string): Promise<string>;
}

/** `network hub register`: our TMF641 listener registered with the OSS's hub anew (ADR 0082). */
function networkCommands(
  config: Config,
  database: Database,
  log: FastifyBaseLogger,
  now: () => Date,
  network: ConfiguredNetwork,
): NetworkCommands {
  return {
    async registerHub(operator) {
      const tmf641 = network.tmf641;
      if (!tmf641)
        throw new OperatorError(
          `NETWORK_ADAPTER=${config.networkAdapter} has no hub to register with: set NETWORK_ADAPTER=tmf641 and its TMF641_* settings.`,
        );
      const done = await registerHub({
        client: tmf641.client,
        db: database.db,
        log,
        now,
        apiUrl: tmf641.url,
        callback: config.tmf641CallbackUrl,
        force: true,
      });
      await recordAudit(database.db, {
        actor: operator,
        staffUserId: null,
        kind: 'change',
        action: 'network.hub.register',
        targetType: 'network_hub',
        targetId: done.hubId,
        reason: 'npm run operator -- network hub register',
        details: { callback: done.callback, url: tmf641.url },
        at: now(),
      });
      return [
        `Listener registered with the TMF641 hub at ${tmf641.url}: ${done.hubId}`,
        `Callback: ${done.callback}`,
        'The OSS sends its ServiceOrderStateChangeEvent and ServiceOrderAttributeValueChangeEvent there, with TMF641_LISTENER_SECRET as bearer token.',
        '',
      ].join('\n');
    },
  };
}

function staffRoleOf(value: string | undefined): StaffRole {
  const role = staffRole.safeParse(value);
  if (!role.success)
    throw new UsageError(`--role must be one of ${STAFF_ROLES.join(', ')}, not "${value ?? ''}".`);
  return role.data;
}

function staffEmailOf(value: string): string {
  const email = z.email().safeParse(value.trim());
  if (!email.success) throw new UsageError(`"${value}" is not an e-mail address.`);
  return email.data.toLowerCase();
}

function checkPgliteDir(dataDir: string): void {
  const problem = pgliteFolderProblem(dataDir);
  if (problem) throw new OperatorError(problem);
}

async function openConfigured(config: Config): Promise<Database> {
  if (!config.databaseUrl) checkPgliteDir(config.dataDir);
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  try {
    const [row] = rowsOf(
      await database.db.execute(
        sql`select to_regclass('public.operator_actions')::text as "table"`,
      ),
    );
    if (typeof row?.table !== 'string')
      throw new OperatorError(
        `The database at ${database.location} has not been migrated to this version: start the server once or run npm run db:migrate -w @alda/api (with the same DATABASE_URL / DATA_DIR).`,
      );
    return database;
  } catch (error) {
    await database.close();
    throw error;
  }
}

/** Runs one command; answers the exit code. Never throws. */
export async function runOperator(argv: string[], ctx: OperatorContext): Promise<number> {
  let parsed: Parsed | 'help';
  let command: Prepared;
  try {
    parsed = parse(argv);
    if (parsed === 'help') {
      ctx.out(HELP);
      return 0;
    }
    command = prepare(parsed);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    ctx.err(`${error.message}\nRun npm run operator -- --help for the verbs.\n`);
    return 2;
  }
  const as = parsed.values.as;

  let database: Database | undefined;
  let background:
    { tasks: ReturnType<typeof createBackgroundTasks>; close(): Promise<void> } | undefined;
  try {
    const config = ctx.config ?? loadConfig(ctx.env);
    database = ctx.database ?? (await openConfigured(config));
    const now = ctx.now ?? (() => new Date());
    // Warnings and errors only (an e-mail that could not be sent), on stderr.
    const log = pino(
      { level: config.logLevel === 'silent' ? 'silent' : 'warn' },
      pino.destination(2),
    );
    const { email } = createMessaging(config, database, log);
    background = { tasks: createBackgroundTasks(log), close: () => email.close() };
    // The configured adapter: an `advance` places the service orders the worker would.
    const network = createNetwork(config, database, log, now, ctx.fetch);
    const provisioning = createProvisioningService({
      db: database.db,
      now,
      log,
      network: network.network,
      email,
      background: background.tasks,
      simConfirmS: config.provisioningSimConfirmS,
    });
    const commands = createOperatorCommands(
      createOperatorService({ db: database.db, now, provisioning }),
      now,
    );
    const staff = createStaffCommands(
      createStaffService({
        db: database.db,
        now,
        limiter: createRateLimiter({ db: database.db, now, log }),
        totpKey: deriveKey(config.staffSecretKey, 'staff-totp'),
        rp: createRelyingParty({
          rpId: config.webauthnRpId,
          origins: config.webauthnOrigins,
          rpName: 'Alda',
          now,
        }),
      }),
      config.appUrl,
    );
    const limiter = createRateLimiter({ db: database.db, now, log });
    const protection = createNumberProtectionService({
      db: database.db,
      now,
      limiter,
      reauthenticate: async () => {
        throw new OperatorError('no customer to authenticate in an operator command');
      },
      sendEmails: provisioning.sendEmails,
      appUrl: config.appUrl,
      linkSecret: config.linkSecret,
      unlockDelayH: config.numberUnlockDelayH,
      stepS: provisioning.timing.stepS,
    });
    const output = await command(
      commands,
      () => operatorName(as, ctx.env, ctx.osUser ?? (() => os.userInfo().username)),
      staff,
      protection,
      createPartnerCommands(
        createPartnerService({ db: database.db, now, tokenTtlS: config.partnerTokenTtlS }),
      ),
      createPaymentCommands({ config, db: database.db, now, log, fetch: ctx.fetch }),
      networkCommands(config, database, log, now, network),
    );
    ctx.out(output);
    return 0;
  } catch (error) {
    if (error instanceof UsageError) {
      ctx.err(`${error.message}\nRun npm run operator -- --help for the verbs.\n`);
      return 2;
    }
    if (error instanceof OperatorError || error instanceof ConfigError) {
      ctx.err(`${error.message}\n`);
      return 1;
    }
    ctx.err(`Failed: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  } finally {
    // The customer's e-mails of the steps go out before the database closes.
    await background?.tasks.idle();
    await background?.close();
    if (database && database !== ctx.database) await database.close();
  }
}

/**
 * Serves the `npm run operator` commands handed over the operator socket (ADR 0075): each runs
 * here, on the server's open `database`, and its output goes back to the program that sent it.
 */
export function serveOperatorCommands(
  socketPath: string,
  config: Config,
  database: Database,
): Promise<{ close(): Promise<void> }> {
  return serveOperatorSocket(socketPath, async (request) => {
    let out = '';
    let err = '';
    const code = await runOperator(request.argv, {
      env: { OPERATOR: request.operator },
      config,
      database,
      osUser: () => request.osUser,
      out: (text) => {
        out += text;
      },
      err: (text) => {
        err += text;
      },
    });
    return { code, out, err };
  });
}

/**
 * The program: on the embedded database with its server running, the command is run by the
 * server (DATA_DIR/operator.sock, operator-socket.ts); otherwise here, against the database.
 */
export async function runOperatorProgram(argv: string[], ctx: OperatorContext): Promise<number> {
  let config: Config | undefined;
  try {
    config = ctx.config ?? loadConfig(ctx.env);
  } catch {
    // runOperator reports the configuration problem.
  }
  const socket = config && !config.databaseUrl ? operatorSocketPath(config.dataDir) : null;
  if (socket) {
    const answer = await sendToOperatorSocket(socket, {
      argv,
      operator: ctx.env.OPERATOR,
      osUser: (ctx.osUser ?? (() => os.userInfo().username))(),
    }).catch((error: unknown) => {
      ctx.err(`The server's operator socket ${socket} failed: ${String(error)}\n`);
      return { code: 1, out: '', err: '' };
    });
    if (answer) {
      ctx.out(answer.out);
      ctx.err(answer.err);
      return answer.code;
    }
  }
  return runOperator(argv, ctx);
}

// Run when started as a program (tsx src/operator.ts), not when a test imports it, nor inside the
// server's bundle (dist/main.js includes this file for the operator socket).
if (
  process.argv[1] &&
  /^operator\.[cm]?[jt]s$/.test(path.basename(process.argv[1])) &&
  import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href
) {
  void runOperatorProgram(process.argv.slice(2), {
    env: commandEnv(process.env),
    out: (text) => process.stdout.write(text),
    err: (text) => process.stderr.write(text),
  }).then((code) => {
    process.exitCode = code;
  });
}
