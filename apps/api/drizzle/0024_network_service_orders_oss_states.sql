ALTER TABLE "network_service_orders" DROP CONSTRAINT "network_service_orders_state";--> statement-breakpoint
ALTER TABLE "network_service_orders" ADD COLUMN "service_id" text;--> statement-breakpoint
CREATE INDEX "network_service_orders_msisdn_idx" ON "network_service_orders" USING btree ("msisdn");