CREATE TABLE "usage_alerts" (
	"line_id" uuid NOT NULL,
	"month" text NOT NULL,
	"kind" text NOT NULL,
	"threshold" integer NOT NULL,
	"raised_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "usage_alerts_line_id_month_kind_threshold_pk" PRIMARY KEY("line_id","month","kind","threshold"),
	CONSTRAINT "usage_alerts_month" CHECK ("usage_alerts"."month" ~ '^[0-9]{4}-(0[1-9]|1[0-2])$'),
	CONSTRAINT "usage_alerts_kind" CHECK ("usage_alerts"."kind" in ('domestic', 'eu')),
	CONSTRAINT "usage_alerts_threshold" CHECK ("usage_alerts"."threshold" in (80, 100))
);
--> statement-breakpoint
CREATE TABLE "usage_daily" (
	"line_id" uuid NOT NULL,
	"day" date NOT NULL,
	"domestic_mb" integer DEFAULT 0 NOT NULL,
	"eu_mb" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "usage_daily_line_id_day_pk" PRIMARY KEY("line_id","day"),
	CONSTRAINT "usage_daily_amounts" CHECK ("usage_daily"."domestic_mb" >= 0 and "usage_daily"."eu_mb" >= 0)
);
--> statement-breakpoint
ALTER TABLE "notifications" DROP CONSTRAINT "notifications_type";--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "usage_alert_80" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "usage_alert_100" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "usage_alert_email" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "usage_alerts" ADD CONSTRAINT "usage_alerts_line_id_phone_lines_id_fk" FOREIGN KEY ("line_id") REFERENCES "public"."phone_lines"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "usage_daily" ADD CONSTRAINT "usage_daily_line_id_phone_lines_id_fk" FOREIGN KEY ("line_id") REFERENCES "public"."phone_lines"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_type" CHECK ("notifications"."type" in ('data_request', 'data_received', 'order_completed', 'payment', 'package', 'subscription', 'system', 'usage_alert'));