CREATE TABLE "development_outbox" (
	"id" text PRIMARY KEY NOT NULL,
	"organization_id" text NOT NULL,
	"channel" text NOT NULL,
	"kind" text NOT NULL,
	"recipient" text NOT NULL,
	"subject" text,
	"body" text NOT NULL,
	"created_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "development_outbox" ADD CONSTRAINT "development_outbox_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "development_outbox_newest" ON "development_outbox" USING btree ("organization_id","created_at","id");--> statement-breakpoint
CREATE INDEX "development_outbox_by_age" ON "development_outbox" USING btree ("created_at");