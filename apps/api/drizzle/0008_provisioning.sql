CREATE TABLE "operator_actions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"operator" text NOT NULL,
	"verb" text NOT NULL,
	"target" text,
	"reason" text,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "provisioning_steps" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"order_id" uuid NOT NULL,
	"step" text NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"reason_code" text,
	"reason_text" text,
	"actor" text NOT NULL,
	CONSTRAINT "provisioning_steps_step" CHECK ("provisioning_steps"."step" in ('received', 'esim_ready', 'sim_sent', 'sim_ready_for_pickup', 'port_requested', 'port_date_set', 'port_rejected', 'number_moved', 'active', 'failed'))
);
--> statement-breakpoint
CREATE TABLE "sim_pickup_locations" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"address" text NOT NULL,
	"post_code" text NOT NULL,
	"city" text NOT NULL,
	"opening_hours_fo" text[] NOT NULL,
	"opening_hours_en" text[] NOT NULL,
	"sort_order" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
ALTER TABLE "orders" DROP CONSTRAINT "orders_kind";--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "sim_delivery" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "sim_pickup_location_id" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "shipping_address" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "shipping_post_code" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "shipping_city" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "simcard_number" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "esim_matching_id" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "porting_simcard_number" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "is_porting" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "eu_package" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "provisioning_waiting_for" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "provisioning_next_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "port_date" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "phone_lines" ADD COLUMN "iccid" text;--> statement-breakpoint
ALTER TABLE "phone_lines" ADD COLUMN "sim_pin" text;--> statement-breakpoint
ALTER TABLE "phone_lines" ADD COLUMN "sim_puk" text;--> statement-breakpoint
ALTER TABLE "phone_lines" ADD COLUMN "esim_matching_id" text;--> statement-breakpoint
ALTER TABLE "phone_lines" ADD COLUMN "esim_installed" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "phone_lines" ADD COLUMN "activated_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "phone_lines" ADD COLUMN "phone_book_visible" boolean;--> statement-breakpoint
ALTER TABLE "provisioning_steps" ADD CONSTRAINT "provisioning_steps_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "operator_actions_at_idx" ON "operator_actions" USING btree ("at");--> statement-breakpoint
CREATE INDEX "provisioning_steps_order_id_idx" ON "provisioning_steps" USING btree ("order_id","at");--> statement-breakpoint
CREATE INDEX "orders_provisioning_due_idx" ON "orders" USING btree ("provisioning_next_at") WHERE "orders"."provisioning_next_at" is not null;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_kind" CHECK ("orders"."kind" in ('new_subscription', 'add_member', 'transfer', 'plan_change', 'eu_package', 'extra_package', 'top_up', 'cancellation', 'payment_agreement', 'subscription_payment', 'sim_change'));