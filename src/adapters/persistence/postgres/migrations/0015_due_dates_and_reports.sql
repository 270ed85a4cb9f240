CREATE TABLE "need_days" (
	"organization_id" text NOT NULL,
	"day" text NOT NULL,
	"partner_id" text NOT NULL,
	"opened" integer NOT NULL,
	"resolved" integer NOT NULL,
	CONSTRAINT "need_days_organization_id_day_partner_id_pk" PRIMARY KEY("organization_id","day","partner_id")
);
--> statement-breakpoint
CREATE TABLE "need_due_weeks" (
	"organization_id" text NOT NULL,
	"due_week" text NOT NULL,
	"partner_id" text NOT NULL,
	"status" text NOT NULL,
	"needs" integer NOT NULL,
	CONSTRAINT "need_due_weeks_organization_id_due_week_partner_id_status_pk" PRIMARY KEY("organization_id","due_week","partner_id","status")
);
--> statement-breakpoint
CREATE TABLE "need_resolve_hours" (
	"organization_id" text NOT NULL,
	"day" text NOT NULL,
	"partner_id" text NOT NULL,
	"hours" integer NOT NULL,
	"needs" integer NOT NULL,
	CONSTRAINT "need_resolve_hours_organization_id_day_partner_id_hours_pk" PRIMARY KEY("organization_id","day","partner_id","hours")
);
--> statement-breakpoint
ALTER TABLE "needs" ADD COLUMN "due_date_set_by_hand" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "needs" ADD COLUMN "resolved_at" timestamp (3) with time zone;--> statement-breakpoint
CREATE INDEX "needs_open_by_due" ON "needs" USING btree ("organization_id","due_date","partner_id") WHERE "needs"."status" <> 'RESOLVED';
--> statement-breakpoint
-- Hand-written from here: the resolution time of needs resolved before this migration (their last change to
-- RESOLVED, else their last update), then the report's counts of the needs stored so far (need_days,
-- need_resolve_hours, need_due_weeks), then the triggers that keep them from here on, inside the transaction
-- that changes the need (a rollback takes them back too).
-- A day is the UTC day; a resolve time is whole hours from creation, rounded down, never below 0 (a clock
-- stepped back), as `hoursToResolve` in the domain.
UPDATE "needs" SET "resolved_at" = coalesce(
  (SELECT max(c."changed_at") FROM "need_changes" c
    WHERE c."organization_id" = "needs"."organization_id" AND c."need_id" = "needs"."id" AND c."field" = 'status' AND c."to_value" = 'RESOLVED'),
  "updated_at")
WHERE "status" = 'RESOLVED';
--> statement-breakpoint
CREATE FUNCTION "need_report_day"(at timestamptz) RETURNS text LANGUAGE sql STABLE AS $$
  SELECT to_char(at AT TIME ZONE 'UTC', 'YYYY-MM-DD')
$$;
--> statement-breakpoint
-- The Monday (UTC) of the week of a time, as need_due_weeks keeps it.
CREATE FUNCTION "need_report_week"(at timestamptz) RETURNS text LANGUAGE sql STABLE AS $$
  SELECT to_char(date_trunc('week', at AT TIME ZONE 'UTC'), 'YYYY-MM-DD')
$$;
--> statement-breakpoint
CREATE FUNCTION "need_resolve_hours_of"(created timestamptz, resolved timestamptz) RETURNS integer LANGUAGE sql IMMUTABLE AS $$
  SELECT GREATEST(0, floor(extract(epoch FROM resolved - created) / 3600))::integer
$$;
--> statement-breakpoint
INSERT INTO "need_days" SELECT "organization_id", "day", "partner_id", sum("opened"), sum("resolved") FROM (
  SELECT "organization_id", need_report_day("created_at") AS "day", "partner_id", 1 AS "opened", 0 AS "resolved" FROM "needs"
  UNION ALL
  SELECT "organization_id", need_report_day("resolved_at"), "partner_id", 0, 1 FROM "needs" WHERE "resolved_at" IS NOT NULL
) AS "counted" GROUP BY 1, 2, 3;
--> statement-breakpoint
INSERT INTO "need_resolve_hours"
  SELECT "organization_id", need_report_day("resolved_at"), "partner_id", need_resolve_hours_of("created_at", "resolved_at"), count(*)
  FROM "needs" WHERE "resolved_at" IS NOT NULL GROUP BY 1, 2, 3, 4;
--> statement-breakpoint
-- Open needs by the week they are due (its Monday, UTC): what `isOpenAndDueBefore` counts, a week at a time.
INSERT INTO "need_due_weeks"
  SELECT "organization_id", need_report_week("due_date"), "partner_id", "status", count(*)
  FROM "needs" WHERE "status" <> 'RESOLVED' AND "due_date" IS NOT NULL GROUP BY 1, 2, 3, 4;
--> statement-breakpoint
-- What a need counts (+1) and counted (-1) is summed per row and applied in key order, need_days, then
-- need_resolve_hours, then need_due_weeks, so two needs changing opposite ways at once cannot deadlock.
CREATE FUNCTION "need_days_follow"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  was needs;
  now_is needs;
BEGIN
  IF TG_OP <> 'INSERT' THEN was := OLD; END IF;
  IF TG_OP <> 'DELETE' THEN now_is := NEW; END IF;
  INSERT INTO need_days (organization_id, day, partner_id, opened, resolved)
    SELECT o, d, p, sum(op), sum(re) FROM (
      SELECT now_is.organization_id, need_report_day(now_is.created_at), now_is.partner_id, 1, 0 WHERE now_is.id IS NOT NULL
      UNION ALL SELECT now_is.organization_id, need_report_day(now_is.resolved_at), now_is.partner_id, 0, 1 WHERE now_is.resolved_at IS NOT NULL
      UNION ALL SELECT was.organization_id, need_report_day(was.created_at), was.partner_id, -1, 0 WHERE was.id IS NOT NULL
      UNION ALL SELECT was.organization_id, need_report_day(was.resolved_at), was.partner_id, 0, -1 WHERE was.resolved_at IS NOT NULL
    ) AS change (o, d, p, op, re)
    GROUP BY o, d, p HAVING sum(op) <> 0 OR sum(re) <> 0 ORDER BY o, d, p
    ON CONFLICT (organization_id, day, partner_id)
      DO UPDATE SET opened = need_days.opened + excluded.opened, resolved = need_days.resolved + excluded.resolved;
  INSERT INTO need_resolve_hours (organization_id, day, partner_id, hours, needs)
    SELECT o, d, p, h, sum(n) FROM (
      SELECT now_is.organization_id, need_report_day(now_is.resolved_at), now_is.partner_id,
          need_resolve_hours_of(now_is.created_at, now_is.resolved_at), 1 WHERE now_is.resolved_at IS NOT NULL
      UNION ALL SELECT was.organization_id, need_report_day(was.resolved_at), was.partner_id,
          need_resolve_hours_of(was.created_at, was.resolved_at), -1 WHERE was.resolved_at IS NOT NULL
    ) AS change (o, d, p, h, n)
    GROUP BY o, d, p, h HAVING sum(n) <> 0 ORDER BY o, d, p, h
    ON CONFLICT (organization_id, day, partner_id, hours) DO UPDATE SET needs = need_resolve_hours.needs + excluded.needs;
  INSERT INTO need_due_weeks (organization_id, due_week, partner_id, status, needs)
    SELECT o, d, p, s, sum(n) FROM (
      SELECT now_is.organization_id, need_report_week(now_is.due_date), now_is.partner_id, now_is.status, 1
        WHERE now_is.status <> 'RESOLVED' AND now_is.due_date IS NOT NULL
      UNION ALL SELECT was.organization_id, need_report_week(was.due_date), was.partner_id, was.status, -1
        WHERE was.status <> 'RESOLVED' AND was.due_date IS NOT NULL
    ) AS change (o, d, p, s, n)
    GROUP BY o, d, p, s HAVING sum(n) <> 0 ORDER BY o, d, p, s
    ON CONFLICT (organization_id, due_week, partner_id, status) DO UPDATE SET needs = need_due_weeks.needs + excluded.needs;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "need_days_insert_delete" AFTER INSERT OR DELETE ON "needs" FOR EACH ROW EXECUTE FUNCTION "need_days_follow"();
--> statement-breakpoint
CREATE TRIGGER "need_days_update" AFTER UPDATE OF "organization_id", "partner_id", "created_at", "resolved_at", "status", "due_date" ON "needs"
  FOR EACH ROW
  WHEN (OLD.organization_id IS DISTINCT FROM NEW.organization_id OR OLD.partner_id IS DISTINCT FROM NEW.partner_id
    OR OLD.created_at IS DISTINCT FROM NEW.created_at OR OLD.resolved_at IS DISTINCT FROM NEW.resolved_at
    OR OLD.status IS DISTINCT FROM NEW.status OR OLD.due_date IS DISTINCT FROM NEW.due_date)
  EXECUTE FUNCTION "need_days_follow"();
