CREATE SEQUENCE "public"."receipt_number_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1;--> statement-breakpoint
CREATE TABLE "payment_webhook_events" (
	"provider" text NOT NULL,
	"event_id" text NOT NULL,
	"payment_id" uuid,
	"type" text NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "payments" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"order_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"amount_oere" integer NOT NULL,
	"method" text NOT NULL,
	"state" text DEFAULT 'created' NOT NULL,
	"provider" text NOT NULL,
	"provider_payment_id" text,
	"card_brand" text,
	"card_last4" text,
	"card_expiry" text,
	"provider_agreement_ref" text,
	"failure_reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"fulfilled_at" timestamp with time zone,
	CONSTRAINT "payments_state" CHECK ("payments"."state" in ('created', 'pending', 'paid', 'failed', 'cancelled')),
	CONSTRAINT "payments_method" CHECK ("payments"."method" in ('card', 'agreement')),
	CONSTRAINT "payments_amount" CHECK ("payments"."amount_oere" >= 0),
	CONSTRAINT "payments_fulfilled_only_paid" CHECK ("payments"."fulfilled_at" is null or "payments"."state" = 'paid')
);
--> statement-breakpoint
CREATE TABLE "receipts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"number" text NOT NULL,
	"user_id" uuid NOT NULL,
	"order_id" uuid NOT NULL,
	"payment_id" uuid NOT NULL,
	"issued_at" timestamp with time zone DEFAULT now() NOT NULL,
	"lines" jsonb NOT NULL,
	"vat_rate" integer NOT NULL,
	"net_oere" integer NOT NULL,
	"vat_oere" integer NOT NULL,
	"gross_oere" integer NOT NULL,
	"customer_name" text NOT NULL,
	"customer_address" text,
	"customer_email" text,
	"card_brand" text,
	"card_last4" text,
	CONSTRAINT "receipts_totals" CHECK ("receipts"."net_oere" + "receipts"."vat_oere" = "receipts"."gross_oere")
);
--> statement-breakpoint
CREATE TABLE "test_provider_cards" (
	"id" text PRIMARY KEY NOT NULL,
	"brand" text NOT NULL,
	"last4" text NOT NULL,
	"expiry" text NOT NULL,
	"behaviour" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "test_provider_payments" (
	"id" text PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"merchant_reference" text NOT NULL,
	"amount_oere" integer NOT NULL,
	"state" text DEFAULT 'created' NOT NULL,
	"return_url" text,
	"card_id" text,
	"card_brand" text,
	"card_last4" text,
	"card_expiry" text,
	"failure_reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "test_provider_payments_amount" CHECK ("test_provider_payments"."amount_oere" >= 0),
	CONSTRAINT "test_provider_payments_state" CHECK ("test_provider_payments"."state" in ('created', 'processing', 'succeeded', 'failed'))
);
--> statement-breakpoint
CREATE TABLE "test_provider_webhooks" (
	"id" text PRIMARY KEY NOT NULL,
	"payment_id" text NOT NULL,
	"body" text NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"delivered_at" timestamp with time zone,
	"last_error" text
);
--> statement-breakpoint
ALTER TABLE "orders" DROP CONSTRAINT "orders_kind";--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "request_hash" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "package_id" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "billing_period" text;--> statement-breakpoint
ALTER TABLE "payment_webhook_events" ADD CONSTRAINT "payment_webhook_events_payment_id_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."payments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "receipts" ADD CONSTRAINT "receipts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "receipts" ADD CONSTRAINT "receipts_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "receipts" ADD CONSTRAINT "receipts_payment_id_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."payments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "payment_webhook_events_uq" ON "payment_webhook_events" USING btree ("provider","event_id");--> statement-breakpoint
CREATE UNIQUE INDEX "payments_order_id_uq" ON "payments" USING btree ("order_id");--> statement-breakpoint
CREATE UNIQUE INDEX "payments_provider_payment_id_uq" ON "payments" USING btree ("provider","provider_payment_id") WHERE "payments"."provider_payment_id" is not null;--> statement-breakpoint
CREATE INDEX "payments_user_id_idx" ON "payments" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "payments_pending_idx" ON "payments" USING btree ("updated_at") WHERE "payments"."state" in ('created', 'pending');--> statement-breakpoint
CREATE UNIQUE INDEX "receipts_number_uq" ON "receipts" USING btree ("number");--> statement-breakpoint
CREATE UNIQUE INDEX "receipts_payment_id_uq" ON "receipts" USING btree ("payment_id");--> statement-breakpoint
CREATE INDEX "receipts_user_id_issued_at_idx" ON "receipts" USING btree ("user_id","issued_at");--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_kind" CHECK ("orders"."kind" in ('new_subscription', 'add_member', 'transfer', 'plan_change', 'eu_package', 'extra_package', 'top_up', 'cancellation', 'payment_agreement', 'subscription_payment'));