CREATE TABLE `idempotency_keys` (
	`organization_id` text NOT NULL,
	`caller` text NOT NULL,
	`operation` text NOT NULL,
	`key_hash` text NOT NULL,
	`request_hash` text NOT NULL,
	`record_id` text NOT NULL,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`organization_id`, `caller`, `operation`, `key_hash`),
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `idempotency_keys_by_age` ON `idempotency_keys` (`created_at`);