-- Drop index "scheduledmessage_status_scheduled_at" from table: "scheduled_messages"
DROP INDEX "scheduledmessage_status_scheduled_at";
-- Create index "scheduledmessage_account_id_status_scheduled_at" to table: "scheduled_messages"
CREATE INDEX "scheduledmessage_account_id_status_scheduled_at" ON "scheduled_messages" ("account_id", "status", "scheduled_at");
