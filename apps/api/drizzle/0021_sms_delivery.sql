-- SMS over SMPP 3.4 (issue 43, docs/decisions/0084-sms-smpp.md); hand-written to match src/db/schema.
-- outbox_messages becomes the SMPP adapter's queue. The rows of the outbox adapters (all rows
-- so far) keep the state 'kept': stored, never sent.
ALTER TABLE "outbox_messages" ADD COLUMN "state" text DEFAULT 'kept' NOT NULL;--> statement-breakpoint
ALTER TABLE "outbox_messages" ADD COLUMN "state_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
UPDATE "outbox_messages" SET "state_at" = "created_at";--> statement-breakpoint
ALTER TABLE "outbox_messages" ADD COLUMN "error" text;--> statement-breakpoint
ALTER TABLE "outbox_messages" ADD COLUMN "encoding" text;--> statement-breakpoint
ALTER TABLE "outbox_messages" ADD COLUMN "parts" smallint;--> statement-breakpoint
ALTER TABLE "outbox_messages" ADD COLUMN "smsc_ids" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "outbox_messages" ADD COLUMN "delivered_ids" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "outbox_messages" ADD COLUMN "attempts" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "outbox_messages" ADD COLUMN "next_attempt_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "outbox_messages" ADD COLUMN "deadline_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "outbox_messages" ADD CONSTRAINT "outbox_messages_state" CHECK ("outbox_messages"."state" in ('kept', 'queued', 'sent', 'delivered', 'failed'));--> statement-breakpoint
ALTER TABLE "outbox_messages" ADD CONSTRAINT "outbox_messages_encoding" CHECK ("outbox_messages"."encoding" is null or "outbox_messages"."encoding" in ('gsm7', 'ucs2'));--> statement-breakpoint
ALTER TABLE "outbox_messages" ADD CONSTRAINT "outbox_messages_queued_due" CHECK ("outbox_messages"."state" <> 'queued' or "outbox_messages"."next_attempt_at" is not null);--> statement-breakpoint
CREATE INDEX "outbox_messages_queue_idx" ON "outbox_messages" USING btree ("next_attempt_at") WHERE "outbox_messages"."state" = 'queued';--> statement-breakpoint
CREATE INDEX "outbox_messages_smsc_ids_idx" ON "outbox_messages" USING gin ("smsc_ids");
