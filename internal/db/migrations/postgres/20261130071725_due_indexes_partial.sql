-- Drop index "message_next_delivery_at" from table: "messages"
DROP INDEX "message_next_delivery_at";
-- Create index "message_next_delivery_at" to table: "messages"
CREATE INDEX "message_next_delivery_at" ON "messages" ("next_delivery_at") WHERE (next_delivery_at IS NOT NULL);
-- Drop index "scheduledmessage_next_occurrence_at" from table: "scheduled_messages"
DROP INDEX "scheduledmessage_next_occurrence_at";
-- Create index "scheduledmessage_next_occurrence_at" to table: "scheduled_messages"
CREATE INDEX "scheduledmessage_next_occurrence_at" ON "scheduled_messages" ("next_occurrence_at") WHERE (next_occurrence_at IS NOT NULL);
