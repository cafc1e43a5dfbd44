import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { recentWrites } from '../../db/recent-writes';
import { REFERENCE_WRITE_KEY } from '../../db/reference-memory';
import { contentPages, type ContentPageRow } from '../../db/schema/content-pages';

/*
 * Writing the terms and privacy pages the app reads (SPEC §2; GET /api/content/:slug): the staff
 * console publishes a content version through here, in its own transaction, so the page and the
 * version's mark as published commit together. The pages are reference data kept in memory
 * (docs/decisions/0057-instance-memory.md): the table's trigger NOTIFYs every instance, and this
 * process reads the database for a moment after its own write (recent-writes.ts), so the next
 * GET — and its ETag — is the published text at once.
 */

export interface ContentPageText {
  locale: ContentPageRow['locale'];
  title: string;
  markdown: string;
}

/** The pages of `slug` (one per language present), locked until the transaction ends. */
export async function lockContentPages(
  db: Db,
  slug: ContentPageRow['slug'],
): Promise<ContentPageRow[]> {
  return db.select().from(contentPages).where(eq(contentPages.slug, slug)).for('update');
}

/** Replaces the pages of `slug` in the given languages, dated `at`. */
export async function writeContentPages(
  db: Db,
  slug: ContentPageRow['slug'],
  pages: readonly ContentPageText[],
  at: Date,
): Promise<void> {
  recentWrites.mark([REFERENCE_WRITE_KEY]);
  for (const page of pages) {
    await db
      .insert(contentPages)
      .values({
        slug,
        locale: page.locale,
        title: page.title,
        markdown: page.markdown,
        updatedAt: at,
      })
      .onConflictDoUpdate({
        target: [contentPages.slug, contentPages.locale],
        set: { title: page.title, markdown: page.markdown, updatedAt: at },
      });
  }
}
