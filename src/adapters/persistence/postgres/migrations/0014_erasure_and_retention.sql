DROP INDEX "constituents_search";--> statement-breakpoint
ALTER TABLE "audit_events" ADD COLUMN "counts" jsonb;--> statement-breakpoint
ALTER TABLE "constituents" ADD COLUMN "erased_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "constituents" ADD COLUMN "phone_terms" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "needs" ADD COLUMN "text_cleared_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "organizations" ADD COLUMN "constituent_retention_days" integer;--> statement-breakpoint
ALTER TABLE "organizations" ADD COLUMN "need_text_retention_days" integer;--> statement-breakpoint
ALTER TABLE "organizations" ADD COLUMN "retention_ran_at" timestamp (3) with time zone;--> statement-breakpoint
CREATE INDEX "constituents_idle" ON "constituents" USING btree ("organization_id","erased_at","updated_at");--> statement-breakpoint
CREATE INDEX "interactions_by_constituent" ON "interactions" USING btree ("organization_id","constituent_id");--> statement-breakpoint
CREATE INDEX "needs_text_retention" ON "needs" USING btree ("organization_id","status","text_cleared_at","updated_at");--> statement-breakpoint
CREATE INDEX "constituents_search" ON "constituents" USING gin (to_tsvector('simple', "search_terms" || ' ' || "phone_terms"));
--> statement-breakpoint
-- Hand-written ----------------------------------------------------------------------------------------------
-- Phone search by any part of the number (docs/constituents.md "Search"): a phone's terms move from
-- search_terms to phone_terms, as every ending of its digits down to 3 behind the organization's phone mark
-- `o<hex>p` (phoneTermsColumn), in a GIN index of their own. The old phone terms leave search_terms:
-- `o<hex>t<digits>`, and for a +1 number `o<hex>t<the 10 after it>`.
UPDATE "constituents" SET "search_terms" = trim(
  CASE WHEN length("phone") = 12 AND substr("phone", 2, 1) = '1'
    THEN replace(replace(' ' || "search_terms" || ' ', ' o' || replace("organization_id", '-', '') || 't' || substr("phone", 2) || ' ', ' '),
      ' o' || replace("organization_id", '-', '') || 't' || substr("phone", 3) || ' ', ' ')
    ELSE replace(' ' || "search_terms" || ' ', ' o' || replace("organization_id", '-', '') || 't' || substr("phone", 2) || ' ', ' ')
  END
) WHERE "phone" IS NOT NULL;
--> statement-breakpoint
UPDATE "constituents" SET "phone_terms" = (
  SELECT string_agg('o' || replace("organization_id", '-', '') || 'p' || substr("phone", 1 + n), ' ' ORDER BY n)
  FROM generate_series(1, greatest(1, length("phone") - 3)) AS n
) WHERE "phone" IS NOT NULL;
