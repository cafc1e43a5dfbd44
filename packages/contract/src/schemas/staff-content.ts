import { z } from 'zod/mini';
import { contentSlug } from './content';
import { staffReason } from './staff';

/*
 * Terms and privacy as versions (issue 31 "Content", docs/decisions/0075-staff-console.md): each
 * version holds both languages. A `content` staff member writes a draft, edits it while it is a
 * draft, and publishes it: the version is copied into the pages the app reads
 * (`GET /api/content/:slug`) in the same transaction. A published version is never edited again;
 * a change is a new draft (the console prefills it from the latest version).
 */

export const CONTENT_TITLE_MAX_LENGTH = 200;
/** Per language; both languages of a version fit the API's 256 KiB body limit. */
export const CONTENT_MARKDOWN_MAX_LENGTH = 50_000;

/**
 * - `draft`: written, never published;
 * - `live`: the version the app shows now (the one published last);
 * - `previous`: published once, replaced by a later publication.
 */
export const CONTENT_VERSION_STATES = ['draft', 'live', 'previous'] as const;
export const contentVersionState = z.enum(CONTENT_VERSION_STATES);
export type ContentVersionState = z.infer<typeof contentVersionState>;

const at = z.iso.datetime({ offset: true });

/** A version in the list (without its texts). */
export const staffContentVersionSummary = z.object({
  id: z.uuid(),
  slug: contentSlug,
  version: z.int().check(z.positive()),
  titleFo: z.string(),
  titleEn: z.string(),
  state: contentVersionState,
  /** `staff:<email>`, or `system` for the first version taken from the pages as they were. */
  createdBy: z.string(),
  createdAt: at,
  publishedBy: z.nullable(z.string()),
  publishedAt: z.nullable(at),
});
export type StaffContentVersionSummary = z.infer<typeof staffContentVersionSummary>;

/** One version with both texts. */
export const staffContentVersion = z.extend(staffContentVersionSummary, {
  markdownFo: z.string(),
  markdownEn: z.string(),
});
export type StaffContentVersion = z.infer<typeof staffContentVersion>;

/** GET /api/staff/content/:slug/versions: newest first. */
export const staffContentVersionList = z.object({
  slug: contentSlug,
  items: z.array(staffContentVersionSummary),
});
export type StaffContentVersionList = z.infer<typeof staffContentVersionList>;

const title = z
  .string({ error: 'REQUIRED' })
  .check(z.trim(), z.minLength(1, 'REQUIRED'), z.maxLength(CONTENT_TITLE_MAX_LENGTH, 'TOO_LONG'));
/** Markdown keeps its own whitespace; only a text of nothing but blanks is refused. */
const markdown = z.string({ error: 'REQUIRED' }).check(
  z.maxLength(CONTENT_MARKDOWN_MAX_LENGTH, 'TOO_LONG'),
  z.refine((text) => text.trim().length > 0, 'REQUIRED'),
);

/** POST /api/staff/content/:slug/versions (a new draft) and PUT …/versions/:id (edit a draft). */
export const staffContentDraftRequest = z.object({
  titleFo: title,
  titleEn: title,
  markdownFo: markdown,
  markdownEn: markdown,
});
export type StaffContentDraftRequest = z.infer<typeof staffContentDraftRequest>;

/** POST /api/staff/content/:slug/versions/:id/publish; the reason is optional. */
export const staffContentPublishRequest = z.object({ reason: z.optional(staffReason) });
export type StaffContentPublishRequest = z.infer<typeof staffContentPublishRequest>;

export const staffContentSlugParams = z.object({ slug: contentSlug });
export const staffContentVersionParams = z.object({ slug: contentSlug, id: z.uuid() });
