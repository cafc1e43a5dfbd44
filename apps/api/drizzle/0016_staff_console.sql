CREATE TABLE "content_versions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"slug" text NOT NULL,
	"version" integer NOT NULL,
	"title_fo" text NOT NULL,
	"title_en" text NOT NULL,
	"markdown_fo" text NOT NULL,
	"markdown_en" text NOT NULL,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"published_by" text,
	"published_at" timestamp with time zone,
	CONSTRAINT "content_versions_slug" CHECK ("content_versions"."slug" in ('terms', 'privacy'))
);
--> statement-breakpoint
CREATE TABLE "number_releases" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"msisdn" text NOT NULL,
	"released_at" timestamp with time zone DEFAULT now() NOT NULL,
	"released_by" text NOT NULL,
	"reason" text NOT NULL,
	CONSTRAINT "number_releases_msisdn_6_digits" CHECK ("number_releases"."msisdn" ~ '^[0-9]{6}$')
);
--> statement-breakpoint
CREATE TABLE "staff_recovery_codes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"staff_user_id" uuid NOT NULL,
	"code_hash" text NOT NULL,
	"used_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "staff_sessions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"staff_user_id" uuid NOT NULL,
	"token_hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"revoked_at" timestamp with time zone,
	"user_agent" text
);
--> statement-breakpoint
CREATE TABLE "staff_users" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"email" text NOT NULL,
	"name" text NOT NULL,
	"role" text NOT NULL,
	"password_hash" text NOT NULL,
	"totp_secret_enc" text NOT NULL,
	"totp_last_step" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"disabled_at" timestamp with time zone,
	CONSTRAINT "staff_users_role" CHECK ("staff_users"."role" in ('support', 'provisioning', 'content', 'admin')),
	CONSTRAINT "staff_users_email_lower" CHECK ("staff_users"."email" = lower("staff_users"."email"))
);
--> statement-breakpoint
DROP INDEX "payment_refunds_payment_id_uq";--> statement-breakpoint
ALTER TABLE "payment_refunds" ADD COLUMN "requested_by" text;--> statement-breakpoint
ALTER TABLE "payment_refunds" ADD COLUMN "reason" text;--> statement-breakpoint
ALTER TABLE "operator_actions" ADD COLUMN "kind" text DEFAULT 'change' NOT NULL;--> statement-breakpoint
ALTER TABLE "operator_actions" ADD COLUMN "target_type" text;--> statement-breakpoint
ALTER TABLE "operator_actions" ADD COLUMN "staff_user_id" uuid;--> statement-breakpoint
ALTER TABLE "operator_actions" ADD COLUMN "details" jsonb;--> statement-breakpoint
ALTER TABLE "staff_recovery_codes" ADD CONSTRAINT "staff_recovery_codes_staff_user_id_staff_users_id_fk" FOREIGN KEY ("staff_user_id") REFERENCES "public"."staff_users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "staff_sessions" ADD CONSTRAINT "staff_sessions_staff_user_id_staff_users_id_fk" FOREIGN KEY ("staff_user_id") REFERENCES "public"."staff_users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "content_versions_slug_version_uq" ON "content_versions" USING btree ("slug","version");--> statement-breakpoint
CREATE INDEX "number_releases_msisdn_idx" ON "number_releases" USING btree ("msisdn","released_at");--> statement-breakpoint
CREATE UNIQUE INDEX "staff_recovery_codes_uq" ON "staff_recovery_codes" USING btree ("staff_user_id","code_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "staff_sessions_token_hash_uq" ON "staff_sessions" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "staff_sessions_staff_user_id_idx" ON "staff_sessions" USING btree ("staff_user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "staff_users_email_uq" ON "staff_users" USING btree ("email");--> statement-breakpoint
CREATE INDEX "payment_refunds_payment_id_idx" ON "payment_refunds" USING btree ("payment_id");--> statement-breakpoint
CREATE INDEX "operator_actions_target_idx" ON "operator_actions" USING btree ("target");--> statement-breakpoint
CREATE UNIQUE INDEX "payment_refunds_payment_id_uq" ON "payment_refunds" USING btree ("payment_id") WHERE "payment_refunds"."requested_by" is null;--> statement-breakpoint
ALTER TABLE "operator_actions" ADD CONSTRAINT "operator_actions_kind" CHECK ("operator_actions"."kind" in ('read', 'change'));--> statement-breakpoint
CREATE OR REPLACE FUNCTION operator_actions_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'operator_actions is append-only (the audit log): % refused', TG_OP
    USING ERRCODE = 'insufficient_privilege';
END;
$$;--> statement-breakpoint
CREATE TRIGGER operator_actions_append_only BEFORE UPDATE OR DELETE ON "operator_actions"
  FOR EACH ROW EXECUTE FUNCTION operator_actions_append_only();--> statement-breakpoint
CREATE TRIGGER operator_actions_no_truncate BEFORE TRUNCATE ON "operator_actions"
  FOR EACH STATEMENT EXECUTE FUNCTION operator_actions_append_only();
