-- The trigram operator classes of the console's search (ADR 0093): trusted, so the database's
-- owner may create it.
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
CREATE INDEX "users_name_folded_trgm_idx" ON "users" USING gin (lower(replace(replace(translate("firstname" || ' ' || "lastname", 'ÁáÀàÂâÄäÅåÍíÌìÎîÏïÓóÒòÔôÖöÕõØøÚúÙùÛûÜüÝýÿÉéÈèÊêËëÐðÇç', 'AaAaAaAaAaIiIiIiIiOoOoOoOoOoOoUuUuUuUuYyyEeEeEeEeDdCc'), 'Æ', 'ae'), 'æ', 'ae')) gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "users_email_trgm_idx" ON "users" USING gin ("email" gin_trgm_ops);