DROP INDEX `interactions_by_provider_message`;--> statement-breakpoint
CREATE UNIQUE INDEX `interactions_by_provider_message` ON `interactions` (`provider_message_id`);