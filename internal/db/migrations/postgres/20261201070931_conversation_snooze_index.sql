-- Create index "conversation_snoozed_until" to table: "conversations"
CREATE INDEX "conversation_snoozed_until" ON "conversations" ("snoozed_until") WHERE (snoozed_until IS NOT NULL);
