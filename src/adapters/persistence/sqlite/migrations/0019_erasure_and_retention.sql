ALTER TABLE `audit_events` ADD `counts` text;--> statement-breakpoint
ALTER TABLE `constituents` ADD `erased_at` integer;--> statement-breakpoint
ALTER TABLE `constituents` ADD `phone_terms` text DEFAULT '' NOT NULL;--> statement-breakpoint
CREATE INDEX `constituents_idle` ON `constituents` (`organization_id`,`erased_at`,`updated_at`);--> statement-breakpoint
ALTER TABLE `needs` ADD `text_cleared_at` integer;--> statement-breakpoint
CREATE INDEX `needs_text_retention` ON `needs` (`organization_id`,`status`,`text_cleared_at`,`updated_at`);--> statement-breakpoint
ALTER TABLE `organizations` ADD `constituent_retention_days` integer;--> statement-breakpoint
ALTER TABLE `organizations` ADD `need_text_retention_days` integer;--> statement-breakpoint
ALTER TABLE `organizations` ADD `retention_ran_at` integer;--> statement-breakpoint
CREATE INDEX `interactions_by_constituent` ON `interactions` (`organization_id`,`constituent_id`);
--> statement-breakpoint
-- Hand-written ----------------------------------------------------------------------------------------------
-- Phone search by any part of the number (docs/constituents.md "Search"): a phone's terms move from
-- search_terms to phone_terms, as every ending of its digits down to 3 behind the organization's phone mark
-- `o<hex>p` (phoneTermsColumn), and the full-text index covers both columns. Its secure-delete option takes
-- an erased person's terms out of its pages at once, not at some later merge (docs/privacy.md).
DROP TRIGGER `constituents_search_insert`;
--> statement-breakpoint
DROP TRIGGER `constituents_search_delete`;
--> statement-breakpoint
DROP TRIGGER `constituents_search_update`;
--> statement-breakpoint
DROP TABLE `constituent_search`;
--> statement-breakpoint
-- The old phone terms leave search_terms: `o<hex>t<digits>`, and for a +1 number `o<hex>t<the 10 after it>`.
UPDATE `constituents` SET `search_terms` = trim(
  CASE WHEN length(`phone`) = 12 AND substr(`phone`, 2, 1) = '1'
    THEN replace(replace(' ' || `search_terms` || ' ', ' o' || replace(`organization_id`, '-', '') || 't' || substr(`phone`, 2) || ' ', ' '),
      ' o' || replace(`organization_id`, '-', '') || 't' || substr(`phone`, 3) || ' ', ' ')
    ELSE replace(' ' || `search_terms` || ' ', ' o' || replace(`organization_id`, '-', '') || 't' || substr(`phone`, 2) || ' ', ' ')
  END
) WHERE `phone` IS NOT NULL;
--> statement-breakpoint
UPDATE `constituents` SET `phone_terms` = (
  SELECT group_concat('o' || replace(`organization_id`, '-', '') || 'p' || substr(`phone`, 1 + n), ' ' ORDER BY n)
  FROM (WITH RECURSIVE positions(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM positions WHERE n < 15) SELECT n FROM positions)
  WHERE n <= max(1, length(`phone`) - 3)
) WHERE `phone` IS NOT NULL;
--> statement-breakpoint
CREATE VIRTUAL TABLE `constituent_search` USING fts5(
  `search_terms`,
  `phone_terms`,
  content='constituents',
  content_rowid='seq',
  tokenize='unicode61 remove_diacritics 2',
  prefix='35 36 37'
);
--> statement-breakpoint
INSERT INTO `constituent_search`(`constituent_search`, `rank`) VALUES ('secure-delete', 1);
--> statement-breakpoint
INSERT INTO `constituent_search`(`constituent_search`) VALUES ('rebuild');
--> statement-breakpoint
CREATE TRIGGER `constituents_search_insert` AFTER INSERT ON `constituents` BEGIN
  INSERT INTO `constituent_search`(rowid, `search_terms`, `phone_terms`) VALUES (new.`seq`, new.`search_terms`, new.`phone_terms`);
END;
--> statement-breakpoint
CREATE TRIGGER `constituents_search_delete` AFTER DELETE ON `constituents` BEGIN
  INSERT INTO `constituent_search`(`constituent_search`, rowid, `search_terms`, `phone_terms`)
    VALUES ('delete', old.`seq`, old.`search_terms`, old.`phone_terms`);
END;
--> statement-breakpoint
CREATE TRIGGER `constituents_search_update` AFTER UPDATE OF `search_terms`, `phone_terms` ON `constituents` BEGIN
  INSERT INTO `constituent_search`(`constituent_search`, rowid, `search_terms`, `phone_terms`)
    VALUES ('delete', old.`seq`, old.`search_terms`, old.`phone_terms`);
  INSERT INTO `constituent_search`(rowid, `search_terms`, `phone_terms`) VALUES (new.`seq`, new.`search_terms`, new.`phone_terms`);
END;
