-- Email keys are mailboxes (src/domain/messaging/mailbox.ts): the forms of an address that reach one mailbox
-- are one key, for duplicate detection, search and the limits on what one person is sent. The keys stored
-- before, lower-cased addresses, are rewritten as mailboxOf writes them, a step at a time (an address has
-- one @). The indexes of the phone and the email key lead with the contact, so that what one person was sent
-- can be counted across organizations; they are made again once the keys are rewritten.
DROP INDEX `constituents_by_phone`;--> statement-breakpoint
DROP INDEX `constituents_by_email`;--> statement-breakpoint
-- Quotes around a name that needs none: `"ana"@` is `ana@`.
UPDATE `constituents` SET `email_key` = substr(`email_key`, 2, instr(`email_key`, '@') - 3) || substr(`email_key`, instr(`email_key`, '@'))
  WHERE `email_key` LIKE '"%"@%' AND instr(`email_key`, '@') > 3
    AND instr(substr(`email_key`, 2, instr(`email_key`, '@') - 3), '"') = 0
    AND instr(substr(`email_key`, 2, instr(`email_key`, '@') - 3), '\') = 0;--> statement-breakpoint
-- No `+tag` after a name: `ana+food@` is `ana@`.
UPDATE `constituents` SET `email_key` = substr(`email_key`, 1, instr(`email_key`, '+') - 1) || substr(`email_key`, instr(`email_key`, '@'))
  WHERE instr(`email_key`, '+') > 1 AND instr(`email_key`, '+') < instr(`email_key`, '@');--> statement-breakpoint
-- Quotes the tag followed: `"ana"+food@` is `"ana"@` by now, so `ana@`.
UPDATE `constituents` SET `email_key` = substr(`email_key`, 2, instr(`email_key`, '@') - 3) || substr(`email_key`, instr(`email_key`, '@'))
  WHERE `email_key` LIKE '"%"@%' AND instr(`email_key`, '@') > 3
    AND instr(substr(`email_key`, 2, instr(`email_key`, '@') - 3), '"') = 0
    AND instr(substr(`email_key`, 2, instr(`email_key`, '@') - 3), '\') = 0;--> statement-breakpoint
-- Gmail: no dots in the name, googlemail.com is gmail.com.
UPDATE `constituents` SET `email_key` = replace(substr(`email_key`, 1, instr(`email_key`, '@') - 1), '.', '') || '@gmail.com'
  WHERE `email_key` LIKE '%@gmail.com' OR `email_key` LIKE '%@googlemail.com';--> statement-breakpoint
CREATE INDEX `constituents_by_phone` ON `constituents` (`phone`,`organization_id`);--> statement-breakpoint
CREATE INDEX `constituents_by_email` ON `constituents` (`email_key`,`organization_id`);
