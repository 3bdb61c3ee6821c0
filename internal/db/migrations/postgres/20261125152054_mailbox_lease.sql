-- Modify "mailbox_states" table
ALTER TABLE "mailbox_states" ADD COLUMN "lease_holder" character varying NULL DEFAULT '', ADD COLUMN "lease_expires_at" timestamptz NULL;
