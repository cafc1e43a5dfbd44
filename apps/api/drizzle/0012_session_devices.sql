ALTER TABLE "actions" DROP CONSTRAINT "actions_type";--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "device_key" text;--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "device_name" text;--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "device_platform" text;--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "device_model" text;--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "device_os_version" text;--> statement-breakpoint
CREATE INDEX "sessions_user_id_device_key_idx" ON "sessions" USING btree ("user_id","device_key");--> statement-breakpoint
ALTER TABLE "actions" ADD CONSTRAINT "actions_type" CHECK ("actions"."type" in ('subscription_created', 'subscription_cancelled', 'plan_changed', 'member_added', 'member_moved', 'member_removed', 'package_purchased', 'eu_package_changed', 'data_given', 'data_received', 'data_requested', 'top_up', 'payment', 'sim_changed', 'profile_updated', 'signed_in_new_device', 'password_changed', 'pin_locked'));