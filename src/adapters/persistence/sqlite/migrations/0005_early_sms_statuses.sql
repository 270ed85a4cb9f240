CREATE TABLE `early_sms_statuses` (
	`provider_message_id` text PRIMARY KEY NOT NULL,
	`status` text NOT NULL,
	`received_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `early_sms_statuses_by_time` ON `early_sms_statuses` (`received_at`);