CREATE TABLE "daily_digests" (
	"member_id" text PRIMARY KEY NOT NULL,
	"organization_id" text NOT NULL,
	"last_local_date" text NOT NULL
);
--> statement-breakpoint
ALTER TABLE "organizations" ADD COLUMN "digest_hour" integer;--> statement-breakpoint
ALTER TABLE "organizations" ADD COLUMN "digest_time_zone" text;--> statement-breakpoint
ALTER TABLE "organizations" ADD COLUMN "confirm_requests" boolean;--> statement-breakpoint
ALTER TABLE "daily_digests" ADD CONSTRAINT "daily_digests_member_id_members_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."members"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "daily_digests" ADD CONSTRAINT "daily_digests_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "needs_unassigned_open" ON "needs" USING btree ("organization_id","assigned_to","created_at","id") WHERE "needs"."assigned_to" IS NULL AND "needs"."status" <> 'RESOLVED';--> statement-breakpoint
CREATE INDEX "needs_unassigned_open_by_partner" ON "needs" USING btree ("organization_id","partner_id","assigned_to","created_at","id") WHERE "needs"."assigned_to" IS NULL AND "needs"."status" <> 'RESOLVED';