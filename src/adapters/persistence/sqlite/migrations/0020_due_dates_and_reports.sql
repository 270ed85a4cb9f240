CREATE TABLE `need_days` (
	`organization_id` text NOT NULL,
	`day` text NOT NULL,
	`partner_id` text NOT NULL,
	`opened` integer NOT NULL,
	`resolved` integer NOT NULL,
	PRIMARY KEY(`organization_id`, `day`, `partner_id`)
);
--> statement-breakpoint
CREATE TABLE `need_due_weeks` (
	`organization_id` text NOT NULL,
	`due_week` text NOT NULL,
	`partner_id` text NOT NULL,
	`status` text NOT NULL,
	`needs` integer NOT NULL,
	PRIMARY KEY(`organization_id`, `due_week`, `partner_id`, `status`)
);
--> statement-breakpoint
CREATE TABLE `need_resolve_hours` (
	`organization_id` text NOT NULL,
	`day` text NOT NULL,
	`partner_id` text NOT NULL,
	`hours` integer NOT NULL,
	`needs` integer NOT NULL,
	PRIMARY KEY(`organization_id`, `day`, `partner_id`, `hours`)
);
--> statement-breakpoint
ALTER TABLE `needs` ADD `due_date_set_by_hand` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `needs` ADD `resolved_at` integer;--> statement-breakpoint
CREATE INDEX `needs_open_by_due` ON `needs` (`organization_id`,`due_date`,`partner_id`) WHERE "needs"."status" <> 'RESOLVED';
--> statement-breakpoint
-- Hand-written from here: the resolution time of needs resolved before this migration (their last change to
-- RESOLVED, else their last update), then the report's counts of the needs stored so far (need_days,
-- need_resolve_hours, need_due_weeks), then the triggers that keep them from here on, inside the transaction
-- that changes the need (a rollback takes them back too).
-- A day is the UTC day; a resolve time is whole hours from creation, rounded down, never below 0 (a clock
-- stepped back), as `hoursToResolve` in the domain.
UPDATE `needs` SET `resolved_at` = coalesce(
  (SELECT max(`changed_at`) FROM `need_changes` c
    WHERE c.`organization_id` = `needs`.`organization_id` AND c.`need_id` = `needs`.`id` AND c.`field` = 'status' AND c.`to_value` = 'RESOLVED'),
  `updated_at`)
WHERE `status` = 'RESOLVED';
--> statement-breakpoint
INSERT INTO `need_days` SELECT `organization_id`, `day`, `partner_id`, sum(`opened`), sum(`resolved`) FROM (
  SELECT `organization_id`, strftime('%Y-%m-%d', `created_at` / 1000, 'unixepoch') AS `day`, `partner_id`, 1 AS `opened`, 0 AS `resolved` FROM `needs`
  UNION ALL
  SELECT `organization_id`, strftime('%Y-%m-%d', `resolved_at` / 1000, 'unixepoch'), `partner_id`, 0, 1 FROM `needs` WHERE `resolved_at` IS NOT NULL
) GROUP BY 1, 2, 3;
--> statement-breakpoint
INSERT INTO `need_resolve_hours`
  SELECT `organization_id`, strftime('%Y-%m-%d', `resolved_at` / 1000, 'unixepoch'), `partner_id`, max(0, (`resolved_at` - `created_at`) / 3600000), count(*)
  FROM `needs` WHERE `resolved_at` IS NOT NULL GROUP BY 1, 2, 3, 4;
--> statement-breakpoint
CREATE TRIGGER `need_days_insert` AFTER INSERT ON `needs` BEGIN
  INSERT INTO `need_days` VALUES (new.`organization_id`, strftime('%Y-%m-%d', new.`created_at` / 1000, 'unixepoch'), new.`partner_id`, 1, 0)
    ON CONFLICT DO UPDATE SET `opened` = `opened` + 1;
  INSERT INTO `need_days` SELECT new.`organization_id`, strftime('%Y-%m-%d', new.`resolved_at` / 1000, 'unixepoch'), new.`partner_id`, 0, 1
    WHERE new.`resolved_at` IS NOT NULL
    ON CONFLICT DO UPDATE SET `resolved` = `resolved` + 1;
  INSERT INTO `need_resolve_hours` SELECT new.`organization_id`, strftime('%Y-%m-%d', new.`resolved_at` / 1000, 'unixepoch'), new.`partner_id`,
      max(0, (new.`resolved_at` - new.`created_at`) / 3600000), 1
    WHERE new.`resolved_at` IS NOT NULL
    ON CONFLICT DO UPDATE SET `needs` = `needs` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `need_days_update_opened` AFTER UPDATE OF `organization_id`, `partner_id`, `created_at` ON `needs`
WHEN old.`organization_id` IS NOT new.`organization_id` OR old.`partner_id` IS NOT new.`partner_id` OR old.`created_at` IS NOT new.`created_at` BEGIN
  UPDATE `need_days` SET `opened` = `opened` - 1
    WHERE `organization_id` = old.`organization_id` AND `day` = strftime('%Y-%m-%d', old.`created_at` / 1000, 'unixepoch') AND `partner_id` = old.`partner_id`;
  INSERT INTO `need_days` VALUES (new.`organization_id`, strftime('%Y-%m-%d', new.`created_at` / 1000, 'unixepoch'), new.`partner_id`, 1, 0)
    ON CONFLICT DO UPDATE SET `opened` = `opened` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `need_days_update_resolved` AFTER UPDATE OF `organization_id`, `partner_id`, `created_at`, `resolved_at` ON `needs`
WHEN old.`organization_id` IS NOT new.`organization_id` OR old.`partner_id` IS NOT new.`partner_id` OR old.`created_at` IS NOT new.`created_at`
  OR old.`resolved_at` IS NOT new.`resolved_at` BEGIN
  UPDATE `need_days` SET `resolved` = `resolved` - 1
    WHERE old.`resolved_at` IS NOT NULL AND `organization_id` = old.`organization_id`
      AND `day` = strftime('%Y-%m-%d', old.`resolved_at` / 1000, 'unixepoch') AND `partner_id` = old.`partner_id`;
  UPDATE `need_resolve_hours` SET `needs` = `needs` - 1
    WHERE old.`resolved_at` IS NOT NULL AND `organization_id` = old.`organization_id`
      AND `day` = strftime('%Y-%m-%d', old.`resolved_at` / 1000, 'unixepoch') AND `partner_id` = old.`partner_id`
      AND `hours` = max(0, (old.`resolved_at` - old.`created_at`) / 3600000);
  INSERT INTO `need_days` SELECT new.`organization_id`, strftime('%Y-%m-%d', new.`resolved_at` / 1000, 'unixepoch'), new.`partner_id`, 0, 1
    WHERE new.`resolved_at` IS NOT NULL
    ON CONFLICT DO UPDATE SET `resolved` = `resolved` + 1;
  INSERT INTO `need_resolve_hours` SELECT new.`organization_id`, strftime('%Y-%m-%d', new.`resolved_at` / 1000, 'unixepoch'), new.`partner_id`,
      max(0, (new.`resolved_at` - new.`created_at`) / 3600000), 1
    WHERE new.`resolved_at` IS NOT NULL
    ON CONFLICT DO UPDATE SET `needs` = `needs` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `need_days_delete` AFTER DELETE ON `needs` BEGIN
  UPDATE `need_days` SET `opened` = `opened` - 1
    WHERE `organization_id` = old.`organization_id` AND `day` = strftime('%Y-%m-%d', old.`created_at` / 1000, 'unixepoch') AND `partner_id` = old.`partner_id`;
  UPDATE `need_days` SET `resolved` = `resolved` - 1
    WHERE old.`resolved_at` IS NOT NULL AND `organization_id` = old.`organization_id`
      AND `day` = strftime('%Y-%m-%d', old.`resolved_at` / 1000, 'unixepoch') AND `partner_id` = old.`partner_id`;
  UPDATE `need_resolve_hours` SET `needs` = `needs` - 1
    WHERE old.`resolved_at` IS NOT NULL AND `organization_id` = old.`organization_id`
      AND `day` = strftime('%Y-%m-%d', old.`resolved_at` / 1000, 'unixepoch') AND `partner_id` = old.`partner_id`
      AND `hours` = max(0, (old.`resolved_at` - old.`created_at`) / 3600000);
END;
--> statement-breakpoint
-- Open needs by the week they are due (its Monday, UTC): what `isOpenAndDueBefore` counts, a week at a time.
INSERT INTO `need_due_weeks`
  SELECT `organization_id`, date(`due_date` / 1000, 'unixepoch', 'weekday 0', '-6 days'), `partner_id`, `status`, count(*)
  FROM `needs` WHERE `status` <> 'RESOLVED' AND `due_date` IS NOT NULL GROUP BY 1, 2, 3, 4;
--> statement-breakpoint
CREATE TRIGGER `need_due_weeks_insert` AFTER INSERT ON `needs` WHEN new.`status` <> 'RESOLVED' AND new.`due_date` IS NOT NULL BEGIN
  INSERT INTO `need_due_weeks` VALUES (new.`organization_id`, date(new.`due_date` / 1000, 'unixepoch', 'weekday 0', '-6 days'), new.`partner_id`, new.`status`, 1)
    ON CONFLICT DO UPDATE SET `needs` = `needs` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `need_due_weeks_update` AFTER UPDATE OF `organization_id`, `partner_id`, `status`, `due_date` ON `needs`
WHEN old.`organization_id` IS NOT new.`organization_id` OR old.`partner_id` IS NOT new.`partner_id` OR old.`status` IS NOT new.`status`
  OR old.`due_date` IS NOT new.`due_date` BEGIN
  UPDATE `need_due_weeks` SET `needs` = `needs` - 1
    WHERE old.`status` <> 'RESOLVED' AND old.`due_date` IS NOT NULL AND `organization_id` = old.`organization_id`
      AND `due_week` = date(old.`due_date` / 1000, 'unixepoch', 'weekday 0', '-6 days') AND `partner_id` = old.`partner_id` AND `status` = old.`status`;
  INSERT INTO `need_due_weeks`
    SELECT new.`organization_id`, date(new.`due_date` / 1000, 'unixepoch', 'weekday 0', '-6 days'), new.`partner_id`, new.`status`, 1
    WHERE new.`status` <> 'RESOLVED' AND new.`due_date` IS NOT NULL
    ON CONFLICT DO UPDATE SET `needs` = `needs` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `need_due_weeks_delete` AFTER DELETE ON `needs` WHEN old.`status` <> 'RESOLVED' AND old.`due_date` IS NOT NULL BEGIN
  UPDATE `need_due_weeks` SET `needs` = `needs` - 1
    WHERE `organization_id` = old.`organization_id` AND `due_week` = date(old.`due_date` / 1000, 'unixepoch', 'weekday 0', '-6 days')
      AND `partner_id` = old.`partner_id` AND `status` = old.`status`;
END;
