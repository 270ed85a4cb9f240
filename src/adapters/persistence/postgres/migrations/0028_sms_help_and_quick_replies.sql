-- Conversations by text (docs/api/organization.md "SMS", "Quick replies"; docs/api/needs.md "Reports"): the last automatic
-- answer to HELP each number was sent by an organization (one a day at most), the organization's saved replies, and
-- the index the needs report counts a period's texts on.
CREATE TABLE "sms_help_answers" (
	"organization_id" text NOT NULL,
	"phone" text NOT NULL,
	"answered_at" timestamp (3) with time zone NOT NULL,
	CONSTRAINT "sms_help_answers_organization_id_phone_pk" PRIMARY KEY("organization_id","phone")
);
--> statement-breakpoint
ALTER TABLE "organizations" ADD COLUMN "quick_replies" jsonb;--> statement-breakpoint
ALTER TABLE "sms_help_answers" ADD CONSTRAINT "sms_help_answers_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "interactions_texts_by_time" ON "interactions" USING btree ("organization_id","created_at") WHERE "interactions"."channel" = 'sms';