ALTER TABLE `interactions` ADD `sent_by` text;--> statement-breakpoint
ALTER TABLE `interactions` ADD `delivery_error` text;--> statement-breakpoint
ALTER TABLE `interactions` ADD `recipient` text;--> statement-breakpoint
CREATE INDEX `interactions_unattached` ON `interactions` (`organization_id`,`created_at`,`id`) WHERE "interactions"."need_id" IS NULL AND "interactions"."channel" = 'sms' AND "interactions"."direction" = 'inbound';--> statement-breakpoint
CREATE INDEX `interactions_unattached_by_sender` ON `interactions` (`organization_id`,`sender_identifier`) WHERE "interactions"."need_id" IS NULL AND "interactions"."channel" = 'sms';--> statement-breakpoint
CREATE INDEX `interactions_by_recipient` ON `interactions` (`organization_id`,`recipient`,`created_at`) WHERE "interactions"."recipient" IS NOT NULL;--> statement-breakpoint
ALTER TABLE `needs` ADD `needs_attention` integer;--> statement-breakpoint
CREATE INDEX `needs_needing_attention` ON `needs` (`organization_id`,`created_at`,`id`) WHERE "needs"."needs_attention";