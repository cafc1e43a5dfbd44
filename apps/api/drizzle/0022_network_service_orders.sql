-- TMF641 network adapter (issue 43, docs/decisions/0082-network-tmf641.md); hand-written to match src/db/schema.
CREATE TABLE "network_service_orders" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"external_id" text NOT NULL,
	"tmf_id" text NOT NULL,
	"href" text,
	"kind" text NOT NULL,
	"msisdn" text NOT NULL,
	"order_id" uuid,
	"state" text NOT NULL,
	"characteristics" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"error_code" text,
	"error_reason" text,
	"event_time" timestamp with time zone,
	"heard_at" timestamp with time zone NOT NULL,
	"polled_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "network_service_orders_state" CHECK ("network_service_orders"."state" in ('acknowledged', 'rejected', 'pending', 'held', 'inProgress', 'cancelled', 'completed', 'failed', 'partial', 'assessingCancellation', 'pendingCancellation')),
	CONSTRAINT "network_service_orders_kind" CHECK ("network_service_orders"."kind" in ('activate', 'prepareEsim', 'issueSim', 'requestPort', 'setDataBarred', 'setRoamingDataBarred'))
);
--> statement-breakpoint
CREATE UNIQUE INDEX "network_service_orders_external_id_uq" ON "network_service_orders" USING btree ("external_id");--> statement-breakpoint
CREATE INDEX "network_service_orders_tmf_id_idx" ON "network_service_orders" USING btree ("tmf_id");--> statement-breakpoint
CREATE INDEX "network_service_orders_order_id_idx" ON "network_service_orders" USING btree ("order_id");--> statement-breakpoint
CREATE TABLE "network_hub_subscriptions" (
	"api_url" text NOT NULL,
	"callback" text NOT NULL,
	"hub_id" text NOT NULL,
	"query" text,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "network_hub_subscriptions_uq" ON "network_hub_subscriptions" USING btree ("api_url","callback");
--> statement-breakpoint
-- The demo TMF641 server's own store (issue 43, src/db/schema/tmf641-demo.ts; used in demo mode only).
CREATE TABLE "tmf641_demo_events" (
	"id" text PRIMARY KEY NOT NULL,
	"hub_id" text NOT NULL,
	"order_id" text NOT NULL,
	"event_type" text NOT NULL,
	"url" text NOT NULL,
	"body" text NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone NOT NULL,
	"delivered_at" timestamp with time zone,
	"last_error" text,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "tmf641_demo_hubs" (
	"id" text PRIMARY KEY NOT NULL,
	"callback" text NOT NULL,
	"query" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "tmf641_demo_orders" (
	"id" text PRIMARY KEY NOT NULL,
	"external_id" text,
	"state" text NOT NULL,
	"order" jsonb NOT NULL,
	"next_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "tmf641_demo_orders_state" CHECK ("tmf641_demo_orders"."state" in ('acknowledged', 'inProgress', 'completed', 'failed', 'partial'))
);
--> statement-breakpoint
ALTER TABLE "tmf641_demo_events" ADD CONSTRAINT "tmf641_demo_events_hub_id_tmf641_demo_hubs_id_fk" FOREIGN KEY ("hub_id") REFERENCES "public"."tmf641_demo_hubs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "tmf641_demo_events_due_idx" ON "tmf641_demo_events" USING btree ("next_attempt_at") WHERE "tmf641_demo_events"."delivered_at" is null;--> statement-breakpoint
CREATE INDEX "tmf641_demo_events_hub_idx" ON "tmf641_demo_events" USING btree ("hub_id");--> statement-breakpoint
CREATE UNIQUE INDEX "tmf641_demo_hubs_callback_query_uq" ON "tmf641_demo_hubs" USING btree ("callback","query");--> statement-breakpoint
CREATE UNIQUE INDEX "tmf641_demo_orders_external_id_uq" ON "tmf641_demo_orders" USING btree ("external_id") WHERE "tmf641_demo_orders"."external_id" is not null;--> statement-breakpoint
CREATE INDEX "tmf641_demo_orders_next_at_idx" ON "tmf641_demo_orders" USING btree ("next_at") WHERE "tmf641_demo_orders"."next_at" is not null;--> statement-breakpoint
CREATE INDEX "tmf641_demo_orders_created_at_idx" ON "tmf641_demo_orders" USING btree ("created_at");
