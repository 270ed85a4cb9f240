CREATE TABLE `referrals` (
	`organization_id` text NOT NULL,
	`id` text NOT NULL,
	`direction` text NOT NULL,
	`referral_partner_id` text NOT NULL,
	`service_id` text NOT NULL,
	`need_id` text NOT NULL,
	`partner_id` text NOT NULL,
	`status` text NOT NULL,
	`details` text NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	PRIMARY KEY(`organization_id`, `id`),
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `referrals_by_organization` ON `referrals` (`organization_id`,`created_at`);