CREATE TABLE `organization_slugs` (
	`slug` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
-- Every organization holds its current slug.
INSERT INTO `organization_slugs` (`slug`, `organization_id`) SELECT `slug`, `id` FROM `organizations`;
