ALTER TABLE "members" ADD COLUMN "notifications" jsonb;--> statement-breakpoint
ALTER TABLE "members" ADD COLUMN "language" text;