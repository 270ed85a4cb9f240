CREATE TABLE "organization_slugs" (
	"slug" text PRIMARY KEY NOT NULL,
	"organization_id" text NOT NULL
);
--> statement-breakpoint
ALTER TABLE "organization_slugs" ADD CONSTRAINT "organization_slugs_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
-- Every organization holds its current slug.
INSERT INTO "organization_slugs" ("slug", "organization_id") SELECT "slug", "id" FROM "organizations";
