CREATE TABLE "referrals" (
	"organization_id" text NOT NULL,
	"id" text NOT NULL,
	"direction" text NOT NULL,
	"referral_partner_id" text NOT NULL,
	"service_id" text NOT NULL,
	"need_id" text NOT NULL,
	"partner_id" text NOT NULL,
	"status" text NOT NULL,
	"details" jsonb NOT NULL,
	"created_at" timestamp (3) with time zone NOT NULL,
	"updated_at" timestamp (3) with time zone NOT NULL,
	CONSTRAINT "referrals_organization_id_id_pk" PRIMARY KEY("organization_id","id")
);
--> statement-breakpoint
ALTER TABLE "referrals" ADD CONSTRAINT "referrals_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "referrals_by_organization" ON "referrals" USING btree ("organization_id","created_at");