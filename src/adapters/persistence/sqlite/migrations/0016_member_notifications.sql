ALTER TABLE `members` ADD `notifications` text;--> statement-breakpoint
ALTER TABLE `members` ADD `language` text;