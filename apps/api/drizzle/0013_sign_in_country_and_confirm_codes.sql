ALTER TABLE "phone_login_codes" ADD COLUMN "purpose" text DEFAULT 'sign_in' NOT NULL;--> statement-breakpoint
ALTER TABLE "phone_login_codes" DROP CONSTRAINT "phone_login_codes_pkey";--> statement-breakpoint
ALTER TABLE "phone_login_codes" ADD CONSTRAINT "phone_login_codes_pkey" PRIMARY KEY("msisdn","purpose");--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "country" text;--> statement-breakpoint
ALTER TABLE "phone_login_codes" ADD CONSTRAINT "phone_login_codes_purpose" CHECK ("phone_login_codes"."purpose" in ('sign_in', 'confirm'));--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_country_iso" CHECK ("sessions"."country" ~ '^[A-Z]{2}$');
