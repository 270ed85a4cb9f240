CREATE TABLE `need_due_totals` (
	`organization_id` text NOT NULL,
	`partner_id` text NOT NULL,
	`status` text NOT NULL,
	`needs` integer NOT NULL,
	PRIMARY KEY(`organization_id`, `partner_id`, `status`)
) WITHOUT ROWID;
--> statement-breakpoint
CREATE TABLE `need_resolve_months` (
	`organization_id` text NOT NULL,
	`month` text NOT NULL,
	`partner_id` text NOT NULL,
	`hours` integer NOT NULL,
	`needs` integer NOT NULL,
	PRIMARY KEY(`organization_id`, `month`, `partner_id`, `hours`)
) WITHOUT ROWID;

--> statement-breakpoint
-- Hand-written from here (WITHOUT ROWID above too, as migration 0022 made the other kept counts): the needs
-- stored so far counted into need_resolve_months (per month of the resolution's UTC day, whole hours as
-- need_resolve_hours counts them) and need_due_totals (open needs with a due date), then the triggers that
-- keep both from here on, in the transaction that changes the need.
INSERT INTO `need_resolve_months`
  SELECT `organization_id`, strftime('%Y-%m', `resolved_at` / 1000, 'unixepoch'), `partner_id`, max(0, (`resolved_at` - `created_at`) / 3600000), count(*)
  FROM `needs` WHERE `resolved_at` IS NOT NULL GROUP BY 1, 2, 3, 4;
--> statement-breakpoint
INSERT INTO `need_due_totals`
  SELECT `organization_id`, `partner_id`, `status`, count(*) FROM `needs` WHERE `status` <> 'RESOLVED' AND `due_date` IS NOT NULL GROUP BY 1, 2, 3;
--> statement-breakpoint
CREATE TRIGGER `need_report_totals_insert` AFTER INSERT ON `needs` BEGIN
  INSERT INTO `need_resolve_months` SELECT new.`organization_id`, strftime('%Y-%m', new.`resolved_at` / 1000, 'unixepoch'), new.`partner_id`,
      max(0, (new.`resolved_at` - new.`created_at`) / 3600000), 1
    WHERE new.`resolved_at` IS NOT NULL
    ON CONFLICT DO UPDATE SET `needs` = `needs` + 1;
  INSERT INTO `need_due_totals` SELECT new.`organization_id`, new.`partner_id`, new.`status`, 1
    WHERE new.`status` <> 'RESOLVED' AND new.`due_date` IS NOT NULL
    ON CONFLICT DO UPDATE SET `needs` = `needs` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `need_resolve_months_update` AFTER UPDATE OF `organization_id`, `partner_id`, `created_at`, `resolved_at` ON `needs`
WHEN old.`organization_id` IS NOT new.`organization_id` OR old.`partner_id` IS NOT new.`partner_id` OR old.`created_at` IS NOT new.`created_at`
  OR old.`resolved_at` IS NOT new.`resolved_at` BEGIN
  UPDATE `need_resolve_months` SET `needs` = `needs` - 1
    WHERE old.`resolved_at` IS NOT NULL AND `organization_id` = old.`organization_id`
      AND `month` = strftime('%Y-%m', old.`resolved_at` / 1000, 'unixepoch') AND `partner_id` = old.`partner_id`
      AND `hours` = max(0, (old.`resolved_at` - old.`created_at`) / 3600000);
  INSERT INTO `need_resolve_months` SELECT new.`organization_id`, strftime('%Y-%m', new.`resolved_at` / 1000, 'unixepoch'), new.`partner_id`,
      max(0, (new.`resolved_at` - new.`created_at`) / 3600000), 1
    WHERE new.`resolved_at` IS NOT NULL
    ON CONFLICT DO UPDATE SET `needs` = `needs` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `need_due_totals_update` AFTER UPDATE OF `organization_id`, `partner_id`, `status`, `due_date` ON `needs`
WHEN old.`organization_id` IS NOT new.`organization_id` OR old.`partner_id` IS NOT new.`partner_id` OR old.`status` IS NOT new.`status`
  OR old.`due_date` IS NOT new.`due_date` BEGIN
  UPDATE `need_due_totals` SET `needs` = `needs` - 1
    WHERE old.`status` <> 'RESOLVED' AND old.`due_date` IS NOT NULL AND `organization_id` = old.`organization_id`
      AND `partner_id` = old.`partner_id` AND `status` = old.`status`;
  INSERT INTO `need_due_totals` SELECT new.`organization_id`, new.`partner_id`, new.`status`, 1
    WHERE new.`status` <> 'RESOLVED' AND new.`due_date` IS NOT NULL
    ON CONFLICT DO UPDATE SET `needs` = `needs` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `need_report_totals_delete` AFTER DELETE ON `needs` BEGIN
  UPDATE `need_resolve_months` SET `needs` = `needs` - 1
    WHERE old.`resolved_at` IS NOT NULL AND `organization_id` = old.`organization_id`
      AND `month` = strftime('%Y-%m', old.`resolved_at` / 1000, 'unixepoch') AND `partner_id` = old.`partner_id`
      AND `hours` = max(0, (old.`resolved_at` - old.`created_at`) / 3600000);
  UPDATE `need_due_totals` SET `needs` = `needs` - 1
    WHERE old.`status` <> 'RESOLVED' AND old.`due_date` IS NOT NULL AND `organization_id` = old.`organization_id`
      AND `partner_id` = old.`partner_id` AND `status` = old.`status`;
END;
