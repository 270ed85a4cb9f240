CREATE TABLE "webhook_endpoints" (
	"id" text PRIMARY KEY NOT NULL,
	"organization_id" text NOT NULL,
	"url" text NOT NULL,
	"events" jsonb NOT NULL,
	"sealed_secret" text NOT NULL,
	"enabled" boolean NOT NULL,
	"consecutive_failures" integer NOT NULL,
	"disabled_at" timestamp (3) with time zone,
	"created_at" timestamp (3) with time zone NOT NULL,
	"updated_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "outbox" ADD COLUMN "webhook_endpoint_id" text;--> statement-breakpoint
ALTER TABLE "outbox" ADD COLUMN "response_status" integer;--> statement-breakpoint
ALTER TABLE "webhook_endpoints" ADD CONSTRAINT "webhook_endpoints_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "webhook_endpoints_by_organization" ON "webhook_endpoints" USING btree ("organization_id","created_at","id");--> statement-breakpoint
CREATE INDEX "outbox_by_webhook_endpoint" ON "outbox" USING btree ("webhook_endpoint_id","created_at","id");