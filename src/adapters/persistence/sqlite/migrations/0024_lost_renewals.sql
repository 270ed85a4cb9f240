ALTER TABLE `refresh_tokens` ADD `replaced_by` text;--> statement-breakpoint
ALTER TABLE `refresh_tokens` ADD `rotated_from` text;