CREATE TABLE "bill_counter" (
	"id" smallint PRIMARY KEY DEFAULT 1 NOT NULL,
	"last_serial" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "bill_counter_one_row" CHECK ("bill_counter"."id" = 1)
);
--> statement-breakpoint
CREATE TABLE "bill_customers" (
	"customer_number" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "bill_customers_customer_number_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 100001 CACHE 1),
	"user_id" uuid,
	CONSTRAINT "bill_customers_user_id_unique" UNIQUE("user_id")
);
--> statement-breakpoint
CREATE TABLE "bill_items" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"bill_id" uuid NOT NULL,
	"position" integer NOT NULL,
	"msisdn" text,
	"line_id" uuid,
	"line_user_id" uuid,
	"holder" text,
	"kind" text NOT NULL,
	"description_fo" text NOT NULL,
	"description_en" text NOT NULL,
	"net_oere" integer NOT NULL,
	"vat_oere" integer NOT NULL,
	"gross_oere" integer NOT NULL,
	"order_id" uuid,
	"paid_at" timestamp with time zone,
	"payment_method" text,
	"card_brand" text,
	"card_last4" text,
	CONSTRAINT "bill_items_totals" CHECK ("bill_items"."net_oere" + "bill_items"."vat_oere" = "bill_items"."gross_oere"),
	CONSTRAINT "bill_items_paid" CHECK (("bill_items"."paid_at" is null) = ("bill_items"."payment_method" is null))
);
--> statement-breakpoint
CREATE TABLE "bill_periods" (
	"period" text PRIMARY KEY NOT NULL,
	"completed_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "bill_runs" (
	"user_id" uuid NOT NULL,
	"period" text NOT NULL,
	"bill_id" uuid,
	"ran_at" timestamp with time zone NOT NULL,
	CONSTRAINT "bill_runs_user_id_period_pk" PRIMARY KEY("user_id","period")
);
--> statement-breakpoint
CREATE TABLE "bills" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"serial" integer NOT NULL,
	"number" text NOT NULL,
	"payer_user_id" uuid,
	"customer_number" text NOT NULL,
	"period" text NOT NULL,
	"issued_at" timestamp with time zone NOT NULL,
	"due_date" date NOT NULL,
	"locale" text NOT NULL,
	"customer_name" text,
	"customer_address" text,
	"customer_email" text,
	"anonymised_at" timestamp with time zone,
	"vat_rate" integer NOT NULL,
	"net_oere" integer NOT NULL,
	"vat_oere" integer NOT NULL,
	"gross_oere" integer NOT NULL,
	"paid_oere" integer NOT NULL,
	"payment_reference" text NOT NULL,
	"notified_at" timestamp with time zone,
	"notifying_until" timestamp with time zone,
	CONSTRAINT "bills_totals" CHECK ("bills"."net_oere" + "bills"."vat_oere" = "bills"."gross_oere"),
	CONSTRAINT "bills_paid" CHECK ("bills"."paid_oere" >= 0 and "bills"."paid_oere" <= "bills"."gross_oere"),
	CONSTRAINT "bills_period" CHECK ("bills"."period" ~ '^[0-9]{4}-(0[1-9]|1[0-2])$'),
	CONSTRAINT "bills_anonymised" CHECK ("bills"."anonymised_at" is null or ("bills"."customer_name" is null and "bills"."customer_address" is null and "bills"."customer_email" is null))
);
--> statement-breakpoint
ALTER TABLE "bill_customers" ADD CONSTRAINT "bill_customers_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bill_items" ADD CONSTRAINT "bill_items_bill_id_bills_id_fk" FOREIGN KEY ("bill_id") REFERENCES "public"."bills"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bill_items" ADD CONSTRAINT "bill_items_line_id_phone_lines_id_fk" FOREIGN KEY ("line_id") REFERENCES "public"."phone_lines"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bill_items" ADD CONSTRAINT "bill_items_line_user_id_users_id_fk" FOREIGN KEY ("line_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bill_items" ADD CONSTRAINT "bill_items_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bill_runs" ADD CONSTRAINT "bill_runs_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bill_runs" ADD CONSTRAINT "bill_runs_bill_id_bills_id_fk" FOREIGN KEY ("bill_id") REFERENCES "public"."bills"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bills" ADD CONSTRAINT "bills_payer_user_id_users_id_fk" FOREIGN KEY ("payer_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "bill_items_bill_position_uq" ON "bill_items" USING btree ("bill_id","position");--> statement-breakpoint
CREATE INDEX "bill_items_order_id_idx" ON "bill_items" USING btree ("order_id") WHERE "bill_items"."order_id" is not null;--> statement-breakpoint
CREATE INDEX "bill_items_line_id_idx" ON "bill_items" USING btree ("line_id") WHERE "bill_items"."line_id" is not null;--> statement-breakpoint
CREATE INDEX "bill_items_line_user_id_idx" ON "bill_items" USING btree ("line_user_id") WHERE "bill_items"."line_user_id" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "bills_serial_uq" ON "bills" USING btree ("serial");--> statement-breakpoint
CREATE UNIQUE INDEX "bills_number_uq" ON "bills" USING btree ("number");--> statement-breakpoint
CREATE UNIQUE INDEX "bills_payer_period_uq" ON "bills" USING btree ("payer_user_id","period");--> statement-breakpoint
CREATE INDEX "bills_issued_at_idx" ON "bills" USING btree ("issued_at","id");--> statement-breakpoint
CREATE INDEX "bills_unnotified_idx" ON "bills" USING btree ("issued_at") WHERE "bills"."notified_at" is null;--> statement-breakpoint
INSERT INTO "bill_counter" ("id", "last_serial") VALUES (1, 0);
