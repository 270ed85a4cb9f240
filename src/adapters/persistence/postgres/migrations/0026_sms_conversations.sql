ALTER TABLE "interactions" ADD COLUMN "sent_by" text;--> statement-breakpoint
ALTER TABLE "interactions" ADD COLUMN "delivery_error" text;--> statement-breakpoint
ALTER TABLE "interactions" ADD COLUMN "recipient" text;--> statement-breakpoint
ALTER TABLE "needs" ADD COLUMN "needs_attention" boolean;--> statement-breakpoint
CREATE INDEX "interactions_unattached" ON "interactions" USING btree ("organization_id","created_at","id") WHERE "interactions"."need_id" IS NULL AND "interactions"."channel" = 'sms' AND "interactions"."direction" = 'inbound';--> statement-breakpoint
CREATE INDEX "interactions_unattached_by_sender" ON "interactions" USING btree ("organization_id","sender_identifier") WHERE "interactions"."need_id" IS NULL AND "interactions"."channel" = 'sms';--> statement-breakpoint
CREATE INDEX "interactions_by_recipient" ON "interactions" USING btree ("organization_id","recipient","created_at") WHERE "interactions"."recipient" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "needs_needing_attention" ON "needs" USING btree ("organization_id","created_at","id") WHERE "needs"."needs_attention";