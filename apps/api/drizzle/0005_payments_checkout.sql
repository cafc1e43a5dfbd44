ALTER TABLE "payments" ADD COLUMN "checkout_url" text;--> statement-breakpoint
ALTER TABLE "test_provider_payments" ADD COLUMN "description" text;--> statement-breakpoint
ALTER TABLE "test_provider_payments" ADD COLUMN "settle_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "test_provider_payments_settle_idx" ON "test_provider_payments" USING btree ("settle_at") WHERE "test_provider_payments"."settle_at" is not null;--> statement-breakpoint
CREATE INDEX "test_provider_webhooks_due_idx" ON "test_provider_webhooks" USING btree ("next_attempt_at") WHERE "test_provider_webhooks"."delivered_at" is null;