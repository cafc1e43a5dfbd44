CREATE TABLE "payment_refunds" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"payment_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"provider_payment_id" text NOT NULL,
	"amount_oere" integer NOT NULL,
	"state" text DEFAULT 'pending' NOT NULL,
	"provider_refund_id" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"refunded_at" timestamp with time zone,
	CONSTRAINT "payment_refunds_state" CHECK ("payment_refunds"."state" in ('pending', 'refunded', 'failed')),
	CONSTRAINT "payment_refunds_amount" CHECK ("payment_refunds"."amount_oere" > 0),
	CONSTRAINT "payment_refunds_refunded_flag" CHECK (("payment_refunds"."state" = 'refunded') = ("payment_refunds"."refunded_at" is not null))
);
--> statement-breakpoint
ALTER TABLE "test_provider_payments" ADD COLUMN "refund_id" text;--> statement-breakpoint
ALTER TABLE "test_provider_payments" ADD COLUMN "refund_key" text;--> statement-breakpoint
ALTER TABLE "test_provider_payments" ADD COLUMN "refunded_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "payment_refunds" ADD CONSTRAINT "payment_refunds_payment_id_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."payments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_refunds" ADD CONSTRAINT "payment_refunds_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "payment_refunds_payment_id_uq" ON "payment_refunds" USING btree ("payment_id");--> statement-breakpoint
CREATE INDEX "payment_refunds_due_idx" ON "payment_refunds" USING btree ("next_attempt_at") WHERE "payment_refunds"."state" = 'pending';