CREATE TABLE "services" (
	"id" text PRIMARY KEY NOT NULL,
	"organization_id" text NOT NULL,
	"partner_id" text NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"status" text NOT NULL,
	"eligibility" text,
	"languages" jsonb NOT NULL,
	"schedule" jsonb NOT NULL,
	"fees" text,
	"application_process" text,
	"url" text,
	"email" text,
	"phone" text,
	"address" jsonb,
	"accepting_referrals" boolean NOT NULL,
	"taxonomy_terms" jsonb NOT NULL,
	"is_archived" boolean NOT NULL,
	"created_at" timestamp (3) with time zone NOT NULL,
	"updated_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "taxonomy_terms" (
	"id" text PRIMARY KEY NOT NULL,
	"organization_id" text NOT NULL,
	"vocabulary" text NOT NULL,
	"code" text NOT NULL,
	"name" text NOT NULL,
	"description" text
);
--> statement-breakpoint
ALTER TABLE "organizations" ADD COLUMN "description" text;--> statement-breakpoint
ALTER TABLE "services" ADD CONSTRAINT "services_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "services" ADD CONSTRAINT "services_partner_id_partners_id_fk" FOREIGN KEY ("partner_id") REFERENCES "public"."partners"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "taxonomy_terms" ADD CONSTRAINT "taxonomy_terms_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "services_by_organization" ON "services" USING btree ("organization_id","created_at","id");--> statement-breakpoint
CREATE INDEX "services_by_partner" ON "services" USING btree ("organization_id","partner_id","created_at","id");--> statement-breakpoint
CREATE INDEX "services_by_update" ON "services" USING btree ("organization_id","updated_at");--> statement-breakpoint
CREATE UNIQUE INDEX "taxonomy_terms_code_per_vocabulary" ON "taxonomy_terms" USING btree ("organization_id","vocabulary","code");