import { sql } from 'drizzle-orm';
import { check, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';

/** Terms and privacy texts as markdown, one row per page and language (SPEC §2 terms/privacy). */
export const contentPages = pgTable(
  'content_pages',
  {
    slug: text('slug', { enum: ['terms', 'privacy'] }).notNull(),
    locale: text('locale', { enum: ['fo', 'en'] }).notNull(),
    title: text('title').notNull(),
    markdown: text('markdown').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.slug, t.locale] }),
    check('content_pages_locale', sql`${t.locale} in ('fo', 'en')`),
  ],
);

export type ContentPageRow = typeof contentPages.$inferSelect;
export type NewContentPageRow = typeof contentPages.$inferInsert;
