DROP INDEX `needs_open_by_due`;--> statement-breakpoint
CREATE INDEX `needs_open_by_due` ON `needs` (`organization_id`,`due_date`,`partner_id`,`status`) WHERE "needs"."status" <> 'RESOLVED';