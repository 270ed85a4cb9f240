CREATE TABLE "live_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"organization_id" text NOT NULL,
	"type" text NOT NULL,
	"data" jsonb NOT NULL,
	"created_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "live_events_by_organization" ON "live_events" USING btree ("organization_id","id");--> statement-breakpoint
CREATE INDEX "live_events_by_age" ON "live_events" USING btree ("created_at");--> statement-breakpoint
-- Each id is announced on `intake_live_events`: PostgreSQL delivers a NOTIFY only when its transaction commits,
-- in commit order, to every listening session (every instance's live stream).
CREATE FUNCTION live_events_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('intake_live_events', NEW.id::text);
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER live_events_notify AFTER INSERT ON live_events FOR EACH ROW EXECUTE FUNCTION live_events_notify();
