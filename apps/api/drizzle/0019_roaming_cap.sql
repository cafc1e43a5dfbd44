-- Roaming spend cap (issue 33 §2, docs/decisions/0078-roaming-spend-cap.md); hand-written to match src/db/schema.
ALTER TABLE "phone_lines" ADD COLUMN "roaming_cap_oere" integer;--> statement-breakpoint
ALTER TABLE "phone_lines" ADD COLUMN "roaming_cap_off" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "phone_lines" ADD CONSTRAINT "phone_lines_roaming_cap" CHECK ("phone_lines"."roaming_cap_oere" is null or "phone_lines"."roaming_cap_oere" >= 0);--> statement-breakpoint
ALTER TABLE "line_balances" ADD COLUMN "roaming_charged_oere" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "line_balances" ADD COLUMN "roaming_charged_mb" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "line_balances" ADD COLUMN "roaming_written_off_mb" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "line_balances" ADD COLUMN "roaming_stopped_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "line_balances" ADD CONSTRAINT "line_balances_roaming" CHECK ("line_balances"."roaming_charged_oere" >= 0 and "line_balances"."roaming_charged_mb" >= 0 and "line_balances"."roaming_written_off_mb" >= 0);--> statement-breakpoint
ALTER TABLE "usage_records" ADD COLUMN "charged_mb" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "usage_records" ADD COLUMN "charge_oere" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "usage_records" ADD COLUMN "written_off_mb" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "usage_records" ADD CONSTRAINT "usage_records_roaming" CHECK ("usage_records"."charged_mb" >= 0 and "usage_records"."charge_oere" >= 0 and "usage_records"."written_off_mb" >= 0 and "usage_records"."charged_mb" + "usage_records"."written_off_mb" <= "usage_records"."used_mb");--> statement-breakpoint
ALTER TABLE "usage_daily" ADD COLUMN "roaming_charged_oere" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "usage_daily" DROP CONSTRAINT "usage_daily_amounts";--> statement-breakpoint
ALTER TABLE "usage_daily" ADD CONSTRAINT "usage_daily_amounts" CHECK ("usage_daily"."domestic_mb" >= 0 and "usage_daily"."eu_mb" >= 0 and "usage_daily"."roaming_charged_oere" >= 0);--> statement-breakpoint
CREATE TABLE "roaming_cap_alerts" (
	"line_id" uuid NOT NULL,
	"month" text NOT NULL,
	"cap_oere" integer NOT NULL,
	"threshold" integer NOT NULL,
	"raised_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "roaming_cap_alerts_line_id_month_cap_oere_threshold_pk" PRIMARY KEY("line_id","month","cap_oere","threshold"),
	CONSTRAINT "roaming_cap_alerts_month" CHECK ("roaming_cap_alerts"."month" ~ '^[0-9]{4}-(0[1-9]|1[0-2])$'),
	CONSTRAINT "roaming_cap_alerts_threshold" CHECK ("roaming_cap_alerts"."threshold" in (80, 100))
);
--> statement-breakpoint
ALTER TABLE "roaming_cap_alerts" ADD CONSTRAINT "roaming_cap_alerts_line_id_phone_lines_id_fk" FOREIGN KEY ("line_id") REFERENCES "public"."phone_lines"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notifications" DROP CONSTRAINT "notifications_type";--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_type" CHECK ("notifications"."type" in ('data_request', 'data_received', 'order_completed', 'payment', 'package', 'subscription', 'system', 'usage_alert', 'data_paused', 'data_resumed', 'package_request', 'package_request_declined', 'number_unlock_scheduled', 'number_unlocked', 'sim_changed', 'port_out', 'data_export_ready', 'roaming_cap'));
--> statement-breakpoint
CREATE TABLE "roaming_charges" (
	"line_id" uuid NOT NULL,
	"month" text NOT NULL,
	"account_id" uuid,
	"msisdn" text NOT NULL,
	"charge_oere" integer NOT NULL,
	"charged_mb" integer NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"charged_order_id" uuid,
	"charged_at" timestamp with time zone,
	CONSTRAINT "roaming_charges_line_id_month_pk" PRIMARY KEY("line_id","month"),
	CONSTRAINT "roaming_charges_month" CHECK ("roaming_charges"."month" ~ '^[0-9]{4}-(0[1-9]|1[0-2])$'),
	CONSTRAINT "roaming_charges_amounts" CHECK ("roaming_charges"."charge_oere" > 0 and "roaming_charges"."charged_mb" >= 0)
);
--> statement-breakpoint
ALTER TABLE "roaming_charges" ADD CONSTRAINT "roaming_charges_line_id_phone_lines_id_fk" FOREIGN KEY ("line_id") REFERENCES "public"."phone_lines"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "roaming_charges" ADD CONSTRAINT "roaming_charges_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "roaming_charges" ADD CONSTRAINT "roaming_charges_charged_order_id_orders_id_fk" FOREIGN KEY ("charged_order_id") REFERENCES "public"."orders"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "roaming_charges_account_id_idx" ON "roaming_charges" USING btree ("account_id");
