CREATE TABLE `webhook_endpoints` (
	`id` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`url` text NOT NULL,
	`events` text NOT NULL,
	`sealed_secret` text NOT NULL,
	`enabled` integer NOT NULL,
	`consecutive_failures` integer NOT NULL,
	`disabled_at` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `webhook_endpoints_by_organization` ON `webhook_endpoints` (`organization_id`,`created_at`,`id`);--> statement-breakpoint
ALTER TABLE `outbox` ADD `webhook_endpoint_id` text;--> statement-breakpoint
ALTER TABLE `outbox` ADD `response_status` integer;--> statement-breakpoint
CREATE INDEX `outbox_by_webhook_endpoint` ON `outbox` (`webhook_endpoint_id`,`created_at`,`id`);