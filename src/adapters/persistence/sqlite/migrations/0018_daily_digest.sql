CREATE TABLE `daily_digests` (
	`member_id` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`last_local_date` text NOT NULL,
	FOREIGN KEY (`member_id`) REFERENCES `members`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
ALTER TABLE `organizations` ADD `digest_hour` integer;--> statement-breakpoint
ALTER TABLE `organizations` ADD `digest_time_zone` text;--> statement-breakpoint
ALTER TABLE `organizations` ADD `confirm_requests` integer;--> statement-breakpoint
CREATE INDEX `needs_unassigned_open` ON `needs` (`organization_id`,`assigned_to`,`created_at`,`id`) WHERE "needs"."assigned_to" IS NULL AND "needs"."status" <> 'RESOLVED';--> statement-breakpoint
CREATE INDEX `needs_unassigned_open_by_partner` ON `needs` (`organization_id`,`partner_id`,`assigned_to`,`created_at`,`id`) WHERE "needs"."assigned_to" IS NULL AND "needs"."status" <> 'RESOLVED';