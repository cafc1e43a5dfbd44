import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataEnvelope, errorEnvelope } from '@alda/contract/envelope';
import { contentResponse } from '@alda/contract/schemas/content';
import { contentPages } from '../src/db/schema/content-pages';
import { seedReferenceData } from '../src/seed/seed';
import { createTestApp, parse, waitFor, type TestApp } from './helper';

const contentAnswer = dataEnvelope(contentResponse);

describe('GET /api/content/:slug (SPEC §2 terms and privacy, markdown)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
    await seedReferenceData(t.app.db);
  });
  afterAll(() => t.close());

  const get = (slug: string, acceptLanguage?: string) =>
    t.app.inject({
      method: 'GET',
      url: `/api/content/${slug}`,
      headers: acceptLanguage ? { 'accept-language': acceptLanguage } : {},
    });

  it('serves the terms in Faroese by default, as markdown with headings and lists', async () => {
    const res = await get('terms');
    expect(res.statusCode).toBe(200);
    const { data } = parse(contentAnswer, res);
    expect(data).toMatchObject({ slug: 'terms', locale: 'fo', title: 'Treytir' });
    expect(data.markdown).toMatch(/^# Treytir fyri mobiltænastur/);
    expect(data.markdown).toMatch(/^## /m);
    expect(data.markdown).toMatch(/^- /m);
    expect(data.markdown).toContain('Alda P/F, Tórshavn');
    expect(data.markdown).toContain('6 mánaða binditíð');
  });

  it('serves the terms in English with Accept-Language: en', async () => {
    const { data } = parse(contentAnswer, await get('terms', 'en'));
    expect(data).toMatchObject({ slug: 'terms', locale: 'en', title: 'Terms' });
    expect(data.markdown).toContain('6-month commitment');
  });

  it('serves the privacy policy in both languages, naming the controller, the act and Dátueftirlitið', async () => {
    const fo = parse(contentAnswer, await get('privacy', 'fo')).data;
    const en = parse(contentAnswer, await get('privacy', 'en')).data;
    expect(fo).toMatchObject({ locale: 'fo', title: 'Privatlívspolitikkur' });
    expect(en).toMatchObject({ locale: 'en', title: 'Privacy policy' });
    for (const page of [fo, en]) {
      expect(page.markdown).toContain('Alda P/F');
      expect(page.markdown).toContain('Dátueftirlitið');
      expect(page.markdown).toContain('dátuverndarlógin');
    }
    expect(new Date(fo.updatedAt).getTime()).not.toBeNaN();
  });

  it('falls back to the Faroese page when the requested translation is missing', async () => {
    await t.app.db
      .delete(contentPages)
      .where(and(eq(contentPages.slug, 'privacy'), eq(contentPages.locale, 'en')));
    // The page kept in memory ends with the trigger's NOTIFY (ADR 0057), a moment after the
    // commit on PostgreSQL.
    const localeServed = async (locale: string) =>
      parse(contentAnswer, await get('privacy', 'en')).data.locale === locale ? true : undefined;
    await waitFor(() => localeServed('fo'));
    // The reference seed restores the missing page at the next start.
    await seedReferenceData(t.app.db);
    await waitFor(() => localeServed('en'));
  });

  it('rejects an unknown slug with 400 VALIDATION_FAILED on field slug', async () => {
    const res = await get('cookies', 'en');
    expect(res.statusCode).toBe(400);
    expect(parse(errorEnvelope, res).error).toMatchObject({
      code: 'VALIDATION_FAILED',
      field: 'slug',
    });
  });
});

describe('GET /api/content/:slug on an empty database', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('answers 404 NOT_FOUND, localized', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/content/terms',
      headers: { 'accept-language': 'en' },
    });
    expect(res.statusCode).toBe(404);
    expect(parse(errorEnvelope, res).error).toEqual({
      code: 'NOT_FOUND',
      message: 'We could not find what you were looking for.',
    });
  });
});
