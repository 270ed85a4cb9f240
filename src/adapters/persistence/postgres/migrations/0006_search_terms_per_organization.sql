-- Search terms carry their organization (src/adapters/persistence/sql/sql-dialect.ts): each term is
-- `o<organization hex>t<word>` instead of the organization's token `o<hex>` beside `t<word>`, so a search
-- reads only its organization's entries of the GIN index. Terms stored before are rewritten from their old
-- form `o<hex> t<w1> t<w2>` (letters and digits, one space apart); the index follows the column.
UPDATE "constituents" SET "search_terms" =
  ltrim(replace(substr("search_terms", 34), ' t', ' ' || substr("search_terms", 1, 33) || 't'));
