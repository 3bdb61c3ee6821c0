-- Modify "inboxes" table
ALTER TABLE "inboxes" ADD COLUMN "channel_key" character varying NULL DEFAULT '';
-- Create index "inbox_channel_key_channel_type" to table: "inboxes"
CREATE INDEX "inbox_channel_key_channel_type" ON "inboxes" ("channel_key", "channel_type");
-- Fill "channel_key" of the existing inboxes from their channel (hand-written; the inbox hook keeps it from now on)
UPDATE "inboxes" SET "channel_key" = COALESCE(CASE "channel_type" WHEN 'whatsapp' THEN "channel"->>'phone_number' WHEN 'api' THEN "channel"->>'inbox_identifier' WHEN 'web_widget' THEN "channel"->>'website_token' END, '');
