ALTER TABLE "organizations" ADD COLUMN "app_origins" jsonb;--> statement-breakpoint
ALTER TABLE "organizations" ADD COLUMN "form_origins" jsonb;