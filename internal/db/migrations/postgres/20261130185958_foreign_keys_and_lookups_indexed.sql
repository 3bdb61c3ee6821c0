-- Create index "attachment_message_id" to table: "attachments"
CREATE INDEX "attachment_message_id" ON "attachments" ("message_id");
-- Create index "attachment_scheduled_message_id" to table: "attachments"
CREATE INDEX "attachment_scheduled_message_id" ON "attachments" ("scheduled_message_id");
-- Create index "attachment_storage_key" to table: "attachments"
CREATE INDEX "attachment_storage_key" ON "attachments" ("storage_key");
-- Create index "cardnote_kanban_item_id_id" to table: "card_notes"
CREATE INDEX "cardnote_kanban_item_id_id" ON "card_notes" ("kanban_item_id", "id");
-- Create index "checklistitem_kanban_item_id_position" to table: "checklist_items"
CREATE INDEX "checklistitem_kanban_item_id_position" ON "checklist_items" ("kanban_item_id", "position");
-- Create index "conversation_contact_inbox_id" to table: "conversations"
CREATE INDEX "conversation_contact_inbox_id" ON "conversations" ("contact_inbox_id");
-- Create index "conversation_inbox_id_uuid" to table: "conversations"
CREATE INDEX "conversation_inbox_id_uuid" ON "conversations" ("inbox_id", "uuid");
-- Drop index "kanbanitem_account_id" from table: "kanban_items"
DROP INDEX "kanbanitem_account_id";
-- Create index "kanbanitem_account_id_status_stage_entered_at" to table: "kanban_items"
CREATE INDEX "kanbanitem_account_id_status_stage_entered_at" ON "kanban_items" ("account_id", "status", "stage_entered_at");
-- Create index "kanbanitem_conversation_id" to table: "kanban_items"
CREATE INDEX "kanbanitem_conversation_id" ON "kanban_items" ("conversation_id");
-- Create index "scheduledmessage_contact_id_scheduled_at" to table: "scheduled_messages"
CREATE INDEX "scheduledmessage_contact_id_scheduled_at" ON "scheduled_messages" ("contact_id", "scheduled_at");
-- Create index "scheduledmessage_conversation_id_scheduled_at" to table: "scheduled_messages"
CREATE INDEX "scheduledmessage_conversation_id_scheduled_at" ON "scheduled_messages" ("conversation_id", "scheduled_at");
