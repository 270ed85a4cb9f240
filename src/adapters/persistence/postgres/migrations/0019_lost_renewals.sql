ALTER TABLE "refresh_tokens" ADD COLUMN "replaced_by" text;--> statement-breakpoint
ALTER TABLE "refresh_tokens" ADD COLUMN "rotated_from" text;