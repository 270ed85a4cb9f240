CREATE TABLE "need_counts" (
	"organization_id" text NOT NULL,
	"partner_id" text NOT NULL,
	"status" text NOT NULL,
	"needs" integer NOT NULL,
	CONSTRAINT "need_counts_organization_id_partner_id_status_pk" PRIMARY KEY("organization_id","partner_id","status")
);
--> statement-breakpoint
-- Needs stored before this migration are counted once; from here on the trigger keeps the counts, inside
-- the transaction that changes the need, so a rollback takes its count back too.
INSERT INTO "need_counts" SELECT "organization_id", "partner_id", "status", count(*) FROM "needs" GROUP BY 1, 2, 3;
--> statement-breakpoint
-- A move takes one from the old row and adds one to the new; the two rows are always locked in key order,
-- so two needs moving opposite ways at once cannot deadlock.
CREATE FUNCTION "need_counts_follow"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' AND (NEW.organization_id, NEW.partner_id, NEW.status) < (OLD.organization_id, OLD.partner_id, OLD.status) THEN
    INSERT INTO need_counts VALUES (NEW.organization_id, NEW.partner_id, NEW.status, 1)
      ON CONFLICT (organization_id, partner_id, status) DO UPDATE SET needs = need_counts.needs + 1;
    UPDATE need_counts SET needs = needs - 1
      WHERE organization_id = OLD.organization_id AND partner_id = OLD.partner_id AND status = OLD.status;
    RETURN NULL;
  END IF;
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    UPDATE need_counts SET needs = needs - 1
      WHERE organization_id = OLD.organization_id AND partner_id = OLD.partner_id AND status = OLD.status;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    INSERT INTO need_counts VALUES (NEW.organization_id, NEW.partner_id, NEW.status, 1)
      ON CONFLICT (organization_id, partner_id, status) DO UPDATE SET needs = need_counts.needs + 1;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "need_counts_insert_delete" AFTER INSERT OR DELETE ON "needs" FOR EACH ROW EXECUTE FUNCTION "need_counts_follow"();
--> statement-breakpoint
CREATE TRIGGER "need_counts_update" AFTER UPDATE OF "organization_id", "partner_id", "status" ON "needs" FOR EACH ROW
  WHEN (OLD.organization_id IS DISTINCT FROM NEW.organization_id OR OLD.partner_id IS DISTINCT FROM NEW.partner_id OR OLD.status IS DISTINCT FROM NEW.status)
  EXECUTE FUNCTION "need_counts_follow"();
