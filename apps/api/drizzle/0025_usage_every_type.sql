-- Every usage type from the TMF635 feed (issue 61 §3, docs/decisions/0083-usage-tmf635.md): generated,
-- then quantity and unit filled from the data records received so far before they became NOT NULL.
ALTER TABLE "usage_records" DROP CONSTRAINT "usage_records_kind";--> statement-breakpoint
ALTER TABLE "usage_records" ALTER COLUMN "line_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "usage_records" ALTER COLUMN "msisdn" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "usage_records" ADD COLUMN "usage_type" text DEFAULT 'data' NOT NULL;--> statement-breakpoint
ALTER TABLE "usage_records" ADD COLUMN "quantity" integer;--> statement-breakpoint
ALTER TABLE "usage_records" ADD COLUMN "unit" text;--> statement-breakpoint
UPDATE "usage_records" SET "quantity" = "used_mb", "unit" = 'MB';--> statement-breakpoint
ALTER TABLE "usage_records" ALTER COLUMN "quantity" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "usage_records" ALTER COLUMN "unit" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "usage_records" ADD COLUMN "other_party" text;--> statement-breakpoint
ALTER TABLE "usage_records" ADD COLUMN "description" text;--> statement-breakpoint
ALTER TABLE "usage_records" ADD COLUMN "rated_oere" integer;--> statement-breakpoint
ALTER TABLE "usage_records" ADD CONSTRAINT "usage_records_type" CHECK ("usage_records"."usage_type" ~ '^[a-z0-9][a-z0-9 _./-]{0,31}$');--> statement-breakpoint
ALTER TABLE "usage_records" ADD CONSTRAINT "usage_records_quantity" CHECK ("usage_records"."quantity" >= 0 and "usage_records"."unit" in ('MB', 's', 'count') and ("usage_records"."unit" = 'MB') = ("usage_records"."usage_type" = 'data'));--> statement-breakpoint
ALTER TABLE "usage_records" ADD CONSTRAINT "usage_records_data" CHECK (("usage_records"."line_id" is null) = ("usage_records"."msisdn" is null) and case when "usage_records"."usage_type" = 'data' then "usage_records"."line_id" is not null and "usage_records"."quantity" = "usage_records"."used_mb" else "usage_records"."used_mb" = 0 and "usage_records"."charged_mb" = 0 and "usage_records"."charge_oere" = 0 and "usage_records"."written_off_mb" = 0 end);--> statement-breakpoint
ALTER TABLE "usage_records" ADD CONSTRAINT "usage_records_rated" CHECK ("usage_records"."rated_oere" is null or "usage_records"."rated_oere" >= 0);--> statement-breakpoint
ALTER TABLE "usage_records" ADD CONSTRAINT "usage_records_kind" CHECK ("usage_records"."kind" in ('domestic', 'eu') or ("usage_records"."kind" = 'world' and "usage_records"."usage_type" <> 'data'));