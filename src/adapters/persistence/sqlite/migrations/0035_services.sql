CREATE TABLE `services` (
	`id` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`partner_id` text NOT NULL,
	`name` text NOT NULL,
	`description` text,
	`status` text NOT NULL,
	`eligibility` text,
	`languages` text NOT NULL,
	`schedule` text NOT NULL,
	`fees` text,
	`application_process` text,
	`url` text,
	`email` text,
	`phone` text,
	`address` text,
	`accepting_referrals` integer NOT NULL,
	`taxonomy_terms` text NOT NULL,
	`is_archived` integer NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`partner_id`) REFERENCES `partners`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `services_by_organization` ON `services` (`organization_id`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `services_by_partner` ON `services` (`organization_id`,`partner_id`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `services_by_update` ON `services` (`organization_id`,`updated_at`);--> statement-breakpoint
CREATE TABLE `taxonomy_terms` (
	`id` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`vocabulary` text NOT NULL,
	`code` text NOT NULL,
	`name` text NOT NULL,
	`description` text,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `taxonomy_terms_code_per_vocabulary` ON `taxonomy_terms` (`organization_id`,`vocabulary`,`code`);--> statement-breakpoint
ALTER TABLE `organizations` ADD `description` text;