-- Modify "contact_inboxes" table
ALTER TABLE "contact_inboxes" ADD COLUMN "pubsub_token_hash" character varying NULL;
-- Create index "contactinbox_pubsub_token_hash" to table: "contact_inboxes"
CREATE UNIQUE INDEX "contactinbox_pubsub_token_hash" ON "contact_inboxes" ("pubsub_token_hash");
