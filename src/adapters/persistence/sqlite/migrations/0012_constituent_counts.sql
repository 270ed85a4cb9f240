CREATE TABLE `constituent_counts` (
	`organization_id` text PRIMARY KEY NOT NULL,
	`constituents` integer NOT NULL
);
--> statement-breakpoint
-- Constituents stored before this migration are counted once; from here on the triggers keep the count,
-- inside the transaction that adds or deletes the constituent, so a rollback takes its count back too. A
-- constituent never changes organization.
INSERT INTO `constituent_counts` SELECT `organization_id`, count(*) FROM `constituents` GROUP BY 1;
--> statement-breakpoint
CREATE TRIGGER `constituent_counts_insert` AFTER INSERT ON `constituents` BEGIN
  INSERT INTO `constituent_counts` VALUES (new.`organization_id`, 1)
    ON CONFLICT DO UPDATE SET `constituents` = `constituents` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `constituent_counts_delete` AFTER DELETE ON `constituents` BEGIN
  UPDATE `constituent_counts` SET `constituents` = `constituents` - 1 WHERE `organization_id` = old.`organization_id`;
END;
