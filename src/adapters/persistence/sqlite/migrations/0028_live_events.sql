CREATE TABLE `live_events` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`organization_id` text NOT NULL,
	`type` text NOT NULL,
	`data` text NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `live_events_by_organization` ON `live_events` (`organization_id`,`id`);--> statement-breakpoint
CREATE INDEX `live_events_by_age` ON `live_events` (`created_at`);