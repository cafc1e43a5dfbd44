import { eq, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Database, Db, Tx } from '../../../db/client';
import { createNoticeTrust, type NoticeTrust } from '../../../db/notice-trust';
import { paymentWebhookRegistrations } from '../../../db/schema/payments';

/*
 * The secrets of our registered Vipps MobilePay webhooks, kept in memory (ADR 0081 "Guidelines:
 * polling, 429, webhooks"): checking a webhook reads no database, so a forged one costs an HMAC
 * and nothing else. The memory is filled at start and follows every change: a registration
 * NOTIFYs WEBHOOK_SECRETS_CHANNEL in its transaction, and every instance LISTENs and reads the
 * secrets again — the operator's command runs in its own process, so the instances learn it only
 * this way. The memory is trusted as every instance memory is (db/notice-trust.ts, ADR 0057):
 * while the LISTEN connection is down each webhook reads the secrets, and once it is back the
 * memory starts over. A webhook signed with a secret not yet known answers 400 and Vipps
 * MobilePay delivers it again later (their retries), by when it is known.
 */

export const WEBHOOK_SECRETS_CHANNEL = 'payment_webhook_secrets';

/** In the registration's transaction: every instance reads the secrets again once it commits. */
export async function notifyWebhookSecretsChanged(db: Db | Tx): Promise<void> {
  await db.execute(sql`select pg_notify(${WEBHOOK_SECRETS_CHANNEL}, '')`);
}

export function createWebhookSecrets(options: {
  db: Db;
  provider: string;
  log: FastifyBaseLogger;
}) {
  const { db, provider, log } = options;
  let known: readonly string[] | null = null;
  let trust: NoticeTrust | null = null;

  /** The secrets: from memory when it may be trusted, else read (and kept when it may be). */
  async function current(): Promise<readonly string[]> {
    if (known) return known;
    const startedIn = trust?.epoch ?? -1;
    const rows = await db
      .select({ secret: paymentWebhookRegistrations.secret })
      .from(paymentWebhookRegistrations)
      .where(eq(paymentWebhookRegistrations.provider, provider));
    const secrets = rows.map((row) => row.secret);
    if (trust?.mayKeep(startedIn)) known = secrets;
    return secrets;
  }

  /** Reads the secrets into memory now, so that no webhook waits for that read. */
  function fill() {
    current().catch((error: unknown) => {
      log.error({ err: error }, 'Vipps MobilePay webhook secrets could not be read');
    });
  }

  return {
    current,
    /** LISTENs for changes and reads the secrets now. Answers the function that stops it. */
    async listen(database: Pick<Database, 'listen'>): Promise<() => Promise<void>> {
      const noticed = createNoticeTrust(database, () => {
        known = null;
      });
      trust = noticed;
      const stop = await noticed.listen([
        [
          WEBHOOK_SECRETS_CHANNEL,
          () => {
            noticed.forget();
            fill();
          },
        ],
      ]);
      fill();
      return stop;
    },
  };
}
