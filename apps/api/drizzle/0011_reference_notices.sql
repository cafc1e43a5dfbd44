-- Reference data (the catalogue, content pages, status messages) is kept in memory by every API
-- instance (docs/decisions/0057-instance-memory.md). Any change to it, from the API, the operator
-- tool, a seed or an SQL console, tells every instance through NOTIFY once it commits.
CREATE OR REPLACE FUNCTION notify_reference_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('reference_changed', TG_TABLE_NAME);
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER plan_types_reference_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON plan_types FOR EACH STATEMENT EXECUTE FUNCTION notify_reference_changed();
--> statement-breakpoint
CREATE TRIGGER plans_reference_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON plans FOR EACH STATEMENT EXECUTE FUNCTION notify_reference_changed();
--> statement-breakpoint
CREATE TRIGGER extra_packages_reference_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON extra_packages FOR EACH STATEMENT EXECUTE FUNCTION notify_reference_changed();
--> statement-breakpoint
CREATE TRIGGER content_pages_reference_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON content_pages FOR EACH STATEMENT EXECUTE FUNCTION notify_reference_changed();
--> statement-breakpoint
CREATE TRIGGER status_messages_reference_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON status_messages FOR EACH STATEMENT EXECUTE FUNCTION notify_reference_changed();
