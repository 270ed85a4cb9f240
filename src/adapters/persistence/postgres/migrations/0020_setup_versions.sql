-- An organization's setup version: a token drawn anew with every change to its partners or to what its
-- webhook endpoints subscribe to, in the transaction of that change. Drawn at random, not counted: a
-- database restored from a backup would count again through numbers an instance may have kept. An
-- instance keeps what it read of them (src/adapters/persistence/postgres/setup-cache.ts) under the version
-- it read first, and a transaction that uses what it kept checks, among its own statements, that the
-- version is still that one (`check_setup_version`): so a create of a need sends no read before its writes,
-- and uses nothing another instance has changed since. PostgreSQL only: SQLite's statements cost no round
-- trip.
CREATE TABLE "setup_versions" (
  "organization_id" text PRIMARY KEY NOT NULL REFERENCES "organizations"("id") ON DELETE CASCADE,
  "version" text NOT NULL
);
--> statement-breakpoint
CREATE FUNCTION "setup_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  organization text;
BEGIN
  IF TG_OP = 'DELETE' THEN
    organization := OLD."organization_id";
  ELSE
    organization := NEW."organization_id";
  END IF;
  INSERT INTO "setup_versions" ("organization_id", "version") VALUES (organization, gen_random_uuid()::text)
    ON CONFLICT ("organization_id") DO UPDATE SET "version" = EXCLUDED."version";
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "partners_setup_changed" AFTER INSERT OR UPDATE OR DELETE ON "partners"
  FOR EACH ROW EXECUTE FUNCTION "setup_changed"();
--> statement-breakpoint
CREATE TRIGGER "webhook_endpoints_added_or_removed" AFTER INSERT OR DELETE ON "webhook_endpoints"
  FOR EACH ROW EXECUTE FUNCTION "setup_changed"();
--> statement-breakpoint
-- What decides a subscription (`subscribedTo`): whether the endpoint is enabled and the events it lists. Its
-- failure count changes with deliveries and is not kept.
CREATE TRIGGER "webhook_endpoints_subscriptions_changed" AFTER UPDATE ON "webhook_endpoints"
  FOR EACH ROW WHEN (OLD."enabled" IS DISTINCT FROM NEW."enabled" OR OLD."events" IS DISTINCT FROM NEW."events")
  EXECUTE FUNCTION "setup_changed"();
--> statement-breakpoint
-- Fails the transaction it runs in unless the organization's setup version is still `seen` ('': never changed).
CREATE FUNCTION "check_setup_version"(organization text, seen text) RETURNS text LANGUAGE plpgsql STABLE AS $$
BEGIN
  IF coalesce((SELECT "version" FROM "setup_versions" WHERE "organization_id" = organization), '') <> seen THEN
    RAISE EXCEPTION 'the partners or webhook subscriptions of organization % changed', organization
      USING ERRCODE = 'SV001';
  END IF;
  RETURN seen;
END
$$;
