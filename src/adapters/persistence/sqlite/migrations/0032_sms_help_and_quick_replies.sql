-- Conversations by text (docs/api/organization.md "SMS", "Quick replies"; docs/api/needs.md "Reports"): the last automatic
-- answer to HELP each number was sent by an organization (one a day at most), the organization's saved replies, and
-- the index the needs report counts a period's texts on.
CREATE TABLE `sms_help_answers` (
	`organization_id` text NOT NULL,
	`phone` text NOT NULL,
	`answered_at` integer NOT NULL,
	PRIMARY KEY(`organization_id`, `phone`),
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
ALTER TABLE `organizations` ADD `quick_replies` text;--> statement-breakpoint
CREATE INDEX `interactions_texts_by_time` ON `interactions` (`organization_id`,`created_at`) WHERE "interactions"."channel" = 'sms';