CREATE TABLE `development_outbox` (
	`id` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`channel` text NOT NULL,
	`kind` text NOT NULL,
	`recipient` text NOT NULL,
	`subject` text,
	`body` text NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `development_outbox_newest` ON `development_outbox` (`organization_id`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `development_outbox_by_age` ON `development_outbox` (`created_at`);