CREATE TABLE "line_handovers" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"line_id" uuid NOT NULL,
	"from_user_id" uuid NOT NULL,
	"to_user_id" uuid NOT NULL,
	"plan_id" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"decided_at" timestamp with time zone,
	"order_id" uuid,
	CONSTRAINT "line_handovers_status" CHECK ("line_handovers"."status" in ('pending', 'accepted', 'declined', 'withdrawn')),
	CONSTRAINT "line_handovers_decided" CHECK (("line_handovers"."status" = 'pending') = ("line_handovers"."decided_at" is null))
);
--> statement-breakpoint
ALTER TABLE "receipts" DROP CONSTRAINT "receipts_user_id_users_id_fk";
--> statement-breakpoint
ALTER TABLE "receipts" DROP CONSTRAINT "receipts_order_id_orders_id_fk";
--> statement-breakpoint
ALTER TABLE "receipts" DROP CONSTRAINT "receipts_payment_id_payments_id_fk";
--> statement-breakpoint
ALTER TABLE "receipts" ALTER COLUMN "user_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "receipts" ALTER COLUMN "order_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "receipts" ALTER COLUMN "payment_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "lifecycle_action" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "effective_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "previous_plan_id" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "target_account_id" uuid;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "recipient_user_id" uuid;--> statement-breakpoint
ALTER TABLE "phone_lines" ADD COLUMN "holder_firstname" text;--> statement-breakpoint
ALTER TABLE "phone_lines" ADD COLUMN "holder_lastname" text;--> statement-breakpoint
ALTER TABLE "line_handovers" ADD CONSTRAINT "line_handovers_line_id_phone_lines_id_fk" FOREIGN KEY ("line_id") REFERENCES "public"."phone_lines"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "line_handovers" ADD CONSTRAINT "line_handovers_from_user_id_users_id_fk" FOREIGN KEY ("from_user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "line_handovers" ADD CONSTRAINT "line_handovers_to_user_id_users_id_fk" FOREIGN KEY ("to_user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "line_handovers" ADD CONSTRAINT "line_handovers_plan_id_plans_id_fk" FOREIGN KEY ("plan_id") REFERENCES "public"."plans"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "line_handovers" ADD CONSTRAINT "line_handovers_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "line_handovers_one_pending_uq" ON "line_handovers" USING btree ("line_id") WHERE "line_handovers"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "line_handovers_to_user_idx" ON "line_handovers" USING btree ("to_user_id");--> statement-breakpoint
CREATE INDEX "line_handovers_from_user_idx" ON "line_handovers" USING btree ("from_user_id");--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_previous_plan_id_plans_id_fk" FOREIGN KEY ("previous_plan_id") REFERENCES "public"."plans"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_target_account_id_accounts_id_fk" FOREIGN KEY ("target_account_id") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_recipient_user_id_users_id_fk" FOREIGN KEY ("recipient_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "receipts" ADD CONSTRAINT "receipts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "receipts" ADD CONSTRAINT "receipts_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "receipts" ADD CONSTRAINT "receipts_payment_id_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."payments"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "orders_lifecycle_due_idx" ON "orders" USING btree ("effective_at") WHERE "orders"."lifecycle_action" is not null and not "orders"."is_complete" and not "orders"."is_cancelled";--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_lifecycle_action" CHECK ("orders"."lifecycle_action" is null or "orders"."lifecycle_action" in ('plan_upgrade', 'plan_downgrade', 'cancel_subscription', 'deactivate_plan', 'delete_number', 'move_to_own_account', 'move_to_family_account', 'hand_over'));