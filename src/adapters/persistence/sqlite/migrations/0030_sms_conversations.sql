-- Conversations by text (docs/api/organization.md "SMS", "Quick replies"): the last automatic answer to HELP each
-- number was sent by an organization (one a day at most), and the organization's saved replies.
CREATE TABLE `sms_help_answers` (
	`organization_id` text NOT NULL,
	`phone` text NOT NULL,
	`answered_at` integer NOT NULL,
	PRIMARY KEY(`organization_id`, `phone`),
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
ALTER TABLE `organizations` ADD `quick_replies` text;
