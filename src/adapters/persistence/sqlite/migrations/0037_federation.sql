CREATE TABLE `federation_keys` (
	`organization_id` text PRIMARY KEY NOT NULL,
	`public_key` text NOT NULL,
	`sealed_private_key` text NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `federation_messages_seen` (
	`pairing_id` text NOT NULL,
	`message_id` text NOT NULL,
	`seen_at` integer NOT NULL,
	PRIMARY KEY(`pairing_id`, `message_id`)
);
--> statement-breakpoint
CREATE INDEX `federation_messages_seen_by_age` ON `federation_messages_seen` (`seen_at`);--> statement-breakpoint
CREATE TABLE `pairing_invitations` (
	`secret_digest` text PRIMARY KEY NOT NULL,
	`id` text NOT NULL,
	`organization_id` text NOT NULL,
	`expires_at` integer NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `pairing_invitations_by_expiry` ON `pairing_invitations` (`expires_at`);--> statement-breakpoint
CREATE TABLE `referral_partners` (
	`id` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`name` text NOT NULL,
	`base_url` text NOT NULL,
	`peer_organization_id` text NOT NULL,
	`peer_pairing_id` text NOT NULL,
	`peer_public_key` text NOT NULL,
	`status` text NOT NULL,
	`created_at` integer NOT NULL,
	`ended_at` integer,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `referral_partners_by_organization` ON `referral_partners` (`organization_id`,`status`,`created_at`);