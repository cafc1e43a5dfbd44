-- The staff console's payments list and provisioning queue, newest first and paged on
-- (created_at, id) with `before` (as the audit log): read backwards, each with and without its
-- filter (a payment's state; the queue's open orders, and its search by number).
CREATE INDEX "orders_created_at_id_idx" ON "orders" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "orders_open_created_at_id_idx" ON "orders" USING btree ("created_at","id") WHERE not "orders"."is_complete" and not "orders"."is_cancelled";--> statement-breakpoint
CREATE INDEX "orders_msisdn_created_at_idx" ON "orders" USING btree ("msisdn","created_at","id") WHERE "orders"."msisdn" is not null;--> statement-breakpoint
CREATE INDEX "payments_created_at_id_idx" ON "payments" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "payments_state_created_at_id_idx" ON "payments" USING btree ("state","created_at","id");