-- Create index "message_pending_by_conversation" to table: "messages"
CREATE INDEX `message_pending_by_conversation` ON `messages` (`conversation_id`, `id`) WHERE next_delivery_at IS NOT NULL;
-- Create index "automationrun_kanban_item_id_id" to table: "automation_runs"
CREATE INDEX `automationrun_kanban_item_id_id` ON `automation_runs` (`kanban_item_id`, `id`);
