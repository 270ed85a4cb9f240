-- Constituent search (docs/constituents.md): an FTS5 index over constituents.search_terms, kept in step by triggers.
-- External content: the index stores only tokens; rows come from constituents through its stable `seq`.
CREATE VIRTUAL TABLE `constituent_search` USING fts5(
  `search_terms`,
  content='constituents',
  content_rowid='seq',
  tokenize='unicode61 remove_diacritics 2',
  prefix='2 3 4'
);
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
