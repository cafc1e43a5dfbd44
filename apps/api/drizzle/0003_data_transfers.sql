CREATE TABLE "data_transfers" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"kind" text NOT NULL,
	"status" text NOT NULL,
	"requester_line_id" uuid NOT NULL,
	"requester_user_id" uuid NOT NULL,
	"recipient_line_id" uuid NOT NULL,
	"recipient_user_id" uuid NOT NULL,
	"data_mb" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"decided_at" timestamp with time zone,
	"idempotency_key" text,
	CONSTRAINT "data_transfers_data_mb" CHECK ("data_transfers"."data_mb" > 0),
	CONSTRAINT "data_transfers_kind" CHECK ("data_transfers"."kind" in ('gift', 'request')),
	CONSTRAINT "data_transfers_status" CHECK ("data_transfers"."status" in ('pending', 'approved', 'declined')),
	CONSTRAINT "data_transfers_two_lines" CHECK ("data_transfers"."requester_line_id" <> "data_transfers"."recipient_line_id")
);
--> statement-breakpoint
CREATE TABLE "notifications" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"type" text NOT NULL,
	"params" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"link" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"read_at" timestamp with time zone,
	CONSTRAINT "notifications_type" CHECK ("notifications"."type" in ('data_request', 'data_received', 'order_completed', 'payment', 'package', 'subscription', 'system'))
);
--> statement-breakpoint
CREATE TABLE "user_versions" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"version" bigint DEFAULT 1 NOT NULL
);
--> statement-breakpoint
ALTER TABLE "data_transfers" ADD CONSTRAINT "data_transfers_requester_line_id_phone_lines_id_fk" FOREIGN KEY ("requester_line_id") REFERENCES "public"."phone_lines"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "data_transfers" ADD CONSTRAINT "data_transfers_requester_user_id_users_id_fk" FOREIGN KEY ("requester_user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "data_transfers" ADD CONSTRAINT "data_transfers_recipient_line_id_phone_lines_id_fk" FOREIGN KEY ("recipient_line_id") REFERENCES "public"."phone_lines"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "data_transfers" ADD CONSTRAINT "data_transfers_recipient_user_id_users_id_fk" FOREIGN KEY ("recipient_user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_versions" ADD CONSTRAINT "user_versions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "data_transfers_idempotency_uq" ON "data_transfers" USING btree ("requester_user_id","idempotency_key") WHERE "data_transfers"."idempotency_key" is not null;--> statement-breakpoint
CREATE INDEX "data_transfers_recipient_pending_idx" ON "data_transfers" USING btree ("recipient_user_id","created_at") WHERE "data_transfers"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "data_transfers_requester_user_id_idx" ON "data_transfers" USING btree ("requester_user_id");--> statement-breakpoint
CREATE INDEX "notifications_user_id_created_at_idx" ON "notifications" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "notifications_unread_idx" ON "notifications" USING btree ("user_id") WHERE "notifications"."read_at" is null;