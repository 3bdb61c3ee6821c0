-- Create index "message_inbox_id_source_id" to table: "messages"
CREATE UNIQUE INDEX `message_inbox_id_source_id` ON `messages` (`inbox_id`, `source_id`);
