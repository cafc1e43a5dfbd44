import { and, desc, eq, isNotNull, isNull, max } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { contentVersions, type ContentVersionRow } from '../../db/schema/staff';

/*
 * The SQL of content versions (staff/content-service.ts): terms and privacy, both languages per
 * version, unique by (slug, version).
 */

export type ContentSlug = ContentVersionRow['slug'];
export type ContentVersionSummaryRow = Omit<ContentVersionRow, 'markdownFo' | 'markdownEn'>;

/** The unique index a second draft numbered at the same moment runs into. */
export const CONTENT_VERSION_UNIQUE = 'content_versions_slug_version_uq';

const summaryColumns = {
  id: contentVersions.id,
  slug: contentVersions.slug,
  version: contentVersions.version,
  titleFo: contentVersions.titleFo,
  titleEn: contentVersions.titleEn,
  createdBy: contentVersions.createdBy,
  createdAt: contentVersions.createdAt,
  publishedBy: contentVersions.publishedBy,
  publishedAt: contentVersions.publishedAt,
};

/** Every version of `slug` without its texts, newest first. */
export function findVersionSummaries(
  db: Db,
  slug: ContentSlug,
): Promise<ContentVersionSummaryRow[]> {
  return db
    .select(summaryColumns)
    .from(contentVersions)
    .where(eq(contentVersions.slug, slug))
    .orderBy(desc(contentVersions.version));
}

/** One version of `slug`; locked until the transaction ends with `forUpdate`. */
export async function findVersion(
  db: Db,
  slug: ContentSlug,
  id: string,
  forUpdate = false,
): Promise<ContentVersionRow | undefined> {
  const query = db
    .select()
    .from(contentVersions)
    .where(and(eq(contentVersions.slug, slug), eq(contentVersions.id, id)));
  const [row] = await (forUpdate ? query.for('update') : query);
  return row;
}

/** The highest version number of `slug`; 0 without versions. */
export async function maxVersion(db: Db, slug: ContentSlug): Promise<number> {
  const [row] = await db
    .select({ version: max(contentVersions.version) })
    .from(contentVersions)
    .where(eq(contentVersions.slug, slug));
  return row?.version ?? 0;
}

/** The version published last (the one the app shows), if any. */
export async function findLiveVersion(
  db: Db,
  slug: ContentSlug,
): Promise<Pick<ContentVersionRow, 'id' | 'version' | 'publishedAt'> | undefined> {
  const [row] = await db
    .select({
      id: contentVersions.id,
      version: contentVersions.version,
      publishedAt: contentVersions.publishedAt,
    })
    .from(contentVersions)
    .where(and(eq(contentVersions.slug, slug), isNotNull(contentVersions.publishedAt)))
    .orderBy(desc(contentVersions.publishedAt), desc(contentVersions.version))
    .limit(1);
  return row;
}

export interface NewVersion {
  slug: ContentSlug;
  version: number;
  titleFo: string;
  titleEn: string;
  markdownFo: string;
  markdownEn: string;
  createdBy: string;
  createdAt: Date;
  publishedBy?: string | null;
  publishedAt?: Date | null;
}

export async function insertVersion(db: Db, row: NewVersion): Promise<ContentVersionRow> {
  const [inserted] = await db.insert(contentVersions).values(row).returning();
  if (!inserted) throw new Error('content version insert returned no row');
  return inserted;
}

/** Inserts `row` unless its (slug, version) exists (the first version, taken from the pages). */
export async function insertVersionIfAbsent(db: Db, row: NewVersion): Promise<void> {
  await db
    .insert(contentVersions)
    .values(row)
    .onConflictDoNothing({ target: [contentVersions.slug, contentVersions.version] });
}

export interface VersionTexts {
  titleFo: string;
  titleEn: string;
  markdownFo: string;
  markdownEn: string;
}

/** Replaces the texts of a draft; undefined when it is not a draft (published meanwhile). */
export async function updateDraftTexts(
  db: Db,
  id: string,
  texts: VersionTexts,
): Promise<ContentVersionRow | undefined> {
  const [row] = await db
    .update(contentVersions)
    .set(texts)
    .where(and(eq(contentVersions.id, id), isNull(contentVersions.publishedAt)))
    .returning();
  return row;
}

/** Marks a draft published; undefined when it was published already. */
export async function markPublished(
  db: Db,
  id: string,
  by: string,
  at: Date,
): Promise<ContentVersionRow | undefined> {
  const [row] = await db
    .update(contentVersions)
    .set({ publishedBy: by, publishedAt: at })
    .where(and(eq(contentVersions.id, id), isNull(contentVersions.publishedAt)))
    .returning();
  return row;
}
