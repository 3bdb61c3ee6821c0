-- Hand-written: contact search's FTS5 trigram index (internal/contactsearch),
-- which ent/schema cannot declare. Safe to run again (db.adopt replays it on
-- a database made before versioned migrations): it drops what it makes.
--
-- search_text is the lower-cased name, e-mail, phone number and identifier,
-- kept by an ent hook; a row written around the hook has it empty, so it is
-- computed here as the hook would (lower() is Go's on our connections).
UPDATE contacts
SET search_text = lower(name || ' ' || coalesce(email, '') || ' ' || coalesce(phone_number, '') || ' ' || coalesce(identifier, ''))
WHERE search_text IS NULL OR search_text = '';
DROP TRIGGER IF EXISTS contact_search_insert;
DROP TRIGGER IF EXISTS contact_search_update;
DROP TRIGGER IF EXISTS contact_search_delete;
DROP TABLE IF EXISTS contact_search;
-- The rowid is the contact's id; no copy of the text is kept (content='').
-- search_text is lower-cased already, so the tokenizer must not fold it a
-- second time, differently from Go (case_sensitive 1).
CREATE VIRTUAL TABLE contact_search USING fts5(search_text, content='', contentless_delete=1, tokenize='trigram case_sensitive 1');
-- The triggers keep it in step with contacts, whatever writes them. A table
-- rebuild of contacts by a later migration drops them: that migration must
-- make them again (TestMigrationsMatchSchema checks they are there).
CREATE TRIGGER contact_search_insert AFTER INSERT ON contacts BEGIN
	INSERT INTO contact_search (rowid, search_text) VALUES (new.id, new.search_text);
END;
CREATE TRIGGER contact_search_update AFTER UPDATE OF search_text ON contacts BEGIN
	DELETE FROM contact_search WHERE rowid = old.id;
	INSERT INTO contact_search (rowid, search_text) VALUES (new.id, new.search_text);
END;
CREATE TRIGGER contact_search_delete AFTER DELETE ON contacts BEGIN
	DELETE FROM contact_search WHERE rowid = old.id;
END;
INSERT INTO contact_search (rowid, search_text) SELECT id, search_text FROM contacts;
