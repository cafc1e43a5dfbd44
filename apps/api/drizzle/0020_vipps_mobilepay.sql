-- Vipps MobilePay (issue 42, docs/decisions/0081-vipps-mobilepay.md); hand-written to match src/db/schema.
ALTER TABLE "payments" DROP CONSTRAINT "payments_method";--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_method" CHECK ("payments"."method" in ('card', 'mobilepay', 'agreement'));--> statement-breakpoint
ALTER TABLE "payment_agreements" ADD COLUMN "provider" text;--> statement-breakpoint
UPDATE "payment_agreements" SET "provider" = 'test' WHERE "provider_reference" IS NOT NULL;--> statement-breakpoint
ALTER TABLE "test_provider_cards" ADD COLUMN "stopped_at" timestamp with time zone;
--> statement-breakpoint
CREATE TABLE "payment_webhook_registrations" (
	"provider" text NOT NULL,
	"id" text NOT NULL,
	"url" text NOT NULL,
	"events" jsonb NOT NULL,
	"secret" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payment_webhook_registrations_provider_id_pk" PRIMARY KEY("provider","id")
);
