import { z } from 'zod/mini';

/** Terms and privacy texts, markdown in the requested language (GET /api/content/{slug}). */
export const contentSlug = z.enum(['terms', 'privacy']);
export type ContentSlug = z.infer<typeof contentSlug>;

export const contentResponse = z.object({
  slug: contentSlug,
  locale: z.enum(['fo', 'en']),
  title: z.string(),
  markdown: z.string(),
  updatedAt: z.iso.datetime({ offset: true }),
});
export type ContentResponse = z.infer<typeof contentResponse>;
