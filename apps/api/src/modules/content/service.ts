import { DEFAULT_LOCALE, type Locale } from '@alda/contract/locale';
import type { ContentResponse, ContentSlug } from '@alda/contract/schemas/content';
import type { Db } from '../../db/client';
import type { ContentPageRow } from '../../db/schema/content-pages';
import { AppError } from '../../errors';
import { findContentPages } from './repo';

export function toContentDto(row: ContentPageRow): ContentResponse {
  return {
    slug: row.slug,
    locale: row.locale,
    title: row.title,
    markdown: row.markdown,
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** Terms and privacy texts (SPEC §2 /menu/treytir, /menu/privatlivspolitikkur). */
export function createContentService(deps: { db: Db }) {
  return {
    /**
     * The page in the requested language. If that translation is missing, the Faroese original
     * (or whatever exists) is better than nothing; the answer's `locale` says which one it is.
     */
    async get(slug: ContentSlug, locale: Locale): Promise<ContentResponse> {
      const rows = await findContentPages(deps.db, slug);
      const row =
        rows.find((r) => r.locale === locale) ??
        rows.find((r) => r.locale === DEFAULT_LOCALE) ??
        rows[0];
      if (!row)
        throw new AppError('NOT_FOUND', { detail: `content page ${slug} is not in the database` });
      return toContentDto(row);
    },
  };
}

export type ContentService = ReturnType<typeof createContentService>;
