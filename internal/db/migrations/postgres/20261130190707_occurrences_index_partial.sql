-- Drop index "scheduledmessage_parent_id_occurrence_at" from table: "scheduled_messages"
DROP INDEX "scheduledmessage_parent_id_occurrence_at";
-- Create index "scheduledmessage_parent_id_occurrence_at" to table: "scheduled_messages"
CREATE UNIQUE INDEX "scheduledmessage_parent_id_occurrence_at" ON "scheduled_messages" ("parent_id", "occurrence_at") WHERE (parent_id IS NOT NULL);
