import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Db } from '../db/client';
import { AppError } from '../errors';
import { copyDemoData } from './demo-copy';

/**
 * Demo mode only (DEMO_MODE=true, like /dev/month-end): `POST /dev/demo-copy` inserts a fresh,
 * private copy of the whole demo data set (demo-copy.ts) and answers its customers (by first
 * name: id, e-mail, number, name), lines and accounts (by the names of DEMO_LINE_IDS and
 * DEMO_ACCOUNT_IDS), so each browser journey changes its own demo and none sees another's
 * leftovers. Otherwise 404 like any unknown path; hidden from OpenAPI: not part of the customer
 * API.
 */
export const demoCopyRoutes: FastifyPluginAsyncZod<{
  db: Db;
  now: () => Date;
  enabled: boolean;
}> = async (app, { db, now, enabled }) => {
  app.post('/dev/demo-copy', { schema: { hide: true } }, async (_request, reply) => {
    if (!enabled) throw new AppError('ROUTE_NOT_FOUND', { detail: 'demo mode is off' });
    const copy = await copyDemoData(db, now());
    return reply.header('cache-control', 'no-store').send({ data: copy });
  });
};
