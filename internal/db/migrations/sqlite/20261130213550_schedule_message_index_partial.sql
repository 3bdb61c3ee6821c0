-- Drop index "scheduledmessage_message_id" from table: "scheduled_messages"
DROP INDEX `scheduledmessage_message_id`;
-- Create index "scheduledmessage_message_id" to table: "scheduled_messages"
CREATE INDEX `scheduledmessage_message_id` ON `scheduled_messages` (`message_id`) WHERE message_id IS NOT NULL;
