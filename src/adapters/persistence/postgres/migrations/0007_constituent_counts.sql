CREATE TABLE "constituent_counts" (
	"organization_id" text PRIMARY KEY NOT NULL,
	"constituents" integer NOT NULL
);
--> statement-breakpoint
-- Constituents stored before this migration are counted once; from here on the trigger keeps the count,
-- inside the transaction that adds or deletes the constituent, so a rollback takes its count back too. A
-- constituent never changes organization.
INSERT INTO "constituent_counts" SELECT "organization_id", count(*) FROM "constituents" GROUP BY 1;
--> statement-breakpoint
CREATE FUNCTION "constituent_counts_follow"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO constituent_counts VALUES (NEW.organization_id, 1)
      ON CONFLICT (organization_id) DO UPDATE SET constituents = constituent_counts.constituents + 1;
  ELSE
    UPDATE constituent_counts SET constituents = constituents - 1 WHERE organization_id = OLD.organization_id;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "constituent_counts_insert_delete" AFTER INSERT OR DELETE ON "constituents" FOR EACH ROW EXECUTE FUNCTION "constituent_counts_follow"();
