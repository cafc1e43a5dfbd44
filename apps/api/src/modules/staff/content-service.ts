import type { ContentSlug } from '@alda/contract/schemas/content';
import type {
  ContentVersionState,
  StaffContentDraftRequest,
  StaffContentVersion,
  StaffContentVersionSummary,
} from '@alda/contract/schemas/staff-content';
import type { Db } from '../../db/client';
import { uniqueViolationOf } from '../../db/errors';
import type { ContentVersionRow } from '../../db/schema/staff';
import { AppError } from '../../errors';
import type { StaffCaller } from '../../plugins/staff-auth';
import { lockContentPages, writeContentPages } from '../content/pages-service';
import { recordAudit } from '../operator/audit';
import {
  CONTENT_VERSION_UNIQUE,
  findLiveVersion,
  findVersion,
  findVersionSummaries,
  insertVersion,
  insertVersionIfAbsent,
  markPublished,
  maxVersion,
  updateDraftTexts,
  type ContentVersionSummaryRow,
} from './content-repo';

/*
 * Terms and privacy as versions (issue 31 "Content"; SPEC §2 terms and privacy). Role `content`
 * (and `admin`). A version holds both languages. The rules:
 * - A new draft is numbered max + 1 of its page. Drafts of a page are written one after the
 *   other (its pages are locked, as for a publication); should two still meet (a page without
 *   rows to lock), the unique (slug, version) refuses one, which takes the number after.
 * - A draft may be edited (PUT) until it is published; a published version never changes again.
 *   A change to the live text is a new draft (the console prefills it from the latest version).
 * - Publishing copies the version's texts into the pages the app reads (content_pages, both
 *   languages) and marks it published, in one transaction with its audit entry; the pages of the
 *   slug are locked meanwhile, so two publications of one page follow each other. The version
 *   published last is `live`: its `publishedAt` is always later than any before it, even on a
 *   pinned or slow clock. A version published before cannot be published again (409); to go
 *   back, make a draft of it and publish that.
 * - The first time a page's versions are asked for and it has none, its text as it stands (the
 *   reference seed's, or whatever was there) becomes version 1, published by `system`: every
 *   installation starts with its live text as a version, without a migration.
 * Audit: `content.draft`, `content.edit`, `content.publish` (kind `change`, target type `content`,
 * target the version's id, details slug and version number).
 */

/** The creator and publisher of version 1 when it is taken from the pages as they stood. */
export const SYSTEM_AUTHOR = 'system';

export interface StaffContentServiceDeps {
  db: Db;
  now: () => Date;
}

function stateOf(
  row: Pick<ContentVersionRow, 'id' | 'publishedAt'>,
  liveId: string | undefined,
): ContentVersionState {
  if (!row.publishedAt) return 'draft';
  return row.id === liveId ? 'live' : 'previous';
}

function toSummary(
  row: ContentVersionSummaryRow,
  liveId: string | undefined,
): StaffContentVersionSummary {
  return {
    id: row.id,
    slug: row.slug,
    version: row.version,
    titleFo: row.titleFo,
    titleEn: row.titleEn,
    state: stateOf(row, liveId),
    createdBy: row.createdBy,
    createdAt: row.createdAt.toISOString(),
    publishedBy: row.publishedBy,
    publishedAt: row.publishedAt?.toISOString() ?? null,
  };
}

function toVersion(row: ContentVersionRow, liveId: string | undefined): StaffContentVersion {
  return { ...toSummary(row, liveId), markdownFo: row.markdownFo, markdownEn: row.markdownEn };
}

function notFound(slug: ContentSlug, id: string): AppError {
  return new AppError('NOT_FOUND', { detail: `no ${slug} version ${id}` });
}

export function createStaffContentService({ db, now }: StaffContentServiceDeps) {
  /**
   * Version 1 from the pages as they stand, when `slug` has no versions yet. A language missing
   * from the pages takes the other one's text (as GET /api/content falls back); without any page
   * there is nothing to take.
   */
  async function ensureFirstVersion(tx: Db, slug: ContentSlug): Promise<void> {
    if ((await maxVersion(tx, slug)) > 0) return;
    const pages = await lockContentPages(tx, slug);
    const fo = pages.find((p) => p.locale === 'fo') ?? pages[0];
    const en = pages.find((p) => p.locale === 'en') ?? fo;
    if (!fo || !en) return;
    // When the pages were last written — never later than now (a clock set back, a test's).
    const updated = new Date(
      Math.min(now().getTime(), Math.max(...pages.map((p) => p.updatedAt.getTime()))),
    );
    await insertVersionIfAbsent(tx, {
      slug,
      version: 1,
      titleFo: fo.title,
      titleEn: en.title,
      markdownFo: fo.markdown,
      markdownEn: en.markdown,
      createdBy: SYSTEM_AUTHOR,
      createdAt: updated,
      publishedBy: SYSTEM_AUTHOR,
      publishedAt: updated,
    });
  }

  async function createDraftOnce(
    slug: ContentSlug,
    texts: StaffContentDraftRequest,
    who: StaffCaller,
  ): Promise<StaffContentVersion> {
    return db.transaction(async (tx) => {
      // Drafts and publications of a page follow each other (the retry covers a page without rows).
      await lockContentPages(tx, slug);
      await ensureFirstVersion(tx, slug);
      const at = now();
      const row = await insertVersion(tx, {
        slug,
        version: (await maxVersion(tx, slug)) + 1,
        ...texts,
        createdBy: who.actor,
        createdAt: at,
      });
      await recordAudit(tx, {
        actor: who.actor,
        staffUserId: who.id,
        kind: 'change',
        action: 'content.draft',
        targetType: 'content',
        targetId: row.id,
        details: { slug, version: row.version },
        at,
      });
      return toVersion(row, (await findLiveVersion(tx, slug))?.id);
    });
  }

  return {
    /** The versions of a page, newest first; the live one marked. */
    async list(slug: ContentSlug): Promise<StaffContentVersionSummary[]> {
      let rows = await findVersionSummaries(db, slug);
      if (rows.length === 0) {
        await db.transaction((tx) => ensureFirstVersion(tx, slug));
        rows = await findVersionSummaries(db, slug);
      }
      const live = await findLiveVersion(db, slug);
      return rows.map((row) => toSummary(row, live?.id));
    },

    async get(slug: ContentSlug, id: string): Promise<StaffContentVersion> {
      const row = await findVersion(db, slug, id);
      if (!row) throw notFound(slug, id);
      return toVersion(row, (await findLiveVersion(db, slug))?.id);
    },

    /** A new draft, numbered after the last version. */
    async createDraft(
      slug: ContentSlug,
      texts: StaffContentDraftRequest,
      who: StaffCaller,
    ): Promise<StaffContentVersion> {
      try {
        return await createDraftOnce(slug, texts, who);
      } catch (error) {
        // Another draft took the number in the meantime: the next one is free now.
        if (uniqueViolationOf(error) !== CONTENT_VERSION_UNIQUE) throw error;
        return createDraftOnce(slug, texts, who);
      }
    },

    /** New texts for a draft; a published version is never edited (409). */
    async updateDraft(
      slug: ContentSlug,
      id: string,
      texts: StaffContentDraftRequest,
      who: StaffCaller,
    ): Promise<StaffContentVersion> {
      return db.transaction(async (tx) => {
        const existing = await findVersion(tx, slug, id, true);
        if (!existing) throw notFound(slug, id);
        const row = existing.publishedAt ? undefined : await updateDraftTexts(tx, id, texts);
        if (!row)
          throw new AppError('STAFF_ACTION_NOT_ALLOWED', {
            detail: `${slug} version ${existing.version} is published; write a new draft`,
          });
        await recordAudit(tx, {
          actor: who.actor,
          staffUserId: who.id,
          kind: 'change',
          action: 'content.edit',
          targetType: 'content',
          targetId: id,
          details: { slug, version: row.version },
          at: now(),
        });
        return toVersion(row, (await findLiveVersion(tx, slug))?.id);
      });
    },

    /**
     * Publishes a draft: its texts become the page the app shows (both languages), it becomes
     * the live version, and the entry `content.publish` is written — all in one transaction.
     */
    async publish(
      slug: ContentSlug,
      id: string,
      reason: string | undefined,
      who: StaffCaller,
    ): Promise<StaffContentVersion> {
      return db.transaction(async (tx) => {
        // One publication of a page at a time: the pages stay locked until the commit.
        await lockContentPages(tx, slug);
        const version = await findVersion(tx, slug, id, true);
        if (!version) throw notFound(slug, id);
        if (version.publishedAt)
          throw new AppError('STAFF_ACTION_NOT_ALLOWED', {
            detail: `${slug} version ${version.version} was published at ${version.publishedAt.toISOString()}`,
          });
        const previous = await findLiveVersion(tx, slug);
        // Later than the publication before it, so the live version is never in doubt.
        const at = new Date(
          Math.max(now().getTime(), (previous?.publishedAt?.getTime() ?? -Infinity) + 1),
        );
        await writeContentPages(
          tx,
          slug,
          [
            { locale: 'fo', title: version.titleFo, markdown: version.markdownFo },
            { locale: 'en', title: version.titleEn, markdown: version.markdownEn },
          ],
          at,
        );
        const published = await markPublished(tx, id, who.actor, at);
        if (!published) throw new Error(`content version ${id} was published meanwhile`);
        await recordAudit(tx, {
          actor: who.actor,
          staffUserId: who.id,
          kind: 'change',
          action: 'content.publish',
          targetType: 'content',
          targetId: id,
          reason: reason ?? null,
          details: { slug, version: published.version, replaced: previous?.version ?? null },
          at,
        });
        return toVersion(published, published.id);
      });
    },
  };
}

export type StaffContentService = ReturnType<typeof createStaffContentService>;
