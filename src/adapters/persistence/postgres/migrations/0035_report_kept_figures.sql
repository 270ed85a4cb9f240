CREATE TABLE "need_due_totals" (
	"organization_id" text NOT NULL,
	"partner_id" text NOT NULL,
	"status" text NOT NULL,
	"needs" integer NOT NULL,
	CONSTRAINT "need_due_totals_organization_id_partner_id_status_pk" PRIMARY KEY("organization_id","partner_id","status")
);
--> statement-breakpoint
CREATE TABLE "need_resolve_months" (
	"organization_id" text NOT NULL,
	"month" text NOT NULL,
	"partner_id" text NOT NULL,
	"hours" integer NOT NULL,
	"needs" integer NOT NULL,
	CONSTRAINT "need_resolve_months_organization_id_month_partner_id_hours_pk" PRIMARY KEY("organization_id","month","partner_id","hours")
);

--> statement-breakpoint
-- Hand-written from here: the needs stored so far counted into need_resolve_months (per month of the
-- resolution's UTC day, whole hours as need_resolve_hours counts them) and need_due_totals (open needs with a
-- due date), then need_days_follow made again to keep both from here on. Its rows still change in one key
-- order (need_days, need_resolve_hours, need_resolve_months, need_due_weeks, need_due_totals), so two needs
-- changing opposite ways at once cannot deadlock.
CREATE FUNCTION "need_report_month"(at timestamptz) RETURNS text LANGUAGE sql STABLE AS $$
  SELECT to_char(at AT TIME ZONE 'UTC', 'YYYY-MM')
$$;
--> statement-breakpoint
INSERT INTO "need_resolve_months"
  SELECT "organization_id", need_report_month("resolved_at"), "partner_id", need_resolve_hours_of("created_at", "resolved_at"), count(*)
  FROM "needs" WHERE "resolved_at" IS NOT NULL GROUP BY 1, 2, 3, 4;
--> statement-breakpoint
INSERT INTO "need_due_totals"
  SELECT "organization_id", "partner_id", "status", count(*) FROM "needs" WHERE "status" <> 'RESOLVED' AND "due_date" IS NOT NULL GROUP BY 1, 2, 3;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "need_days_follow"() RETURNS trigger LANGUAGE plpgsql AS $$
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
  INSERT INTO need_resolve_months (organization_id, month, partner_id, hours, needs)
    SELECT o, m, p, h, sum(n) FROM (
      SELECT now_is.organization_id, need_report_month(now_is.resolved_at), now_is.partner_id,
          need_resolve_hours_of(now_is.created_at, now_is.resolved_at), 1 WHERE now_is.resolved_at IS NOT NULL
      UNION ALL SELECT was.organization_id, need_report_month(was.resolved_at), was.partner_id,
          need_resolve_hours_of(was.created_at, was.resolved_at), -1 WHERE was.resolved_at IS NOT NULL
    ) AS change (o, m, p, h, n)
    GROUP BY o, m, p, h HAVING sum(n) <> 0 ORDER BY o, m, p, h
    ON CONFLICT (organization_id, month, partner_id, hours) DO UPDATE SET needs = need_resolve_months.needs + excluded.needs;
  INSERT INTO need_due_weeks (organization_id, due_week, partner_id, status, needs)
    SELECT o, d, p, s, sum(n) FROM (
      SELECT now_is.organization_id, need_report_week(now_is.due_date), now_is.partner_id, now_is.status, 1
        WHERE now_is.status <> 'RESOLVED' AND now_is.due_date IS NOT NULL
      UNION ALL SELECT was.organization_id, need_report_week(was.due_date), was.partner_id, was.status, -1
        WHERE was.status <> 'RESOLVED' AND was.due_date IS NOT NULL
    ) AS change (o, d, p, s, n)
    GROUP BY o, d, p, s HAVING sum(n) <> 0 ORDER BY o, d, p, s
    ON CONFLICT (organization_id, due_week, partner_id, status) DO UPDATE SET needs = need_due_weeks.needs + excluded.needs;
  INSERT INTO need_due_totals (organization_id, partner_id, status, needs)
    SELECT o, p, s, sum(n) FROM (
      SELECT now_is.organization_id, now_is.partner_id, now_is.status, 1 WHERE now_is.status <> 'RESOLVED' AND now_is.due_date IS NOT NULL
      UNION ALL SELECT was.organization_id, was.partner_id, was.status, -1 WHERE was.status <> 'RESOLVED' AND was.due_date IS NOT NULL
    ) AS change (o, p, s, n)
    GROUP BY o, p, s HAVING sum(n) <> 0 ORDER BY o, p, s
    ON CONFLICT (organization_id, partner_id, status) DO UPDATE SET needs = need_due_totals.needs + excluded.needs;
  RETURN NULL;
END
$$;
