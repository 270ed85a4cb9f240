-- Need search (docs/api/needs.md "Search and sort"): the words of each need by kind, written by the need repository.
-- The needs on file get their reference numbers' words here (`REQ-1001`: `req` and `1001`); their description
-- and names are indexed by the worker, a batch at a time, from need_terms_backlog.
-- WITHOUT ROWID: a row is its key's one entry (drizzle-kit cannot say so; schema.ts does).
CREATE TABLE `need_terms` (
	`organization_id` text NOT NULL,
	`term` text NOT NULL,
	`kind` text NOT NULL,
	`need_id` text NOT NULL,
	PRIMARY KEY(`organization_id`, `term`, `kind`, `need_id`)
) WITHOUT ROWID;
--> statement-breakpoint
CREATE INDEX `need_terms_by_need` ON `need_terms` (`need_id`,`term`);
--> statement-breakpoint
INSERT INTO `need_terms` (`organization_id`, `term`, `kind`, `need_id`)
  SELECT `organization_id`, rtrim(lower(`reference_number`), '0123456789-'), 'r', `id` FROM `needs`
  UNION
  SELECT `organization_id`, ltrim(lower(`reference_number`), 'abcdefghijklmnopqrstuvwxyz-'), 'r', `id` FROM `needs`;
--> statement-breakpoint
CREATE TABLE `need_terms_backlog` (
	`need_id` text PRIMARY KEY NOT NULL
);
--> statement-breakpoint
INSERT INTO `need_terms_backlog` (`need_id`) SELECT `id` FROM `needs`;
