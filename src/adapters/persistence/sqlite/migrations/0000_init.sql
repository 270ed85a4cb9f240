CREATE TABLE `constituents` (
	`seq` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`id` text NOT NULL,
	`organization_id` text NOT NULL,
	`household_id` text NOT NULL,
	`first_name` text,
	`last_name` text,
	`phone` text,
	`email` text,
	`address_street` text,
	`address_city` text,
	`address_state` text,
	`address_zip` text,
	`date_of_birth` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	`email_key` text,
	`name_birth_key` text,
	`last_street_key` text,
	`search_terms` text NOT NULL,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`household_id`) REFERENCES `households`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `constituents_id_unique` ON `constituents` (`id`);--> statement-breakpoint
CREATE INDEX `constituents_newest` ON `constituents` (`organization_id`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `constituents_by_household` ON `constituents` (`organization_id`,`household_id`);--> statement-breakpoint
CREATE INDEX `constituents_by_phone` ON `constituents` (`organization_id`,`phone`);--> statement-breakpoint
CREATE INDEX `constituents_by_email` ON `constituents` (`organization_id`,`email_key`);--> statement-breakpoint
CREATE INDEX `constituents_by_name_birth` ON `constituents` (`organization_id`,`name_birth_key`);--> statement-breakpoint
CREATE INDEX `constituents_by_last_street` ON `constituents` (`organization_id`,`last_street_key`);--> statement-breakpoint
CREATE TABLE `household_matches` (
	`id` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`constituent_id` text NOT NULL,
	`candidate_constituent_id` text NOT NULL,
	`reason` text NOT NULL,
	`status` text NOT NULL,
	`created_at` integer NOT NULL,
	`resolved_at` integer,
	`resolved_by` text,
	`action` text,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `household_matches_newest` ON `household_matches` (`organization_id`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `household_matches_by_status` ON `household_matches` (`organization_id`,`status`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `household_matches_by_constituent` ON `household_matches` (`organization_id`,`constituent_id`);--> statement-breakpoint
CREATE INDEX `household_matches_by_candidate` ON `household_matches` (`organization_id`,`candidate_constituent_id`);--> statement-breakpoint
CREATE TABLE `households` (
	`id` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `households_by_organization` ON `households` (`organization_id`);--> statement-breakpoint
CREATE TABLE `interactions` (
	`id` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`partner_id` text,
	`need_id` text,
	`channel` text NOT NULL,
	`sender_identifier` text NOT NULL,
	`content` text,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`need_id`) REFERENCES `needs`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `interactions_by_need` ON `interactions` (`organization_id`,`need_id`,`created_at`,`id`);--> statement-breakpoint
CREATE TABLE `login_failures` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`email` text NOT NULL,
	`at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `login_failures_by_email` ON `login_failures` (`email`,`at`);--> statement-breakpoint
CREATE TABLE `members` (
	`id` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`email` text NOT NULL,
	`full_name` text,
	`role` text NOT NULL,
	`partner_id` text,
	`profiles` text NOT NULL,
	`is_confirmed` integer NOT NULL,
	`phone` text,
	`password_hash` text,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`partner_id`) REFERENCES `partners`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `members_email_per_organization` ON `members` (`organization_id`,`email`);--> statement-breakpoint
CREATE INDEX `members_by_email` ON `members` (`email`);--> statement-breakpoint
CREATE TABLE `need_changes` (
	`seq` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`id` text NOT NULL,
	`organization_id` text NOT NULL,
	`need_id` text NOT NULL,
	`field` text NOT NULL,
	`from_value` text,
	`to_value` text,
	`changed_by` text,
	`changed_at` integer NOT NULL,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`need_id`) REFERENCES `needs`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `need_changes_id_unique` ON `need_changes` (`id`);--> statement-breakpoint
CREATE INDEX `need_changes_by_need` ON `need_changes` (`organization_id`,`need_id`,`seq`);--> statement-breakpoint
CREATE TABLE `needs` (
	`id` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`partner_id` text NOT NULL,
	`status` text NOT NULL,
	`custom_fields` text NOT NULL,
	`is_confidential` integer NOT NULL,
	`parent_need_id` text,
	`assigned_to` text,
	`created_by` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	`due_date` integer,
	`constituent_id` text,
	`household_id` text,
	`duplicate_warning` text,
	`reference_number` text NOT NULL,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`partner_id`) REFERENCES `partners`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`assigned_to`) REFERENCES `members`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`constituent_id`) REFERENCES `constituents`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`household_id`) REFERENCES `households`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `needs_reference_per_organization` ON `needs` (`organization_id`,`reference_number`);--> statement-breakpoint
CREATE INDEX `needs_newest` ON `needs` (`organization_id`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `needs_by_partner` ON `needs` (`organization_id`,`partner_id`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `needs_by_status` ON `needs` (`organization_id`,`status`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `needs_by_assignee` ON `needs` (`organization_id`,`assigned_to`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `needs_by_constituent` ON `needs` (`organization_id`,`constituent_id`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `needs_by_household` ON `needs` (`organization_id`,`household_id`);--> statement-breakpoint
CREATE TABLE `organizations` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`slug` text NOT NULL,
	`short_code` text,
	`max_concurrency` integer NOT NULL,
	`tcr_status` text,
	`phone_number` text,
	`need_sequence` integer NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `organizations_slug_unique` ON `organizations` (`slug`);--> statement-breakpoint
CREATE UNIQUE INDEX `organizations_short_code_unique` ON `organizations` (`short_code`);--> statement-breakpoint
CREATE TABLE `partners` (
	`id` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`name` text NOT NULL,
	`sla_hours` integer NOT NULL,
	`is_archived` integer NOT NULL,
	`is_default` integer NOT NULL,
	`description` text,
	`keywords` text,
	`website` text,
	`public_category_name` text,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `partners_by_organization` ON `partners` (`organization_id`,`created_at`,`id`);--> statement-breakpoint
CREATE UNIQUE INDEX `partners_one_default` ON `partners` (`organization_id`) WHERE "partners"."is_default" = 1;--> statement-breakpoint
CREATE TABLE `refresh_tokens` (
	`id` text PRIMARY KEY NOT NULL,
	`family_id` text NOT NULL,
	`member_id` text NOT NULL,
	`organization_id` text NOT NULL,
	`token_hash` text NOT NULL,
	`created_at` integer NOT NULL,
	`expires_at` integer NOT NULL,
	`rotated_at` integer,
	`revoked_at` integer,
	FOREIGN KEY (`member_id`) REFERENCES `members`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `refresh_tokens_token_hash_unique` ON `refresh_tokens` (`token_hash`);--> statement-breakpoint
CREATE INDEX `refresh_tokens_by_family` ON `refresh_tokens` (`family_id`);