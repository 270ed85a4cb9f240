CREATE TABLE "audit_events" (
	"id" text PRIMARY KEY NOT NULL,
	"organization_id" text NOT NULL,
	"member_id" text,
	"action" text NOT NULL,
	"record_type" text NOT NULL,
	"record_id" text NOT NULL,
	"at" timestamp (3) with time zone NOT NULL,
	"request_id" text,
	"fields" jsonb
);
--> statement-breakpoint
ALTER TABLE "organizations" ADD COLUMN "audit_retention_days" integer;--> statement-breakpoint
ALTER TABLE "audit_events" ADD CONSTRAINT "audit_events_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "audit_events_newest" ON "audit_events" USING btree ("organization_id","at","id");--> statement-breakpoint
CREATE INDEX "audit_events_by_member" ON "audit_events" USING btree ("organization_id","member_id","at","id");--> statement-breakpoint
CREATE INDEX "audit_events_by_record" ON "audit_events" USING btree ("organization_id","record_type","record_id","at","id");--> statement-breakpoint
-- The audit trail is append-only: no statement may change an event (the retention purge deletes whole rows).
CREATE FUNCTION "audit_events_refuse_update"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'audit events are append-only';
END
$$;
--> statement-breakpoint
CREATE TRIGGER "audit_events_append_only" BEFORE UPDATE ON "audit_events" FOR EACH ROW EXECUTE FUNCTION "audit_events_refuse_update"();
