CREATE TABLE `need_counts` (
	`organization_id` text NOT NULL,
	`partner_id` text NOT NULL,
	`status` text NOT NULL,
	`needs` integer NOT NULL,
	PRIMARY KEY(`organization_id`, `partner_id`, `status`)
);
--> statement-breakpoint
-- Needs stored before this migration are counted once; from here on the triggers keep the counts, inside
-- the transaction that changes the need, so a rollback takes its count back too.
INSERT INTO `need_counts` SELECT `organization_id`, `partner_id`, `status`, count(*) FROM `needs` GROUP BY 1, 2, 3;
--> statement-breakpoint
CREATE TRIGGER `need_counts_insert` AFTER INSERT ON `needs` BEGIN
  INSERT INTO `need_counts` VALUES (new.`organization_id`, new.`partner_id`, new.`status`, 1)
    ON CONFLICT DO UPDATE SET `needs` = `needs` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `need_counts_update` AFTER UPDATE OF `organization_id`, `partner_id`, `status` ON `needs`
WHEN old.`organization_id` IS NOT new.`organization_id` OR old.`partner_id` IS NOT new.`partner_id` OR old.`status` IS NOT new.`status` BEGIN
  UPDATE `need_counts` SET `needs` = `needs` - 1
    WHERE `organization_id` = old.`organization_id` AND `partner_id` = old.`partner_id` AND `status` = old.`status`;
  INSERT INTO `need_counts` VALUES (new.`organization_id`, new.`partner_id`, new.`status`, 1)
    ON CONFLICT DO UPDATE SET `needs` = `needs` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `need_counts_delete` AFTER DELETE ON `needs` BEGIN
  UPDATE `need_counts` SET `needs` = `needs` - 1
    WHERE `organization_id` = old.`organization_id` AND `partner_id` = old.`partner_id` AND `status` = old.`status`;
END;
