CREATE TABLE `sms_opt_outs` (
	`organization_id` text NOT NULL,
	`phone` text NOT NULL,
	`opted_out_at` integer NOT NULL,
	PRIMARY KEY(`organization_id`, `phone`),
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
ALTER TABLE `interactions` ADD `constituent_id` text;--> statement-breakpoint
ALTER TABLE `interactions` ADD `direction` text;--> statement-breakpoint
ALTER TABLE `interactions` ADD `delivery_status` text;--> statement-breakpoint
ALTER TABLE `interactions` ADD `provider_message_id` text;--> statement-breakpoint
CREATE INDEX `interactions_by_provider_message` ON `interactions` (`provider_message_id`);--> statement-breakpoint
ALTER TABLE `outbox` ADD `in_flight_since` integer;--> statement-breakpoint
CREATE INDEX `outbox_by_organization` ON `outbox` (`organization_id`,`status`,`next_attempt_at`);--> statement-breakpoint
CREATE UNIQUE INDEX `organizations_phone_number_unique` ON `organizations` (`phone_number`);