ALTER TABLE `organizations` ADD `app_origins` text;--> statement-breakpoint
ALTER TABLE `organizations` ADD `form_origins` text;