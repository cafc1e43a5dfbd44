import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import Fastify, { type FastifyInstance } from 'fastify';
import type { DestinationStream } from 'pino';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { createMessaging, type Messaging } from './adapters/messaging';
import type { EmailSender } from './adapters/email/email-sender';
import type { SmsSender } from './adapters/sms/sms-sender';
import { createBackgroundTasks, type BackgroundTasks } from './background';
import type { Config } from './config';
import { openDatabase, type Database, type Db } from './db/client';
import { registerPaymentHub, type PaymentHubOptions } from './hub/payment-hub';
import { registerPayments, type PaymentDeps } from './modules/payments/register';
import { AppError } from './errors';
import { createPasswordService } from './modules/auth/password-service';
import { createPhoneLoginService } from './modules/auth/phone-login-service';
import { createRegisterService } from './modules/auth/register-service';
import { authRoutes } from './modules/auth/routes';
import { createAuthService } from './modules/auth/service';
import { createAccessTokens, deriveKey } from './modules/auth/tokens';
import { createSessionMemory } from './modules/auth/session-memory';
import { createSessionsService } from './modules/auth/sessions-service';
import { createVersionMemory } from './modules/versions/version-memory';
import { createAnswerCache } from './modules/versions/answer-cache';
import { createReferenceMemory } from './db/reference-memory';
import { contentRoutes } from './modules/content/routes';
import { createContentService } from './modules/content/service';
import { healthRoutes } from './modules/health/routes';
import { createHealthService } from './modules/health/service';
import { outboxRoutes } from './modules/outbox/routes';
import { createOutboxService } from './modules/outbox/service';
import { phoneLineRoutes } from './modules/phone-lines/routes';
import { createPhoneLineService } from './modules/phone-lines/service';
import { createRateLimiter } from './modules/rate-limits/service';
import { statusRoutes } from './modules/status/routes';
import { createStatusService } from './modules/status/service';
import { userRoutes } from './modules/users/routes';
import { createUserService } from './modules/users/service';
import { registerMonthEnd } from './jobs/month-end';
import { registerProvisioningWorker } from './jobs/provisioning';
import type { NetworkAdapter } from './adapters/network/network';
import { createNetwork } from './adapters/network/create-network';
import { keepRegisteringHub } from './adapters/network/tmf641/hub';
import { tmf641ListenerRoutes } from './adapters/network/tmf641/listener';
import { registerTmf641Demo } from './adapters/network/tmf641-demo/register';
import { controlsRoutes } from './modules/controls/routes';
import { roamingCapRoutes } from './modules/roaming/routes';
import { createRoamingCapService } from './modules/roaming/service';
import { createControlsService } from './modules/controls/service';
import { createPackageRequestService } from './modules/controls/requests-service';
import { provisioningRoutes } from './modules/provisioning/routes';
import {
  createProvisioningService,
  type ProvisioningService,
} from './modules/provisioning/service';
import { createSignupService } from './modules/provisioning/signup-service';
import { createAddMemberService } from './modules/provisioning/add-member-service';
import { transferRoutes } from './modules/lifecycle/transfer-routes';
import { createTransferService } from './modules/lifecycle/transfers-service';
import { createHandoverService } from './modules/lifecycle/handovers-service';
import { registerPaymentReconciliation } from './jobs/payment-reconciliation';
import { registerUsageSimulator } from './jobs/usage-simulator';
import { actionRoutes } from './modules/actions/routes';
import { createActionService } from './modules/actions/service';
import { agreementRoutes } from './modules/agreements/routes';
import { createAgreementService } from './modules/agreements/service';
import { billingRoutes } from './modules/billing/routes';
import { createBillingService } from './modules/billing/service';
import { createMonthChargeService } from './modules/billing/month-charge-service';
import { createPackagePurchaseService } from './modules/packages/purchase';
import { receiptRoutes } from './modules/receipts/routes';
import { billRoutes } from './modules/bills/routes';
import { createBillService } from './modules/bills/service';
import { staffBillsRoutes } from './modules/staff/bills-routes';
import { createReceiptLinks } from './modules/receipts/pdf-links';
import { createReceiptService } from './modules/receipts/service';
import { createEuPackageService } from './modules/subscriptions/eu-package';
import { topUpRoutes } from './modules/top-ups/routes';
import { createTopUpService } from './modules/top-ups/service';
import { orderRoutes } from './modules/orders/routes';
import { createOrderService } from './modules/orders/service';
import { packageRoutes } from './modules/packages/routes';
import { createPackageService } from './modules/packages/service';
import { planRoutes } from './modules/plans/routes';
import { createPlanService } from './modules/plans/service';
import { simRoutes } from './modules/sim/routes';
import { createSimService } from './modules/sim/service';
import { subscriptionRoutes } from './modules/subscriptions/routes';
import { createSubscriptionService } from './modules/subscriptions/service';
import { usageRoutes } from './modules/usage/routes';
import { tmf635UsageRoutes } from './modules/usage/tmf635-routes';
import { tmf678BillRoutes } from './modules/bills/tmf678-routes';
import { dataTransferRoutes } from './modules/data-transfers/routes';
import { createDataTransferService } from './modules/data-transfers/service';
import { notificationRoutes } from './modules/notifications/routes';
import { createNotificationService } from './modules/notifications/service';
import { createUsageService } from './modules/usage/service';
import { createUsageHistoryService } from './modules/usage/history-service';
import { monthEndDevRoutes } from './modules/month-end/dev-routes';
import { demoCopyRoutes } from './seed/demo-copy-routes';
import { createMonthEndService } from './modules/month-end/service';
import { applyLifecycleOrder } from './modules/lifecycle/apply';
import { lifecycleChangeRoutes } from './modules/lifecycle/changes-routes';
import { createLifecycleChangesService } from './modules/lifecycle/changes-service';
import { installAuthentication } from './plugins/auth';
import { installStaffAuthentication } from './plugins/staff-auth';
import { createStaffService, type StaffService } from './modules/staff/service';
import { staffRoutes } from './modules/staff/routes';
import { staffPasskeyRoutes } from './modules/staff/passkeys-routes';
import { createStaffPasskeyService } from './modules/staff/passkeys-service';
import { staffStatusRoutes } from './modules/staff/status-routes';
import { supportRoutes } from './modules/support/routes';
import { createAnswerNotice } from './modules/support/answer-notice';
import { processAttachment } from './modules/support/images';
import { registerSupportJob } from './jobs/support';
import { registerPushJob } from './jobs/push';
import { createPushSenders } from './adapters/push/push-senders';
import type { PushPlatform } from './adapters/push/push-sender';
import { pushRoutes } from './modules/push/routes';
import { createPushSettingsService } from './modules/push/settings-service';
import { createPushDispatcher } from './modules/push/dispatch-service';
import { registerSupportHub } from './hub/support-hub';
import { createSupportService } from './modules/support/service';
import { createStaffStatusService } from './modules/staff/status-service';
import { staffContentRoutes } from './modules/staff/content-routes';
import { createStaffContentService } from './modules/staff/content-service';
import { createOperatorService } from './modules/operator/service';
import { staffNumbersRoutes } from './modules/staff/numbers-routes';
import { createStaffNumbersService } from './modules/staff/numbers-service';
import { createNumberInventory } from './modules/phone-lines/inventory-service';
import { staffCustomersRoutes } from './modules/staff/customers-routes';
import { createStaffCustomersService } from './modules/staff/customers-service';
import { staffPaymentsRoutes } from './modules/staff/payments-routes';
import { createStaffPaymentsService } from './modules/staff/payments-service';
import { staffOrdersRoutes } from './modules/staff/orders-routes';
import { createStaffOrdersService } from './modules/staff/orders-service';
import {
  answerFrameworkError,
  installErrorHandler,
  sendRouteNotFound,
} from './plugins/error-handler';
import { registerCompression } from './plugins/compression';
import { registerOpenApi } from './plugins/openapi';
import { registerSecurity } from './plugins/security';
import { registerConsoleApp } from './plugins/console-app';
import { registerWebApp } from './plugins/web-app';
import { installInputGuard } from './plugins/input-guard';
import { serializeError, serializeRequest } from './log-privacy';
import { lazyRequestLogger, OneLineRequestLog } from './request-log';
import { installHttpTracing } from './tracing/http';
import { droppedSpans, traceLogFields, tracingActive } from './tracing/tracing';
import { appLinkRoutes } from './modules/app-links/routes';
import { createRelyingParty } from './modules/passkeys/relying-party';
import { passkeyRoutes } from './modules/passkeys/routes';
import { createPasskeyService } from './modules/passkeys/service';
import { oauthRoutes } from './modules/partners/oauth-routes';
import { createPartnerService } from './modules/partners/service';
import { simSwapRoutes } from './modules/camara/routes';
import { createSimSwapService } from './modules/camara/service';
import { staffPartnersRoutes } from './modules/staff/partners-routes';
import { dataExportRoutes } from './modules/data-export/routes';
import { createDataExportService } from './modules/data-export/service';
import { registerDataExportWorker } from './jobs/data-exports';
import { numberProtectionRoutes } from './modules/number-protection/routes';
import { portOutDevRoutes } from './modules/number-protection/dev-routes';
import {
  createNumberProtectionService,
  type NumberProtectionService,
} from './modules/number-protection/service';
import { registerNumberUnlocks } from './jobs/number-unlocks';
import { createMetrics, type Metrics } from './metrics/metrics';
import { createFleetFacts } from './db/fleet-facts';
import { metricsExposed, registerMetrics } from './metrics/plugin';

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    /** The database this app owns; closed when the app closes (after the server stops). */
    database: Database;
    db: Db;
    /** Work that outlives its request (e-mails); `await app.background.idle()` waits for it. */
    background: BackgroundTasks;
    /** Provisioning (ADR 0055): tests run the worker's rounds with `runDue()` on their clock. */
    provisioning: ProvisioningService;
    /** Staff accounts and sessions (the operator command and tests create accounts with it). */
    staffAccounts: StaffService;
    /** The network adapter (the simulator by default, or TMF641; tests ask it what it holds). */
    network: NetworkAdapter;
    /** Number protection (ADR 0076): tests run the unlock job's round on their clock. */
    numberProtection: NumberProtectionService;
    /** The configured SMS adapter (ADR 0084: the SMPP tests send through it). */
    sms: SmsSender;
    /** The configured e-mail adapter; its `stats` count sent, retried, refused and failed. */
    email: EmailSender;
    /** Prometheus metrics of this instance (issue 44 §1, ADR 0085). */
    metrics: Metrics;
    /** SIGTERM: /readyz answers 503 from now on, so the balancer takes the instance out. */
    startDraining(): void;
  }
}

export interface AppDeps {
  /** An already opened database; by default one is opened from the config. */
  database?: Database;
  /** The clock of every rule that depends on time; tests pin it. */
  now?: () => Date;
  /** Where log lines go (stdout by default); tests capture them. */
  logStream?: DestinationStream;
  /** SMS or e-mail adapters to use instead of the configured ones (tests). */
  messaging?: Partial<Messaging>;
  /** Payment hub timings and limits (tests shorten keep-alive and timeouts). */
  hub?: Partial<PaymentHubOptions>;
  /** Card payment seams (tests deliver webhooks through inject, make the provider fail). */
  payments?: PaymentDeps;
  /** Wraps the network adapter (tests make it refuse a change, ADR 0068). */
  wrapNetwork?: (network: NetworkAdapter) => NetworkAdapter;
}

/** JSON bodies of this API are small forms; anything bigger is a mistake or an attack. */
const BODY_LIMIT_BYTES = 256 * 1024;

const PROBE_PATHS = new Set(['/healthz', '/readyz']);

/** A client-supplied request id is echoed only if it looks like one (no log or header injection). */
const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

function requestIdOf(request: IncomingMessage): string {
  const header = request.headers['x-request-id'];
  return typeof header === 'string' && REQUEST_ID.test(header) ? header : randomUUID();
}

/** A hop count means "trust the n proxies nearest to us" (what proxy-addr does for a number). */
function trustProxyOption(value: Config['trustProxy']) {
  if (typeof value !== 'number') return value;
  return (_address: string, hop: number) => hop < value;
}

/**
 * Builds the whole server without listening: external plugins first (security headers, CORS,
 * rate limits, compression, OpenAPI), then app plugins (error envelope, authentication), then the routes of
 * each module, then the web app. `main.ts` migrates, seeds and listens; tests use `inject`.
 */
export async function buildApp(config: Config, deps: AppDeps = {}): Promise<FastifyInstance> {
  const app = createServer(config, deps.logStream);
  let database = deps.database;
  try {
    database ??= await openDatabase({
      databaseUrl: config.databaseUrl,
      dataDir: config.dataDir,
      log: app.log,
      connectTimeoutMs: config.databaseConnectTimeoutMs,
      reconnectMaxMs: config.databaseReconnectMaxMs,
    });
    await assemble(
      app,
      config,
      database,
      deps.now ?? (() => new Date()),
      deps.messaging ?? {},
      deps.hub,
      deps.payments,
      deps.wrapNetwork,
    );
    return app;
  } catch (error) {
    // Closing twice is harmless; what must not happen is a pool left open by a failed build.
    await database?.close();
    await app.close().catch(() => {});
    throw error;
  }
}

function createServer(config: Config, logStream: DestinationStream | undefined): FastifyInstance {
  const app = Fastify({
    logger: {
      level: config.logLevel,
      // Credentials must never reach the logs, whatever a future log line includes.
      redact: [
        'req.headers.authorization',
        'req.headers.cookie',
        '*.password',
        '*.refreshToken',
        '*.accessToken',
      ],
      // No request value that identifies a person in any log line (log-privacy.ts, issue 14).
      serializers: { req: serializeRequest, err: serializeError },
      ...(logStream ? { stream: logStream } : {}),
      // With tracing on, every line written inside a span carries its trace_id and span_id
      // (issue 44 §2); off, no mixin: the logger's hot path stays as it was.
      ...(tracingActive() ? { mixin: traceLogFields } : {}),
    },
    // Probes are polled every few seconds; logging each one would drown the real traffic.
    logController: new OneLineRequestLog({
      disableRequestLogging: (request) => PROBE_PATHS.has(request.url ?? ''),
    }),
    childLoggerFactory: lazyRequestLogger,
    genReqId: requestIdOf,
    requestIdHeader: false,
    trustProxy: trustProxyOption(config.trustProxy),
    bodyLimit: BODY_LIMIT_BYTES,
    return503OnClosing: false,
    frameworkErrors: answerFrameworkError,
    // A path parameter may be as long as a usage record id (128, RECORD_ID in
    // modules/usage/tmf635.ts: GET …/usage/{id}); the router's default refuses over 100.
    routerOptions: { maxParamLength: 128 },
  });
  // The request's server span, first of all hooks (tracing/http.ts); nothing when tracing is off.
  installHttpTracing(app);
  return app;
}

async function assemble(
  app: FastifyInstance,
  config: Config,
  database: Database,
  now: () => Date,
  messagingOverrides: Partial<Messaging>,
  hubOptions?: Partial<PaymentHubOptions>,
  paymentDeps?: PaymentDeps,
  wrapNetwork?: AppDeps['wrapNetwork'],
): Promise<void> {
  const background = createBackgroundTasks(app.log);
  // First, so that every part built below can count into it (issue 44 §1).
  const metrics = createMetrics({ processMetrics: metricsExposed(config) });
  app.decorate('metrics', metrics);
  if (metricsExposed(config)) database.onPoolWait((seconds) => metrics.poolWait(seconds));
  const messaging: Messaging = {
    ...createMessaging(config, database, app.log),
    ...messagingOverrides,
  };
  app.decorate('config', config);
  app.decorate('database', database);
  app.decorate('db', database.db);
  app.decorate('background', background);
  app.decorate('sms', messaging.sms);
  app.decorate('email', messaging.email);
  // onClose runs after the server has stopped taking requests, so in-flight queries finish first;
  // then unfinished background work (an e-mail on its way), then the connections it needed.
  app.addHook('onClose', async () => {
    await background.idle();
    // SMPP: the dispatcher stops and the session unbinds; queued SMS wait for the next start.
    await messaging.sms.close?.();
    await messaging.email.close();
    await database.close();
    metrics.close();
  });
  // SMPP (ADR 0084): bind the session and start the dispatcher once migrations have run.
  app.addHook('onReady', async () => {
    await messaging.sms.start?.();
  });

  app.log.info({ sms: messaging.sms.kind, email: messaging.email.kind }, 'messaging adapters');
  if (config.nodeEnv === 'production' && !config.demoMode) {
    for (const [channel, kind, variable] of [
      ['SMS', messaging.sms.kind, 'SMS_ADAPTER (smpp or http)'],
      ['e-mail', messaging.email.kind, 'SMTP_URL'],
    ] as const) {
      if (kind === 'outbox') {
        app.log.warn(
          `${variable} is not set: ${channel} goes to the outbox table and the log, not to customers.`,
        );
      }
    }
  }

  if (config.jwtSecretGenerated) {
    app.log.warn(
      'JWT_SECRET is not set: using a random secret for this process. Access tokens will not survive a restart or work across instances; set JWT_SECRET in production.',
    );
  }

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  // Requests that arrive on kept-alive connections while shutting down get the 503 envelope
  // (instead of Fastify's built-in plain 503) and a hint to reconnect elsewhere.
  let closing = false;
  let draining = false;
  app.decorate('startDraining', () => {
    draining = true;
  });
  app.addHook('preClose', async () => {
    closing = true;
  });
  // Callback style, not async: every request passes here, and an async hook costs a promise.
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    if (closing) {
      reply.header('connection', 'close');
      done(new AppError('SERVICE_UNAVAILABLE', { detail: 'shutting down' }));
      return;
    }
    done();
  });

  // 1. External plugins.
  await registerSecurity(app, config);
  await registerCompression(app);
  await registerOpenApi(app);

  // 2. App plugins.
  installErrorHandler(app);
  installInputGuard(app);
  // After the error handler (its 401 is the envelope), before every route it measures.
  registerMetrics(app, config, metrics);
  const db = database.db;
  // What every request and poll needs, held in memory per instance and kept true across
  // instances by LISTEN/NOTIFY (docs/decisions/0057-instance-memory.md). Until onReady has the
  // LISTENs in place (and whenever the LISTEN connection is down) they read the database.
  const sessionMemory = createSessionMemory({
    database,
    db,
    log: app.log,
    rememberMs: config.accessTokenTtlS * 1000,
  });
  const versions = createVersionMemory({ database, db, log: app.log });
  const reference = createReferenceMemory({ database, log: app.log });
  // Customers' serialized answers, reused while nothing of theirs changed (ADR 0057).
  const answers = createAnswerCache({
    facts: versions,
    log: app.log,
    maxEntries: config.answerCacheEntries,
    check: config.readCacheCheck,
  });
  app.addHook('onReady', async () => {
    await sessionMemory.start();
    await versions.start();
    await reference.start();
  });
  app.addHook('preClose', async () => {
    await sessionMemory.stop();
    await versions.stop();
    await reference.stop();
  });
  const limiter = createRateLimiter({
    db,
    now,
    log: app.log,
    onRefused: (policy) => metrics.rateLimited(policy),
  });
  const auth = createAuthService({
    db,
    accessTokens: createAccessTokens(config.jwtSecret, config.accessTokenTtlS),
    refreshTokenTtlS: config.refreshTokenTtlS,
    now,
    log: app.log,
    limiter,
    sessions: sessionMemory,
    alerts: { email: messaging.email, background, appUrl: config.appUrl },
  });
  installAuthentication(app, auth);
  // Passkeys (ADR 0097): one relying party for the customers' sign-in and the staff's factor.
  const relyingParty = createRelyingParty({
    rpId: config.webauthnRpId,
    origins: config.webauthnOrigins,
    rpName: 'Alda',
    now,
  });
  // The staff side (docs/decisions/0075-staff-console.md): its own tokens and sessions.
  const staff = createStaffService({
    db,
    now,
    limiter,
    totpKey: deriveKey(config.staffSecretKey, 'staff-totp'),
    rp: relyingParty,
  });
  installStaffAuthentication(app, staff);
  app.decorate('staffAccounts', staff);
  await registerPaymentHub(app, {
    database,
    authenticate: (token) => auth.authenticate(token),
    tokenKey: deriveKey(config.jwtSecret, 'hub-connection-token'),
    now,
    options: hubOptions,
  });

  // The support hub (issue 46): answers reach an open thread live, on every instance.
  await registerSupportHub(app, {
    database,
    authenticate: (token) => auth.authenticate(token),
    tokenKey: deriveKey(config.jwtSecret, 'hub-connection-token'),
    now,
    options: hubOptions,
  });

  // 3. Routes, module by module. Payments first: purchase routes use `app.payments`.
  const paymentService = await registerPayments(app, { config, db, now, deps: paymentDeps });
  registerPaymentReconciliation(app, {
    intervalS: config.paymentReconcileIntervalS,
    afterS: config.paymentReconcileAfterS,
    reconcile: (round) => paymentService.reconcile(round),
    refund: () => paymentService.refundDue(),
    log: app.log,
  });
  await app.register(healthRoutes, {
    service: createHealthService({ database }),
    draining: () => draining,
  });
  await app.register(statusRoutes, {
    service: createStatusService({
      db: database.db,
      minAppVersion: config.minAppVersion,
      latestAppVersion: config.latestAppVersion,
      now,
      reference,
    }),
  });
  await app.register(contentRoutes, {
    service: createContentService({ db: database.db }),
    reference,
  });
  const phoneLogin = createPhoneLoginService({
    db,
    now,
    log: app.log,
    limiter,
    sms: messaging.sms,
    codeWaitS: config.smsCodeWaitS,
    auth,
    codeKey: deriveKey(config.jwtSecret, 'phone-login-code'),
  });
  const sessions = createSessionsService({
    db,
    now,
    refreshTokenTtlS: config.refreshTokenTtlS,
    limiter,
    codes: phoneLogin,
  });
  await app.register(authRoutes, {
    service: auth,
    register: createRegisterService({ db, now, limiter, auth, minAge: config.minAge }),
    phoneLogin,
    passwords: createPasswordService({
      db,
      now,
      log: app.log,
      limiter,
      email: messaging.email,
      background,
      auth,
      appUrl: config.appUrl,
    }),
    sessions,
    countryHeader: config.clientCountryHeader,
  });
  await app.register(passkeyRoutes, {
    service: createPasskeyService({
      db,
      now,
      log: app.log,
      rp: relyingParty,
      auth,
      sessions,
      limiter,
      alerts: { email: messaging.email, background, appUrl: config.appUrl },
    }),
    countryHeader: config.clientCountryHeader,
  });
  await app.register(userRoutes, { service: createUserService({ db }) });
  await app.register(phoneLineRoutes, {
    service: createPhoneLineService({
      db,
      now,
      limiter,
      quarantineDays: config.numberQuarantineDays,
    }),
  });
  await app.register(outboxRoutes, {
    service: createOutboxService({ db }),
    enabled: config.demoMode,
  });
  // The roaming spend cap's settings (issue 33 §2, ADR 0078).
  const roamingSettings = {
    defaultCapOere: config.roamingCapDefault,
    pricePerMbOere: config.roamingPricePerMb,
  };
  const subscriptions = createSubscriptionService({
    db,
    now,
    cache: answers,
    roaming: roamingSettings,
  });
  await app.register(subscriptionRoutes, {
    service: subscriptions,
    euPackage: createEuPackageService({ db, now, subscriptions }),
    // Provisioning is created below; members added are placed once routes run.
    addMembers: createAddMemberService({
      db,
      now,
      subscriptions,
      provisioning: () => app.provisioning,
    }),
    usageHistory: createUsageHistoryService({
      db,
      now,
      lines: subscriptions,
      roaming: roamingSettings,
    }),
  });
  await app.register(simRoutes, {
    service: createSimService({
      db,
      limiter,
      smdpAddress: config.esimSmdpAddress,
      now,
      stepS: config.provisioningStepS,
      reauthenticate: sessions.reauthenticate,
      sms: messaging.sms,
      email: messaging.email,
      background,
      supportPhone: config.supportPhone,
    }),
  });
  await app.register(planRoutes, { service: createPlanService({ db }), reference });
  await app.register(orderRoutes, { service: createOrderService({ db }) });
  // One network adapter for provisioning, the owner controls and the roaming cap (ADR 0055,
  // 0068, 0078): the simulator, or TMF641 service orders to the OSS with our listener (ADR 0082).
  const configured = createNetwork(config, database, app.log, now);
  const network = wrapNetwork ? wrapNetwork(configured.network) : configured.network;
  app.decorate('network', network);
  app.log.info(
    {
      network: configured.network.kind,
      ...(configured.tmf641 ? { url: configured.tmf641.url } : {}),
    },
    'network adapter',
  );
  if (configured.tmf641) {
    const tmf641 = configured.tmf641;
    await app.register(tmf641ListenerRoutes, {
      adapter: tmf641.adapter,
      secret: config.tmf641ListenerSecret ?? '',
    });
    // The hub registration is kept in the database; a restart finds it and asks nothing. Tried
    // again until it works (the OSS — or on one machine the demo's server — may not listen yet).
    const registering = new AbortController();
    app.addHook('onReady', async () => {
      background.run('tmf641 hub registration', () =>
        keepRegisteringHub({
          client: tmf641.client,
          db,
          log: app.log,
          now,
          apiUrl: tmf641.url,
          callback: config.tmf641CallbackUrl,
          signal: registering.signal,
        }),
      );
    });
    app.addHook('preClose', async () => {
      registering.abort();
    });
  }
  // Demo mode: the network simulator also answers as the OSS over TMF641, so that
  // NETWORK_ADAPTER=tmf641 runs end to end on one machine (issue 43).
  await registerTmf641Demo(app, {
    enabled: config.demoMode,
    database,
    dataDir: config.dataDir,
    now,
    stepMs: config.tmf641DemoStepMs,
    openAtStart: config.networkAdapter === 'tmf641',
    appUrl: config.appUrl,
    simulator: { stepS: config.provisioningStepS, smdpAddress: config.esimSmdpAddress },
    token: config.tmf641Token,
    listenerSecret: config.tmf641ListenerSecret,
  });
  // Provisioning (ADR 0055): sign-up, pickup shops, the customer's order steps and the worker.
  const provisioning = createProvisioningService({
    db,
    now,
    log: app.log,
    network,
    email: messaging.email,
    background,
    simConfirmS: config.provisioningSimConfirmS,
    applyLifecycle: applyLifecycleOrder,
  });
  app.decorate('provisioning', provisioning);
  await app.register(provisioningRoutes, {
    service: provisioning,
    signup: createSignupService({ db, now, provisioning }),
  });
  // The subscription lifecycle (ADR 0056): plan changes, cancellations and their undo.
  await app.register(lifecycleChangeRoutes, {
    service: createLifecycleChangesService({
      db,
      now,
      stepS: provisioning.timing.stepS,
      sendEmails: provisioning.sendEmails,
      subscriptions,
    }),
  });
  // Number protection (issue 32, ADR 0076): the lock, its unlock job, port-out codes and ports.
  const numberProtection = createNumberProtectionService({
    db,
    now,
    limiter,
    reauthenticate: sessions.reauthenticate,
    sendEmails: provisioning.sendEmails,
    appUrl: config.appUrl,
    linkSecret: config.linkSecret,
    unlockDelayH: config.numberUnlockDelayH,
    stepS: provisioning.timing.stepS,
  });
  app.decorate('numberProtection', numberProtection);
  await app.register(numberProtectionRoutes, { service: numberProtection });
  await app.register(portOutDevRoutes, { service: numberProtection, enabled: config.demoMode });
  registerNumberUnlocks(app, {
    intervalS: config.numberUnlockIntervalS,
    run: () => numberProtection.completeDueUnlocks(),
    log: app.log,
  });
  registerProvisioningWorker(app, {
    pollMs: config.provisioningPollMs,
    run: () => provisioning.runDue(),
    log: app.log,
  });
  // Numbers moved between accounts and handed to other people (ADR 0056).
  await app.register(transferRoutes, {
    transfers: createTransferService({ db, now, provisioning }),
    handovers: createHandoverService({ db, now, provisioning }),
  });
  // Purchases go through the payments core (`app.payments`, registered above).
  const payments = () => app.payments;
  await app.register(packageRoutes, {
    service: createPackageService({ db, now }),
    purchases: createPackagePurchaseService({ db, payments }),
    reference,
  });
  // Owner controls per member (issue 16.3, ADR 0068).
  await app.register(controlsRoutes, {
    controls: createControlsService({ db, now, log: app.log, network, subscriptions }),
    requests: createPackageRequestService({ db, now, payments }),
  });
  // The roaming spend cap per number (issue 33 §2, ADR 0078).
  await app.register(roamingCapRoutes, {
    service: createRoamingCapService({
      db,
      now,
      log: app.log,
      network,
      subscriptions,
      settings: roamingSettings,
    }),
  });
  await app.register(agreementRoutes, {
    service: createAgreementService({
      db,
      now,
      log: app.log,
      payments,
      // DELETE /api/agreements ends the agreement at the configured provider first.
      stopAgreement: (agreementRef) => app.payments.stopAgreement(agreementRef),
      providerName: app.payments.providerName,
    }),
  });
  await app.register(topUpRoutes, { service: createTopUpService({ db, payments }) });
  const billing = createBillingService({ db, now, payments });
  await app.register(billingRoutes, { service: billing });
  const receipts = createReceiptService({
    db,
    email: messaging.email,
    now,
    links: createReceiptLinks(deriveKey(config.jwtSecret, 'receipt-pdf-link')),
  });
  await app.register(receiptRoutes, { service: receipts });
  // The monthly bill (docs/decisions/0098-monthly-bill.md): made by the month-end rounds below.
  const bills = createBillService({
    db,
    now,
    log: app.log,
    email: messaging.email,
    issuer: {
      name: config.billIssuerName,
      address: config.billIssuerAddress,
      vatNumber: config.billIssuerVatNumber,
      bankAccount: config.billBankAccount,
      iban: config.billIban,
    },
    links: createReceiptLinks(deriveKey(config.jwtSecret, 'bill-pdf-link')),
    batchSize: config.monthEndBillBatch,
    appUrl: config.appUrl,
  });
  await app.register(billRoutes, { service: bills });
  await app.register(actionRoutes, { service: createActionService({ db }) });
  await app.register(dataTransferRoutes, {
    service: createDataTransferService({ db, now, versions }),
    answers,
  });
  await app.register(notificationRoutes, {
    service: createNotificationService({ db, now, versions }),
    answers,
  });
  // Push notifications (issue 64, docs/decisions/0096-push-notifications.md): the settings,
  // this device's address, and the dispatcher that sends what the notifications queued.
  const push = createPushSenders(config, app.log);
  app.addHook('onClose', () => push.close());
  await app.register(pushRoutes, {
    service: createPushSettingsService({
      db,
      now,
      vapidPublicKey: push.vapidPublicKey,
      platforms: new Set(Object.keys(push.senders) as PushPlatform[]),
    }),
  });
  const pushDispatcher = createPushDispatcher({
    db,
    now,
    senders: push.senders,
    leaseS: config.pushLeaseS,
    batch: 50,
    log: app.log,
  });
  registerPushJob(app, { pollMs: config.pushPollMs, run: pushDispatcher.runRound, log: app.log });
  // "Your data" (issue 32 part 5, GDPR Art. 15/20): the request, the list, the signed download
  // and the worker that prepares the ZIPs.
  const dataExports = createDataExportService({
    db,
    now,
    log: app.log,
    limiter,
    email: messaging.email,
    background,
    linkSecret: config.linkSecret,
    appUrl: config.appUrl,
  });
  await app.register(dataExportRoutes, { service: dataExports });
  registerDataExportWorker(app, {
    pollMs: config.dataExportPollMs,
    run: () => dataExports.runRound(),
    log: app.log,
  });
  const usage = createUsageService({
    db,
    now,
    log: app.log,
    email: messaging.email,
    background,
    roaming: roamingSettings,
    network,
    sms: messaging.sms,
    metrics,
  });
  await app.register(usageRoutes, { service: usage, token: config.usageFeedToken });
  // The same feed on TMF635 Usage Management v4 (issue 43 §2, ADR 0083): same token, same sink.
  await app.register(tmf635UsageRoutes, { service: usage, token: config.usageFeedToken });
  // The monthly bills on TMF678 Customer Bill Management v4, read by the finance system (ADR 0098).
  await app.register(tmf678BillRoutes, { db, now, token: config.billingFeedToken });
  registerUsageSimulator(app, {
    enabled: config.demoMode,
    intervalS: config.usageSimulatorIntervalS,
    sink: usage,
    numbers: () => usage.activeNumbers(),
    log: app.log,
  });
  const monthEnd = createMonthEndService({
    db,
    now,
    log: app.log,
    sendEmails: provisioning.sendEmails,
    network,
  });
  // The month's charge on payment agreements runs in the same rounds, after the month end.
  const monthCharge = createMonthChargeService({
    db,
    now,
    log: app.log,
    billing,
    providerName: app.payments.providerName,
  });
  registerMonthEnd(app, {
    intervalS: config.monthEndIntervalS,
    run: (signal) => monthEnd.run(undefined, signal),
    bills: (signal) => bills.runMonthEnd(undefined, signal),
    charge: config.monthEndCharge ? (signal) => monthCharge.run(signal) : undefined,
    log: app.log,
  });
  await app.register(monthEndDevRoutes, { service: monthEnd, now, enabled: config.demoMode });
  // A private copy of the demo data set per browser journey (demo mode only).
  await app.register(demoCopyRoutes, { db, now, enabled: config.demoMode });

  // The staff side, /api/staff/* (docs/decisions/0075-staff-console.md). Each area's routes call
  // the same services as the customer routes and the operator command.
  await app.register(staffRoutes, { service: staff, db });
  // Staff passkeys and the roles that require them (ADR 0097).
  await app.register(staffPasskeyRoutes, {
    service: createStaffPasskeyService({ db, now, rp: relyingParty, limiter }),
    staff,
  });
  // STAFF AREAS: one registration per area below.
  // The operator command's service, built as `npm run operator` builds it (one set of rules).
  const operator = createOperatorService({ db, now, provisioning });
  // Support conversations, customer and desk (issue 46, docs/decisions/0088-support-conversations.md).
  const support = createSupportService({
    db,
    now,
    limiter,
    firstReplyHours: config.supportFirstReplyH,
    answerNoticeAfterS: config.supportAnswerNoticeAfterS,
    tellAnswerWaiting: createAnswerNotice({ db, messaging, appUrl: config.appUrl }),
  });
  await app.register(supportRoutes, { service: support, processImage: processAttachment });
  registerSupportJob(app, { pollMs: config.supportPollMs, run: support.runRound, log: app.log });
  await app.register(staffStatusRoutes, {
    service: createStaffStatusService({ db, now, operator }),
  });
  await app.register(staffContentRoutes, { service: createStaffContentService({ db, now }) });
  await app.register(staffNumbersRoutes, {
    service: createStaffNumbersService({
      db,
      now,
      inventory: createNumberInventory({ db, now, quarantineDays: config.numberQuarantineDays }),
    }),
  });
  const staffCustomers = createStaffCustomersService({
    db,
    now,
    provisioning,
    receipts,
    messaging,
  });
  await app.register(staffCustomersRoutes, { service: staffCustomers });
  await app.register(staffBillsRoutes, { bills, customers: staffCustomers });
  await app.register(staffPaymentsRoutes, {
    service: createStaffPaymentsService({ db, now, payments: paymentService }),
  });
  await app.register(staffOrdersRoutes, {
    service: createStaffOrdersService({ db, now, operator, provisioning }),
  });

  // Partner clients (banks) and the CAMARA SIM Swap API (issue 32): OAuth 2.0 client
  // credentials at /oauth/token, /camara/sim-swap/v2/*, and the console's admin area.
  const partners = createPartnerService({ db, now, tokenTtlS: config.partnerTokenTtlS });
  await app.register(oauthRoutes, { service: partners });
  await app.register(simSwapRoutes, {
    service: createSimSwapService({
      db,
      now,
      log: app.log,
      partners,
      limiter,
      ratePerMin: config.partnerRateLimitPerMin,
    }),
  });
  await app.register(staffPartnersRoutes, { service: partners });

  // 4. The native app's link association files, the web app, and the fallback for the rest.
  await app.register(appLinkRoutes, {
    androidCertSha256: config.androidAppCertSha256,
    iosAppId: config.iosAppId,
  });
  const web = await registerWebApp(app, config.webDist);
  // Scanners probe random paths; unmatched requests count against the rate limit too.
  const notFoundOptions = config.rateLimitMax > 0 ? { preHandler: app.rateLimit() } : {};
  // The staff console at /console/ with its own SPA fallback (ADR 0075).
  await registerConsoleApp(app, config.consoleDist, notFoundOptions);
  app.setNotFoundHandler(notFoundOptions, (request, reply) => {
    if (web?.fallback(request, reply)) return reply;
    return sendRouteNotFound(request, reply);
  });

  // What the metrics read when Prometheus scrapes (issue 44 §1).
  metrics.setSources({
    pool: () => database.stats().pool,
    listenConnected: () => database.stats().listenConnected,
    hubConnections: () => app.paymentHub.connections,
    fleet: createFleetFacts(db, now),
    sms: () => messaging.sms.stats,
    email: () => messaging.email.stats,
    push: () => pushDispatcher.stats,
    spansDropped: droppedSpans,
  });
}
