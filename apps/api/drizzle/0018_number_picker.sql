-- issue 33 §1, the number picker (docs/decisions/0077-number-picker.md); hand-written, schema in src/db/schema/number-picker.ts and phone-lines.ts
CREATE TABLE "number_price_classes" (
	"number_class" text PRIMARY KEY NOT NULL,
	"price_oere" integer NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "number_price_classes_class" CHECK ("number_price_classes"."number_class" in ('solid', 'ladder', 'repeat', 'tail', 'pairs')),
	CONSTRAINT "number_price_classes_price" CHECK ("number_price_classes"."price_oere" >= 0)
);
--> statement-breakpoint
CREATE TABLE "number_fees" (
	"line_id" uuid PRIMARY KEY NOT NULL,
	"msisdn" text NOT NULL,
	"number_class" text NOT NULL,
	"price_oere" integer NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"charged_order_id" uuid,
	"charged_at" timestamp with time zone,
	CONSTRAINT "number_fees_price" CHECK ("number_fees"."price_oere" > 0)
);
--> statement-breakpoint
ALTER TABLE "number_fees" ADD CONSTRAINT "number_fees_line_id_phone_lines_id_fk" FOREIGN KEY ("line_id") REFERENCES "public"."phone_lines"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "number_fees" ADD CONSTRAINT "number_fees_charged_order_id_orders_id_fk" FOREIGN KEY ("charged_order_id") REFERENCES "public"."orders"("id") ON DELETE set null ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "number_reservations" ADD COLUMN "one_off_price_oere" integer;
--> statement-breakpoint
ALTER TABLE "number_reservations" ADD COLUMN "number_class" text;
