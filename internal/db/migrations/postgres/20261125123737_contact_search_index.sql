-- Hand-written: the contact search index ent/schema cannot declare
-- (internal/contactsearch). Safe to run again (db.adopt replays it on a
-- database made before versioned migrations).
--
-- search_text is the lower-cased name, e-mail, phone number and identifier,
-- kept by an ent hook and served by the pg_trgm GIN index of the init
-- migration; a row written around the hook has it empty, so it is computed
-- here as the hook would.
UPDATE contacts
SET search_text = lower(name || ' ' || coalesce(email, '') || ' ' || coalesce(phone_number, '') || ' ' || coalesce(identifier, ''))
WHERE search_text IS NULL OR search_text = '';
-- The default contact order, most recent activity first and contacts without
-- activity last: ent cannot declare NULLS LAST, and without it PostgreSQL
-- sorts every match of a common term before taking a page.
CREATE INDEX IF NOT EXISTS contact_account_recent_activity
	ON contacts (account_id, last_activity_at DESC NULLS LAST, id DESC);
