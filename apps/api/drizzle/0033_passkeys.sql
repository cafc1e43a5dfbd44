CREATE TABLE "passkey_challenges" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"challenge" text NOT NULL,
	"purpose" text NOT NULL,
	"session_id" uuid,
	"staff_session_id" uuid,
	"staff_user_id" uuid,
	"created_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	CONSTRAINT "passkey_challenges_purpose" CHECK ("passkey_challenges"."purpose" in ('register', 'sign_in', 'staff_register', 'staff_sign_in'))
);
--> statement-breakpoint
CREATE TABLE "passkeys" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid,
	"staff_user_id" uuid,
	"credential_id" text NOT NULL,
	"public_key" text NOT NULL,
	"counter" bigint DEFAULT 0 NOT NULL,
	"transports" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"device_type" text NOT NULL,
	"backed_up" boolean NOT NULL,
	"aaguid" text NOT NULL,
	"name" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"last_used_at" timestamp with time zone,
	CONSTRAINT "passkeys_one_owner" CHECK (num_nonnulls("passkeys"."user_id", "passkeys"."staff_user_id") = 1)
);
--> statement-breakpoint
CREATE TABLE "staff_role_policies" (
	"role" text PRIMARY KEY NOT NULL,
	"require_passkey" boolean NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "staff_role_policies_role" CHECK ("staff_role_policies"."role" in ('support', 'provisioning', 'content', 'admin'))
);
--> statement-breakpoint
ALTER TABLE "actions" DROP CONSTRAINT "actions_type";--> statement-breakpoint
ALTER TABLE "staff_users" ADD COLUMN "totp_allowed_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "passkey_challenges" ADD CONSTRAINT "passkey_challenges_session_id_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "passkey_challenges" ADD CONSTRAINT "passkey_challenges_staff_session_id_staff_sessions_id_fk" FOREIGN KEY ("staff_session_id") REFERENCES "public"."staff_sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "passkey_challenges" ADD CONSTRAINT "passkey_challenges_staff_user_id_staff_users_id_fk" FOREIGN KEY ("staff_user_id") REFERENCES "public"."staff_users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "passkeys" ADD CONSTRAINT "passkeys_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "passkeys" ADD CONSTRAINT "passkeys_staff_user_id_staff_users_id_fk" FOREIGN KEY ("staff_user_id") REFERENCES "public"."staff_users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "passkey_challenges_challenge_uq" ON "passkey_challenges" USING btree ("challenge");--> statement-breakpoint
CREATE INDEX "passkey_challenges_expires_at_idx" ON "passkey_challenges" USING btree ("expires_at");--> statement-breakpoint
CREATE UNIQUE INDEX "passkeys_credential_id_uq" ON "passkeys" USING btree ("credential_id");--> statement-breakpoint
CREATE INDEX "passkeys_user_id_idx" ON "passkeys" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "passkeys_staff_user_id_idx" ON "passkeys" USING btree ("staff_user_id");--> statement-breakpoint
ALTER TABLE "actions" ADD CONSTRAINT "actions_type" CHECK ("actions"."type" in ('subscription_created', 'subscription_cancelled', 'plan_changed', 'member_added', 'member_moved', 'member_removed', 'package_purchased', 'eu_package_changed', 'data_given', 'data_received', 'data_requested', 'top_up', 'payment', 'sim_changed', 'profile_updated', 'signed_in_new_device', 'password_changed', 'pin_locked', 'number_locked', 'number_unlock_requested', 'number_unlock_cancelled', 'number_unlocked', 'port_out_code_created', 'port_out_refused', 'port_out_accepted', 'data_export', 'passkey_added', 'signed_in_passkey', 'passkey_removed'));