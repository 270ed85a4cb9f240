CREATE TABLE `audit_events` (
	`id` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`member_id` text,
	`action` text NOT NULL,
	`record_type` text NOT NULL,
	`record_id` text NOT NULL,
	`at` integer NOT NULL,
	`request_id` text,
	`fields` text,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `audit_events_newest` ON `audit_events` (`organization_id`,`at`,`id`);--> statement-breakpoint
CREATE INDEX `audit_events_by_member` ON `audit_events` (`organization_id`,`member_id`,`at`,`id`);--> statement-breakpoint
CREATE INDEX `audit_events_by_record` ON `audit_events` (`organization_id`,`record_type`,`record_id`,`at`,`id`);--> statement-breakpoint
ALTER TABLE `organizations` ADD `audit_retention_days` integer;--> statement-breakpoint
-- The audit trail is append-only: no statement may change an event (the retention purge deletes whole rows).
CREATE TRIGGER `audit_events_append_only` BEFORE UPDATE ON `audit_events` BEGIN SELECT RAISE(ABORT, 'audit events are append-only'); END;
