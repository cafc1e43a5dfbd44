import { readFileSync } from 'node:fs';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config';
import type { PushPlatform, PushSender } from './push-sender';
import { createApnsSender } from './apns';
import { createFcmSender } from './fcm';
import { createWebPushSender, generateVapidKeys } from './web-push';

export interface PushSenders {
  senders: Partial<Record<PushPlatform, PushSender>>;
  /** What browsers subscribe with. */
  vapidPublicKey: string;
  /** True when no VAPID keys were configured and a pair was made for this process. */
  vapidGenerated: boolean;
  close(): Promise<void>;
}

/** A file a setting names; one that cannot be read stops the start, naming the setting. */
function readSettingFile(setting: string, file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    throw new Error(`${setting} ${file} cannot be read: ${(error as Error).message}`, {
      cause: error,
    });
  }
}

/** The `mailto:` of MAIL_FROM's address (`Alda <no-reply@alda.fo>` → `mailto:no-reply@alda.fo`). */
function mailtoOf(mailFrom: string): string {
  const address = /<([^>]+)>/.exec(mailFrom)?.[1] ?? mailFrom;
  return `mailto:${address.trim()}`;
}

/**
 * The push senders the configuration allows (ADR 0096): web push always (VAPID keys from the
 * settings, or a pair per process outside production), APNs and FCM when their keys are set. A
 * key file that cannot be read, or a key that is no key, stops the start.
 */
export function createPushSenders(config: Config, log: FastifyBaseLogger): PushSenders {
  const ca = config.pushTlsCa ? readSettingFile('PUSH_TLS_CA', config.pushTlsCa) : undefined;
  const configured =
    config.vapidPublicKey && config.vapidPrivateKey
      ? { publicKey: config.vapidPublicKey, privateKey: config.vapidPrivateKey }
      : null;
  const vapid = configured ?? generateVapidKeys();
  if (!configured) {
    log.info(
      'VAPID keys not set: a pair was made for this process; browsers subscribe again after a restart',
    );
  }
  const senders: Partial<Record<PushPlatform, PushSender>> = {
    web: createWebPushSender({
      vapid: { ...vapid, subject: config.vapidSubject ?? mailtoOf(config.mailFrom) },
      ca,
      timeoutMs: config.pushTimeoutMs,
    }),
  };
  if (config.apnsKeyId && config.apnsTeamId && config.apnsKey && config.apnsTopic) {
    senders.apns = createApnsSender({
      keyId: config.apnsKeyId,
      teamId: config.apnsTeamId,
      key: readSettingFile('APNS_KEY', config.apnsKey),
      topic: config.apnsTopic,
      url: config.apnsUrl,
      ca,
      timeoutMs: config.pushTimeoutMs,
    });
  }
  if (config.fcmProjectId && config.fcmServiceAccount) {
    senders.fcm = createFcmSender({
      projectId: config.fcmProjectId,
      serviceAccount: readSettingFile('FCM_SERVICE_ACCOUNT', config.fcmServiceAccount),
      url: config.fcmUrl,
      ca,
      timeoutMs: config.pushTimeoutMs,
    });
  }
  log.info({ push: Object.keys(senders) }, 'push senders');
  return {
    senders,
    vapidPublicKey: vapid.publicKey,
    vapidGenerated: !configured,
    async close() {
      await Promise.all(Object.values(senders).map((sender) => sender.close()));
    },
  };
}
