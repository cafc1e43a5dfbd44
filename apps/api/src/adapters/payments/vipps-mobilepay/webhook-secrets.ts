import { eq, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Database, Db, Tx } from '../../../db/client';
import { paymentWebhookRegistrations } from '../../../db/schema/payments';

/*
 * The secrets of our registered Vipps MobilePay webhooks, kept in memory (ADR 0081 "Guidelines:
 * polling, 429, webhooks"): checking a webhook reads no database, so a forged one costs an HMAC
 * and nothing else. The memory is filled once (at start, or by the first webhook) and follows
 * every change: a registration NOTIFYs WEBHOOK_SECRETS_CHANNEL in its transaction, and every
 * instance LISTENs and reads the secrets again — the operator's command runs in its own process,
 * so the instances learn it only this way. While the LISTEN connection is down a change may be
 * missed; when it is back they are read again. A webhook signed with a secret not yet known here
 * answers 400 and Vipps MobilePay delivers it again later (their retries), by when it is known.
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
  /** The last read asked for; reads run one after another, so the last one is the newest. */
  let latest: Promise<readonly string[]> | null = null;

  /** Reads the secrets from the database, after any read already under way. */
  function reload(): Promise<readonly string[]> {
    const before = latest;
    const read = (async () => {
      await before?.catch(() => undefined);
      const rows = await db
        .select({ secret: paymentWebhookRegistrations.secret })
        .from(paymentWebhookRegistrations)
        .where(eq(paymentWebhookRegistrations.provider, provider));
      known = rows.map((row) => row.secret);
      return known;
    })();
    latest = read;
    // A failed read is not kept: the next webhook asks again.
    read.catch(() => {
      if (latest === read) latest = null;
    });
    return read;
  }

  return {
    /** The secrets in memory; read from the database only the first time. */
    current(): readonly string[] | Promise<readonly string[]> {
      return known ?? latest ?? reload();
    },
    /**
     * LISTENs for changes and reads the secrets once now. Answers the function that stops it.
     * A failed read is logged; the first webhook then reads them.
     */
    async listen(database: Pick<Database, 'listen'>): Promise<() => Promise<void>> {
      const again = () => {
        reload().catch((error: unknown) => {
          log.error({ err: error }, 'Vipps MobilePay webhook secrets could not be read');
        });
      };
      const stop = await database.listen(WEBHOOK_SECRETS_CHANNEL, again, { onReconnected: again });
      again();
      return stop;
    },
  };
}
