-- Hand-written: the trigram operator classes of the contact search indexes
-- (ent/schema/contact.go, gin_trgm_ops), needed before the tables' indexes.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
