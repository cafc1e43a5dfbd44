CREATE TABLE "package_requests" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"line_id" uuid NOT NULL,
	"package_id" text NOT NULL,
	"requester_user_id" uuid NOT NULL,
	"approver_user_id" uuid NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"decided_at" timestamp with time zone,
	"idempotency_key" text,
	CONSTRAINT "package_requests_status" CHECK ("package_requests"."status" in ('pending', 'approved', 'declined', 'withdrawn')),
	CONSTRAINT "package_requests_decided" CHECK (("package_requests"."status" = 'pending') = ("package_requests"."decided_at" is null))
);
--> statement-breakpoint
ALTER TABLE "notifications" DROP CONSTRAINT "notifications_type";--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "package_request_id" uuid;--> statement-breakpoint
ALTER TABLE "phone_lines" ADD COLUMN "data_paused_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "phone_lines" ADD COLUMN "purchase_approval" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "package_requests" ADD CONSTRAINT "package_requests_line_id_phone_lines_id_fk" FOREIGN KEY ("line_id") REFERENCES "public"."phone_lines"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "package_requests" ADD CONSTRAINT "package_requests_package_id_extra_packages_id_fk" FOREIGN KEY ("package_id") REFERENCES "public"."extra_packages"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "package_requests" ADD CONSTRAINT "package_requests_requester_user_id_users_id_fk" FOREIGN KEY ("requester_user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "package_requests" ADD CONSTRAINT "package_requests_approver_user_id_users_id_fk" FOREIGN KEY ("approver_user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "package_requests_idempotency_uq" ON "package_requests" USING btree ("requester_user_id","idempotency_key") WHERE "package_requests"."idempotency_key" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "package_requests_one_pending_uq" ON "package_requests" USING btree ("line_id","package_id") WHERE "package_requests"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "package_requests_approver_pending_idx" ON "package_requests" USING btree ("approver_user_id","created_at") WHERE "package_requests"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "package_requests_requester_pending_idx" ON "package_requests" USING btree ("requester_user_id","created_at") WHERE "package_requests"."status" = 'pending';--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_package_request_id_package_requests_id_fk" FOREIGN KEY ("package_request_id") REFERENCES "public"."package_requests"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "orders_one_per_package_request_uq" ON "orders" USING btree ("package_request_id") WHERE "orders"."package_request_id" is not null and "orders"."payment_status" in ('pending', 'paid') and not "orders"."is_cancelled";--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_type" CHECK ("notifications"."type" in ('data_request', 'data_received', 'order_completed', 'payment', 'package', 'subscription', 'system', 'usage_alert', 'data_paused', 'data_resumed', 'package_request', 'package_request_declined'));