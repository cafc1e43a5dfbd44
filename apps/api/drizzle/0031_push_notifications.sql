CREATE TABLE "notification_channels" (
	"user_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"channel" text NOT NULL,
	"on" boolean NOT NULL,
	CONSTRAINT "notification_channels_user_id_kind_channel_pk" PRIMARY KEY("user_id","kind","channel")
);
--> statement-breakpoint
CREATE TABLE "push_deliveries" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"notification_id" uuid NOT NULL,
	"device_id" uuid NOT NULL,
	"urgent" boolean DEFAULT false NOT NULL,
	"state" text DEFAULT 'queued' NOT NULL,
	"state_at" timestamp with time zone DEFAULT now() NOT NULL,
	"due_at" timestamp with time zone NOT NULL,
	"lease_until" timestamp with time zone,
	"attempts" integer DEFAULT 0 NOT NULL,
	"error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "push_deliveries_once" UNIQUE("notification_id","device_id"),
	CONSTRAINT "push_deliveries_state" CHECK ("push_deliveries"."state" in ('queued', 'sending', 'sent', 'unknown', 'failed'))
);
--> statement-breakpoint
CREATE TABLE "push_devices" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"session_id" uuid NOT NULL,
	"platform" text NOT NULL,
	"address" text NOT NULL,
	"p256dh" text,
	"auth" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "push_devices_session_id_unique" UNIQUE("session_id"),
	CONSTRAINT "push_devices_address_unique" UNIQUE("address"),
	CONSTRAINT "push_devices_platform" CHECK ("push_devices"."platform" in ('web', 'apns', 'fcm')),
	CONSTRAINT "push_devices_web_keys" CHECK (("push_devices"."platform" = 'web') = ("push_devices"."p256dh" is not null and "push_devices"."auth" is not null))
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "quiet_hours_on" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "quiet_from" smallint DEFAULT 1320 NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "quiet_to" smallint DEFAULT 480 NOT NULL;--> statement-breakpoint
ALTER TABLE "notification_channels" ADD CONSTRAINT "notification_channels_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "push_deliveries" ADD CONSTRAINT "push_deliveries_notification_id_notifications_id_fk" FOREIGN KEY ("notification_id") REFERENCES "public"."notifications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "push_deliveries" ADD CONSTRAINT "push_deliveries_device_id_push_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."push_devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "push_devices" ADD CONSTRAINT "push_devices_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "push_devices" ADD CONSTRAINT "push_devices_session_id_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "push_deliveries_due_idx" ON "push_deliveries" USING btree ("due_at") WHERE "push_deliveries"."state" = 'queued';--> statement-breakpoint
CREATE INDEX "push_deliveries_lease_idx" ON "push_deliveries" USING btree ("lease_until") WHERE "push_deliveries"."state" = 'sending';--> statement-breakpoint
CREATE INDEX "push_deliveries_device_id_idx" ON "push_deliveries" USING btree ("device_id");--> statement-breakpoint
CREATE INDEX "push_devices_user_id_idx" ON "push_devices" USING btree ("user_id");--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_quiet_hours" CHECK ("users"."quiet_from" between 0 and 1439 and "users"."quiet_to" between 0 and 1439 and "users"."quiet_from" <> "users"."quiet_to");