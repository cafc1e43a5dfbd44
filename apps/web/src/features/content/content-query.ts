import { queryOptions } from '@tanstack/react-query';
import type { Locale } from '@alda/contract/locale';
import { contentResponse, type ContentSlug } from '@alda/contract/schemas/content';
import { unwrap, type HttpClient } from '@/shared/api/http';

export const contentKeys = {
  all: ['content'] as const,
  page: (slug: ContentSlug, locale: Locale) => ['content', slug, locale] as const,
};

/** GET /content/{slug} in the current language (the key carries the locale, so a switch refetches). */
export function contentQuery(http: HttpClient, slug: ContentSlug, locale: Locale) {
  return queryOptions({
    queryKey: contentKeys.page(slug, locale),
    queryFn: async ({ signal }) =>
      unwrap(await http.get(`/content/${slug}`, contentResponse, { signal })),
    staleTime: 10 * 60_000,
  });
}
