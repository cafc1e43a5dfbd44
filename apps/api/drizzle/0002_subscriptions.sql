CREATE TABLE "accounts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"owner_user_id" uuid NOT NULL,
	"type" text NOT NULL,
	"plan_id" text,
	"status" text NOT NULL,
	"eu_package" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"status_changed_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "accounts_type" CHECK ("accounts"."type" in ('individual_plan', 'family_plan', 'prepaid')),
	CONSTRAINT "accounts_status" CHECK ("accounts"."status" in ('active', 'processing', 'cancelled'))
);
--> statement-breakpoint
CREATE TABLE "actions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"line_id" uuid,
	"actor_user_id" uuid,
	"type" text NOT NULL,
	"payload" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"data_mb" integer,
	"amount_oere" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "actions_data_mb" CHECK ("actions"."data_mb" >= 0),
	CONSTRAINT "actions_type" CHECK ("actions"."type" in ('subscription_created', 'subscription_cancelled', 'plan_changed', 'member_added', 'member_moved', 'member_removed', 'package_purchased', 'eu_package_changed', 'data_given', 'data_received', 'data_requested', 'top_up', 'payment', 'sim_changed', 'profile_updated'))
);
--> statement-breakpoint
CREATE TABLE "payment_agreements" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"status" text NOT NULL,
	"card_brand" text,
	"card_last4" text,
	"card_expiry" text,
	"provider_reference" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payment_agreements_status" CHECK ("payment_agreements"."status" in ('pending', 'active', 'expired', 'cancelled')),
	CONSTRAINT "payment_agreements_last4" CHECK ("payment_agreements"."card_last4" ~ '^[0-9]{4}$'),
	CONSTRAINT "payment_agreements_expiry" CHECK ("payment_agreements"."card_expiry" ~ '^(0[1-9]|1[0-2])/[0-9]{2}$')
);
--> statement-breakpoint
CREATE TABLE "given_data_counters" (
	"line_id" uuid NOT NULL,
	"month" text NOT NULL,
	"given_mb" integer DEFAULT 0 NOT NULL,
	"max_mb" integer NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "given_data_counters_line_id_month_pk" PRIMARY KEY("line_id","month"),
	CONSTRAINT "given_data_counters_month" CHECK ("given_data_counters"."month" ~ '^[0-9]{4}-(0[1-9]|1[0-2])$'),
	CONSTRAINT "given_data_counters_amounts" CHECK ("given_data_counters"."given_mb" >= 0 and "given_data_counters"."max_mb" >= 0)
);
--> statement-breakpoint
CREATE TABLE "line_balances" (
	"line_id" uuid PRIMARY KEY NOT NULL,
	"period_start" timestamp with time zone NOT NULL,
	"domestic_total_mb" integer NOT NULL,
	"domestic_remaining_mb" integer NOT NULL,
	"domestic_used_mb" integer DEFAULT 0 NOT NULL,
	"eu_allowance_mb" integer,
	"eu_used_mb" integer DEFAULT 0 NOT NULL,
	"rollover_mb" integer DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "line_balances_domestic" CHECK ("line_balances"."domestic_remaining_mb" >= 0 and "line_balances"."domestic_total_mb" >= 0 and "line_balances"."domestic_used_mb" >= 0),
	CONSTRAINT "line_balances_rollover" CHECK ("line_balances"."rollover_mb" >= 0),
	CONSTRAINT "line_balances_eu" CHECK ("line_balances"."eu_used_mb" >= 0 and ("line_balances"."eu_allowance_mb" is null or "line_balances"."eu_used_mb" <= "line_balances"."eu_allowance_mb"))
);
--> statement-breakpoint
CREATE TABLE "prepaid_balances" (
	"line_id" uuid PRIMARY KEY NOT NULL,
	"balance_oere" integer NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "prepaid_balances_balance" CHECK ("prepaid_balances"."balance_oere" >= 0)
);
--> statement-breakpoint
CREATE TABLE "usage_records" (
	"record_id" text PRIMARY KEY NOT NULL,
	"line_id" uuid NOT NULL,
	"msisdn" text NOT NULL,
	"used_mb" integer NOT NULL,
	"kind" text NOT NULL,
	"occurred_at" timestamp with time zone NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "usage_records_used_mb" CHECK ("usage_records"."used_mb" >= 0),
	CONSTRAINT "usage_records_kind" CHECK ("usage_records"."kind" in ('domestic', 'eu'))
);
--> statement-breakpoint
CREATE TABLE "extra_packages" (
	"id" text PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"name_fo" text NOT NULL,
	"name_en" text NOT NULL,
	"data_mb" integer NOT NULL,
	"price_oere" integer NOT NULL,
	"sort_order" integer DEFAULT 0 NOT NULL,
	"is_offered" boolean DEFAULT true NOT NULL,
	CONSTRAINT "extra_packages_kind" CHECK ("extra_packages"."kind" in ('data', 'eu_data')),
	CONSTRAINT "extra_packages_data_mb" CHECK ("extra_packages"."data_mb" > 0),
	CONSTRAINT "extra_packages_price" CHECK ("extra_packages"."price_oere" >= 0)
);
--> statement-breakpoint
CREATE TABLE "plan_types" (
	"id" text PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"name_fo" text NOT NULL,
	"name_en" text NOT NULL,
	"sort_order" integer DEFAULT 0 NOT NULL,
	"is_offered" boolean DEFAULT true NOT NULL,
	CONSTRAINT "plan_types_kind" CHECK ("plan_types"."kind" in ('individual_plan', 'family_plan', 'prepaid'))
);
--> statement-breakpoint
CREATE TABLE "plans" (
	"id" text PRIMARY KEY NOT NULL,
	"plan_type_id" text NOT NULL,
	"name_fo" text NOT NULL,
	"name_en" text NOT NULL,
	"data_mb" integer NOT NULL,
	"monthly_price_oere" integer NOT NULL,
	"max_members" integer DEFAULT 1 NOT NULL,
	"member_prices" jsonb NOT NULL,
	"eu_package_price_oere" integer,
	"eu_package_data_mb" integer,
	"gift_max_mb" integer NOT NULL,
	"commitment_months" integer DEFAULT 0 NOT NULL,
	"sort_order" integer DEFAULT 0 NOT NULL,
	"is_offered" boolean DEFAULT true NOT NULL,
	CONSTRAINT "plans_data_mb" CHECK ("plans"."data_mb" >= 0),
	CONSTRAINT "plans_monthly_price" CHECK ("plans"."monthly_price_oere" >= 0),
	CONSTRAINT "plans_max_members" CHECK ("plans"."max_members" >= 1),
	CONSTRAINT "plans_gift_max_mb" CHECK ("plans"."gift_max_mb" >= 0),
	CONSTRAINT "plans_commitment_months" CHECK ("plans"."commitment_months" >= 0),
	CONSTRAINT "plans_member_prices" CHECK (jsonb_typeof("plans"."member_prices") = 'array' and jsonb_array_length("plans"."member_prices") >= 1 and ("plans"."member_prices" -> 0 ->> 'price')::integer = "plans"."monthly_price_oere"),
	CONSTRAINT "plans_eu_package" CHECK (("plans"."eu_package_price_oere" is null) = ("plans"."eu_package_data_mb" is null) and coalesce("plans"."eu_package_price_oere", 0) >= 0 and coalesce("plans"."eu_package_data_mb", 0) >= 0)
);
--> statement-breakpoint
CREATE TABLE "orders" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"account_id" uuid,
	"line_id" uuid,
	"kind" text NOT NULL,
	"is_main_subscription" boolean DEFAULT false NOT NULL,
	"plan_id" text,
	"msisdn" text,
	"member_firstname" text,
	"member_lastname" text,
	"price_oere" integer,
	"payment_status" text DEFAULT 'not_required' NOT NULL,
	"is_complete" boolean DEFAULT false NOT NULL,
	"is_cancelled" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"completed_at" timestamp with time zone,
	"cancelled_at" timestamp with time zone,
	"idempotency_key" text,
	CONSTRAINT "orders_msisdn_6_digits" CHECK ("orders"."msisdn" ~ '^[0-9]{6}$'),
	CONSTRAINT "orders_price" CHECK ("orders"."price_oere" >= 0),
	CONSTRAINT "orders_complete_flag" CHECK ("orders"."is_complete" = ("orders"."completed_at" is not null)),
	CONSTRAINT "orders_cancelled_flag" CHECK ("orders"."is_cancelled" = ("orders"."cancelled_at" is not null)),
	CONSTRAINT "orders_complete_or_cancelled" CHECK (not ("orders"."is_complete" and "orders"."is_cancelled")),
	CONSTRAINT "orders_kind" CHECK ("orders"."kind" in ('new_subscription', 'add_member', 'transfer', 'plan_change', 'eu_package', 'extra_package', 'top_up', 'cancellation')),
	CONSTRAINT "orders_payment_status" CHECK ("orders"."payment_status" in ('not_required', 'pending', 'paid', 'failed', 'cancelled'))
);
--> statement-breakpoint
ALTER TABLE "phone_lines" ADD COLUMN "account_id" uuid;--> statement-breakpoint
ALTER TABLE "phone_lines" ADD COLUMN "plan_id" text;--> statement-breakpoint
ALTER TABLE "phone_lines" ADD COLUMN "sim_type" text DEFAULT 'physical' NOT NULL;--> statement-breakpoint
ALTER TABLE "phone_lines" ADD COLUMN "is_prepaid" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "phone_lines" ADD COLUMN "expires_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "accounts" ADD CONSTRAINT "accounts_owner_user_id_users_id_fk" FOREIGN KEY ("owner_user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "accounts" ADD CONSTRAINT "accounts_plan_id_plans_id_fk" FOREIGN KEY ("plan_id") REFERENCES "public"."plans"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "actions" ADD CONSTRAINT "actions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "actions" ADD CONSTRAINT "actions_line_id_phone_lines_id_fk" FOREIGN KEY ("line_id") REFERENCES "public"."phone_lines"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "actions" ADD CONSTRAINT "actions_actor_user_id_users_id_fk" FOREIGN KEY ("actor_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_agreements" ADD CONSTRAINT "payment_agreements_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "given_data_counters" ADD CONSTRAINT "given_data_counters_line_id_phone_lines_id_fk" FOREIGN KEY ("line_id") REFERENCES "public"."phone_lines"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "line_balances" ADD CONSTRAINT "line_balances_line_id_phone_lines_id_fk" FOREIGN KEY ("line_id") REFERENCES "public"."phone_lines"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "prepaid_balances" ADD CONSTRAINT "prepaid_balances_line_id_phone_lines_id_fk" FOREIGN KEY ("line_id") REFERENCES "public"."phone_lines"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "usage_records" ADD CONSTRAINT "usage_records_line_id_phone_lines_id_fk" FOREIGN KEY ("line_id") REFERENCES "public"."phone_lines"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "plans" ADD CONSTRAINT "plans_plan_type_id_plan_types_id_fk" FOREIGN KEY ("plan_type_id") REFERENCES "public"."plan_types"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_line_id_phone_lines_id_fk" FOREIGN KEY ("line_id") REFERENCES "public"."phone_lines"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_plan_id_plans_id_fk" FOREIGN KEY ("plan_id") REFERENCES "public"."plans"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "accounts_owner_user_id_idx" ON "accounts" USING btree ("owner_user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "accounts_one_family_per_owner_uq" ON "accounts" USING btree ("owner_user_id") WHERE "accounts"."type" = 'family_plan' and "accounts"."status" <> 'cancelled';--> statement-breakpoint
CREATE INDEX "actions_user_id_created_at_idx" ON "actions" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "actions_line_id_idx" ON "actions" USING btree ("line_id");--> statement-breakpoint
CREATE INDEX "payment_agreements_user_id_idx" ON "payment_agreements" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "payment_agreements_one_current_uq" ON "payment_agreements" USING btree ("user_id") WHERE "payment_agreements"."status" in ('pending', 'active');--> statement-breakpoint
CREATE INDEX "usage_records_line_id_occurred_at_idx" ON "usage_records" USING btree ("line_id","occurred_at");--> statement-breakpoint
CREATE INDEX "plans_plan_type_id_idx" ON "plans" USING btree ("plan_type_id");--> statement-breakpoint
CREATE INDEX "orders_user_id_created_at_idx" ON "orders" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "orders_account_id_idx" ON "orders" USING btree ("account_id");--> statement-breakpoint
CREATE INDEX "orders_line_id_idx" ON "orders" USING btree ("line_id");--> statement-breakpoint
CREATE UNIQUE INDEX "orders_idempotency_key_uq" ON "orders" USING btree ("user_id","idempotency_key") WHERE "orders"."idempotency_key" is not null;--> statement-breakpoint
ALTER TABLE "phone_lines" ADD CONSTRAINT "phone_lines_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "phone_lines" ADD CONSTRAINT "phone_lines_plan_id_plans_id_fk" FOREIGN KEY ("plan_id") REFERENCES "public"."plans"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "phone_lines_account_id_idx" ON "phone_lines" USING btree ("account_id");--> statement-breakpoint
ALTER TABLE "phone_lines" ADD CONSTRAINT "phone_lines_sim_type" CHECK ("phone_lines"."sim_type" in ('esim', 'physical'));