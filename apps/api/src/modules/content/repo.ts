import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { contentPages, type ContentPageRow } from '../../db/schema/content-pages';

export async function findContentPages(
  db: Db,
  slug: ContentPageRow['slug'],
): Promise<ContentPageRow[]> {
  return db.select().from(contentPages).where(eq(contentPages.slug, slug));
}

export async function findContentPage(
  db: Db,
  slug: ContentPageRow['slug'],
  locale: ContentPageRow['locale'],
): Promise<ContentPageRow | undefined> {
  const [row] = await db
    .select()
    .from(contentPages)
    .where(and(eq(contentPages.slug, slug), eq(contentPages.locale, locale)));
  return row;
}
