CREATE TABLE "data_exports" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"state" text NOT NULL,
	"progress" integer DEFAULT 0 NOT NULL,
	"locale" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"ready_at" timestamp with time zone,
	"expires_at" timestamp with time zone,
	"downloaded_at" timestamp with time zone,
	"file" "bytea",
	"byte_size" integer,
	CONSTRAINT "data_exports_state" CHECK ("data_exports"."state" in ('queued', 'preparing', 'ready', 'failed')),
	CONSTRAINT "data_exports_progress" CHECK ("data_exports"."progress" between 0 and 100)
);
--> statement-breakpoint
CREATE TABLE "partner_calls" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"partner_id" uuid NOT NULL,
	"operation" text NOT NULL,
	"msisdn" text,
	"status" integer NOT NULL,
	"result" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "partner_clients" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"client_id" text NOT NULL,
	"name" text NOT NULL,
	"secret_hash" text NOT NULL,
	"scopes" text[] NOT NULL,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"disabled_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "partner_tokens" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"partner_id" uuid NOT NULL,
	"token_hash" text NOT NULL,
	"scopes" text[] NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "port_out_codes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"line_id" uuid NOT NULL,
	"user_id" uuid,
	"code_hash" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"revoked_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "port_out_requests" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"msisdn" text NOT NULL,
	"line_id" uuid,
	"provider" text NOT NULL,
	"outcome" text NOT NULL,
	"reason" text,
	"order_id" uuid,
	"port_date" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "port_out_requests_outcome" CHECK ("port_out_requests"."outcome" in ('accepted', 'refused'))
);
--> statement-breakpoint
ALTER TABLE "actions" DROP CONSTRAINT "actions_type";--> statement-breakpoint
ALTER TABLE "notifications" DROP CONSTRAINT "notifications_type";--> statement-breakpoint
ALTER TABLE "orders" DROP CONSTRAINT "orders_lifecycle_action";--> statement-breakpoint
-- Lines in service before the lock existed stay unlocked (their customers turn it on); every new line starts locked.
ALTER TABLE "phone_lines" ADD COLUMN "number_locked" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "phone_lines" ALTER COLUMN "number_locked" SET DEFAULT true;--> statement-breakpoint
ALTER TABLE "phone_lines" ADD COLUMN "unlock_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "phone_lines" ADD COLUMN "unlock_requested_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "phone_lines" ADD COLUMN "sim_changed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "data_exports" ADD CONSTRAINT "data_exports_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "partner_calls" ADD CONSTRAINT "partner_calls_partner_id_partner_clients_id_fk" FOREIGN KEY ("partner_id") REFERENCES "public"."partner_clients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "partner_tokens" ADD CONSTRAINT "partner_tokens_partner_id_partner_clients_id_fk" FOREIGN KEY ("partner_id") REFERENCES "public"."partner_clients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "port_out_codes" ADD CONSTRAINT "port_out_codes_line_id_phone_lines_id_fk" FOREIGN KEY ("line_id") REFERENCES "public"."phone_lines"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "port_out_codes" ADD CONSTRAINT "port_out_codes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "port_out_requests" ADD CONSTRAINT "port_out_requests_line_id_phone_lines_id_fk" FOREIGN KEY ("line_id") REFERENCES "public"."phone_lines"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "data_exports_user_id_idx" ON "data_exports" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "data_exports_queued_idx" ON "data_exports" USING btree ("created_at") WHERE "data_exports"."state" in ('queued', 'preparing');--> statement-breakpoint
CREATE UNIQUE INDEX "data_exports_one_pending_uq" ON "data_exports" USING btree ("user_id") WHERE "data_exports"."state" in ('queued', 'preparing');--> statement-breakpoint
CREATE INDEX "partner_calls_partner_id_created_at_idx" ON "partner_calls" USING btree ("partner_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "partner_clients_client_id_uq" ON "partner_clients" USING btree ("client_id");--> statement-breakpoint
CREATE UNIQUE INDEX "partner_tokens_token_hash_uq" ON "partner_tokens" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "partner_tokens_partner_id_idx" ON "partner_tokens" USING btree ("partner_id");--> statement-breakpoint
CREATE UNIQUE INDEX "port_out_codes_code_hash_uq" ON "port_out_codes" USING btree ("code_hash");--> statement-breakpoint
CREATE INDEX "port_out_codes_line_id_idx" ON "port_out_codes" USING btree ("line_id");--> statement-breakpoint
CREATE INDEX "port_out_requests_msisdn_idx" ON "port_out_requests" USING btree ("msisdn","created_at");--> statement-breakpoint
CREATE INDEX "phone_lines_unlock_at_idx" ON "phone_lines" USING btree ("unlock_at") WHERE "phone_lines"."unlock_at" is not null;--> statement-breakpoint
ALTER TABLE "actions" ADD CONSTRAINT "actions_type" CHECK ("actions"."type" in ('subscription_created', 'subscription_cancelled', 'plan_changed', 'member_added', 'member_moved', 'member_removed', 'package_purchased', 'eu_package_changed', 'data_given', 'data_received', 'data_requested', 'top_up', 'payment', 'sim_changed', 'profile_updated', 'signed_in_new_device', 'password_changed', 'pin_locked', 'number_locked', 'number_unlock_requested', 'number_unlock_cancelled', 'number_unlocked', 'port_out_code_created', 'port_out_refused', 'port_out_accepted', 'data_export'));--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_type" CHECK ("notifications"."type" in ('data_request', 'data_received', 'order_completed', 'payment', 'package', 'subscription', 'system', 'usage_alert', 'data_paused', 'data_resumed', 'package_request', 'package_request_declined', 'number_unlock_scheduled', 'number_unlocked', 'sim_changed', 'port_out', 'data_export_ready'));--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_lifecycle_action" CHECK ("orders"."lifecycle_action" is null or "orders"."lifecycle_action" in ('plan_upgrade', 'plan_downgrade', 'cancel_subscription', 'deactivate_plan', 'delete_number', 'move_to_own_account', 'move_to_family_account', 'hand_over', 'port_out'));--> statement-breakpoint
ALTER TABLE "phone_lines" ADD CONSTRAINT "phone_lines_unlock_only_when_locked" CHECK ("phone_lines"."unlock_at" is null or ("phone_lines"."number_locked" and "phone_lines"."unlock_requested_at" is not null));