DROP INDEX "needs_by_assignee";--> statement-breakpoint
DROP INDEX "needs_by_constituent";--> statement-breakpoint
DROP INDEX "needs_by_household";--> statement-breakpoint
DROP INDEX "needs_text_retention";--> statement-breakpoint
CREATE INDEX "needs_by_assignee" ON "needs" USING btree ("organization_id","assigned_to","created_at","id") WHERE "needs"."assigned_to" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "needs_by_constituent" ON "needs" USING btree ("organization_id","constituent_id","created_at","id") WHERE "needs"."constituent_id" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "needs_by_household" ON "needs" USING btree ("organization_id","household_id") WHERE "needs"."household_id" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "needs_text_retention" ON "needs" USING btree ("organization_id","updated_at") WHERE "needs"."status" = 'RESOLVED' AND "needs"."text_cleared_at" IS NULL;