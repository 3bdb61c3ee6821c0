-- Disable the enforcement of foreign-keys constraints
PRAGMA foreign_keys = off;
-- Create "new_messages" table
CREATE TABLE `new_messages` (`id` integer NOT NULL PRIMARY KEY AUTOINCREMENT, `created_at` datetime NOT NULL, `updated_at` datetime NOT NULL, `inbox_id` integer NOT NULL, `content` text NULL, `message_type` text NOT NULL DEFAULT ('outgoing'), `content_type` text NOT NULL DEFAULT ('text'), `private` bool NOT NULL DEFAULT (false), `status` text NOT NULL DEFAULT ('sent'), `content_attributes` json NOT NULL, `additional_attributes` json NOT NULL, `template_params` json NULL, `source_id` text NULL, `echo_id` text NULL, `sender_type` text NULL, `sender_id` integer NULL, `delivery_attempts` integer NOT NULL DEFAULT (0), `next_delivery_at` datetime NULL, `delivery_error` text NULL DEFAULT (''), `conversation_id` integer NOT NULL, `account_id` integer NOT NULL, CONSTRAINT `messages_conversations_messages` FOREIGN KEY (`conversation_id`) REFERENCES `conversations` (`id`) ON DELETE CASCADE, CONSTRAINT `messages_accounts_account` FOREIGN KEY (`account_id`) REFERENCES `accounts` (`id`) ON DELETE NO ACTION);
-- Copy rows from old table "messages" to new temporary table "new_messages"
INSERT INTO `new_messages` (`id`, `created_at`, `updated_at`, `inbox_id`, `content`, `message_type`, `content_type`, `private`, `status`, `content_attributes`, `additional_attributes`, `template_params`, `source_id`, `echo_id`, `sender_type`, `sender_id`, `delivery_attempts`, `next_delivery_at`, `conversation_id`, `account_id`) SELECT `id`, `created_at`, `updated_at`, `inbox_id`, `content`, `message_type`, `content_type`, `private`, `status`, `content_attributes`, `additional_attributes`, `template_params`, `source_id`, `echo_id`, `sender_type`, `sender_id`, `delivery_attempts`, `next_delivery_at`, `conversation_id`, `account_id` FROM `messages`;
-- Drop "messages" table after copying rows
DROP TABLE `messages`;
-- Rename temporary table "new_messages" to "messages"
ALTER TABLE `new_messages` RENAME TO `messages`;
-- Create index "message_account_id" to table: "messages"
CREATE INDEX `message_account_id` ON `messages` (`account_id`);
-- Create index "message_conversation_id_id" to table: "messages"
CREATE INDEX `message_conversation_id_id` ON `messages` (`conversation_id`, `id`);
-- Create index "message_next_delivery_at" to table: "messages"
CREATE INDEX `message_next_delivery_at` ON `messages` (`next_delivery_at`);
-- Create index "message_pending_by_conversation" to table: "messages"
CREATE INDEX `message_pending_by_conversation` ON `messages` (`conversation_id`, `id`) WHERE next_delivery_at IS NOT NULL;
-- Enable back the enforcement of foreign-keys constraints
PRAGMA foreign_keys = on;
