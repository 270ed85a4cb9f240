-- Search terms carry their organization (src/adapters/persistence/sql/sql-dialect.ts): each term is
-- `o<organization hex>t<word>` instead of the organization's token `o<hex>` beside `t<word>`, so a search reads
-- only its organization's entries. The prefix indexes hold the mark (34 characters) and a word's first one to
-- three letters, as `2 3 4` did for `t<word>`. Terms stored before are rewritten from their old form.
DROP TRIGGER `constituents_search_insert`;
--> statement-breakpoint
DROP TRIGGER `constituents_search_delete`;
--> statement-breakpoint
DROP TRIGGER `constituents_search_update`;
--> statement-breakpoint
DROP TABLE `constituent_search`;
--> statement-breakpoint
-- `o<hex> t<w1> t<w2>` → `o<hex>t<w1> o<hex>t<w2>` (terms are letters and digits, one space apart).
UPDATE `constituents` SET `search_terms` =
  ltrim(replace(substr(`search_terms`, 34), ' t', ' ' || substr(`search_terms`, 1, 33) || 't'));
--> statement-breakpoint
CREATE VIRTUAL TABLE `constituent_search` USING fts5(
  `search_terms`,
  content='constituents',
  content_rowid='seq',
  tokenize='unicode61 remove_diacritics 2',
  prefix='35 36 37'
);
--> statement-breakpoint
INSERT INTO `constituent_search`(`constituent_search`) VALUES ('rebuild');
--> statement-breakpoint
CREATE TRIGGER `constituents_search_insert` AFTER INSERT ON `constituents` BEGIN
  INSERT INTO `constituent_search`(rowid, `search_terms`) VALUES (new.`seq`, new.`search_terms`);
END;
--> statement-breakpoint
CREATE TRIGGER `constituents_search_delete` AFTER DELETE ON `constituents` BEGIN
  INSERT INTO `constituent_search`(`constituent_search`, rowid, `search_terms`) VALUES ('delete', old.`seq`, old.`search_terms`);
END;
--> statement-breakpoint
CREATE TRIGGER `constituents_search_update` AFTER UPDATE OF `search_terms` ON `constituents` BEGIN
  INSERT INTO `constituent_search`(`constituent_search`, rowid, `search_terms`) VALUES ('delete', old.`seq`, old.`search_terms`);
  INSERT INTO `constituent_search`(rowid, `search_terms`) VALUES (new.`seq`, new.`search_terms`);
END;
