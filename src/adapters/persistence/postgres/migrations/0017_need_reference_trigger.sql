-- A need inserted without a reference number takes the next of its organization's sequence as its row goes
-- in (docs/api/needs.md "Reference numbers"). The UPDATE holds the organization's row until the transaction ends:
-- concurrent creates queue on it and never share a number, and a rolled-back create gives its number back.
-- Taken by the insert, the row is locked only from the insert on, which a create sends with COMMIT.
-- A trigger, not a data-modifying CTE: the insert stays the repository's one prepared statement, for one row
-- or many, and a multi-row insert numbers its rows in the order of its VALUES. The text is
-- formatReferenceNumber's (src/domain/needs/need.ts), checked against it on every database by
-- tests/adapters/persistence/need-numbering-contract.ts.
CREATE FUNCTION "need_take_reference"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  taken integer;
  code text;
BEGIN
  UPDATE "organizations" SET "need_sequence" = "need_sequence" + 1 WHERE "id" = NEW."organization_id"
    RETURNING "need_sequence", "short_code" INTO taken, code;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'no organization % to number a need of', NEW."organization_id" USING ERRCODE = 'foreign_key_violation';
  END IF;
  NEW."reference_number" := coalesce(code, 'REQ') || '-' || taken;
  RETURN NEW;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "needs_take_reference" BEFORE INSERT ON "needs"
  FOR EACH ROW WHEN (NEW."reference_number" IS NULL) EXECUTE FUNCTION "need_take_reference"();
