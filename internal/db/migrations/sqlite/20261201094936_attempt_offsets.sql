-- Disable the enforcement of foreign-keys constraints
PRAGMA foreign_keys = off;
-- Create "new_webhook_deliveries" table
CREATE TABLE `new_webhook_deliveries` (`id` integer NOT NULL PRIMARY KEY AUTOINCREMENT, `created_at` datetime NOT NULL, `updated_at` datetime NOT NULL, `delivery_id` text NOT NULL, `kanban_target` bool NOT NULL DEFAULT (false), `url` text NOT NULL, `event` text NOT NULL, `payload` text NOT NULL, `status` text NOT NULL DEFAULT ('pending'), `attempts` integer NOT NULL DEFAULT (0), `attempt_offset` integer NOT NULL DEFAULT (0), `next_attempt_at` datetime NULL, `response_status` integer NULL, `last_error` text NULL DEFAULT (''), `delivered_at` datetime NULL, `account_id` integer NOT NULL, `subscription_id` integer NULL, CONSTRAINT `webhook_deliveries_accounts_account` FOREIGN KEY (`account_id`) REFERENCES `accounts` (`id`) ON DELETE NO ACTION, CONSTRAINT `webhook_deliveries_webhook_subscriptions_deliveries` FOREIGN KEY (`subscription_id`) REFERENCES `webhook_subscriptions` (`id`) ON DELETE CASCADE);
-- Copy rows from old table "webhook_deliveries" to new temporary table "new_webhook_deliveries"
INSERT INTO `new_webhook_deliveries` (`id`, `created_at`, `updated_at`, `delivery_id`, `kanban_target`, `url`, `event`, `payload`, `status`, `attempts`, `next_attempt_at`, `response_status`, `last_error`, `delivered_at`, `account_id`, `subscription_id`) SELECT `id`, `created_at`, `updated_at`, `delivery_id`, `kanban_target`, `url`, `event`, `payload`, `status`, `attempts`, `next_attempt_at`, `response_status`, `last_error`, `delivered_at`, `account_id`, `subscription_id` FROM `webhook_deliveries`;
-- Drop "webhook_deliveries" table after copying rows
DROP TABLE `webhook_deliveries`;
-- Rename temporary table "new_webhook_deliveries" to "webhook_deliveries"
ALTER TABLE `new_webhook_deliveries` RENAME TO `webhook_deliveries`;
-- Create index "webhook_deliveries_delivery_id_key" to table: "webhook_deliveries"
CREATE UNIQUE INDEX `webhook_deliveries_delivery_id_key` ON `webhook_deliveries` (`delivery_id`);
-- Create index "webhookdelivery_account_id" to table: "webhook_deliveries"
CREATE INDEX `webhookdelivery_account_id` ON `webhook_deliveries` (`account_id`);
-- Create index "webhookdelivery_next_attempt_at" to table: "webhook_deliveries"
CREATE INDEX `webhookdelivery_next_attempt_at` ON `webhook_deliveries` (`next_attempt_at`) WHERE next_attempt_at IS NOT NULL;
-- Create index "webhookdelivery_subscription_id_id" to table: "webhook_deliveries"
CREATE INDEX `webhookdelivery_subscription_id_id` ON `webhook_deliveries` (`subscription_id`, `id`);
-- Create "new_messages" table
CREATE TABLE `new_messages` (`id` integer NOT NULL PRIMARY KEY AUTOINCREMENT, `created_at` datetime NOT NULL, `updated_at` datetime NOT NULL, `inbox_id` integer NOT NULL, `content` text NULL, `message_type` text NOT NULL DEFAULT ('outgoing'), `content_type` text NOT NULL DEFAULT ('text'), `private` bool NOT NULL DEFAULT (false), `status` text NOT NULL DEFAULT ('sent'), `content_attributes` json NOT NULL, `additional_attributes` json NOT NULL, `template_params` json NULL, `source_id` text NULL, `echo_id` text NULL, `sender_type` text NULL, `sender_id` integer NULL, `delivery_attempts` integer NOT NULL DEFAULT (0), `next_delivery_at` datetime NULL, `delivery_error` text NULL DEFAULT (''), `delivery_attempt_offset` integer NOT NULL DEFAULT (0), `conversation_id` integer NOT NULL, `account_id` integer NOT NULL, CONSTRAINT `messages_conversations_messages` FOREIGN KEY (`conversation_id`) REFERENCES `conversations` (`id`) ON DELETE CASCADE, CONSTRAINT `messages_accounts_account` FOREIGN KEY (`account_id`) REFERENCES `accounts` (`id`) ON DELETE NO ACTION);
-- Copy rows from old table "messages" to new temporary table "new_messages"
INSERT INTO `new_messages` (`id`, `created_at`, `updated_at`, `inbox_id`, `content`, `message_type`, `content_type`, `private`, `status`, `content_attributes`, `additional_attributes`, `template_params`, `source_id`, `echo_id`, `sender_type`, `sender_id`, `delivery_attempts`, `next_delivery_at`, `delivery_error`, `conversation_id`, `account_id`) SELECT `id`, `created_at`, `updated_at`, `inbox_id`, `content`, `message_type`, `content_type`, `private`, `status`, `content_attributes`, `additional_attributes`, `template_params`, `source_id`, `echo_id`, `sender_type`, `sender_id`, `delivery_attempts`, `next_delivery_at`, `delivery_error`, `conversation_id`, `account_id` FROM `messages`;
-- Drop "messages" table after copying rows
DROP TABLE `messages`;
-- Rename temporary table "new_messages" to "messages"
ALTER TABLE `new_messages` RENAME TO `messages`;
-- Create index "message_conversation_id_id" to table: "messages"
CREATE INDEX `message_conversation_id_id` ON `messages` (`conversation_id`, `id`);
-- Create index "message_next_delivery_at" to table: "messages"
CREATE INDEX `message_next_delivery_at` ON `messages` (`next_delivery_at`) WHERE next_delivery_at IS NOT NULL;
-- Create index "message_pending_by_conversation" to table: "messages"
CREATE INDEX `message_pending_by_conversation` ON `messages` (`conversation_id`, `id`) WHERE next_delivery_at IS NOT NULL;
-- Create index "message_inbox_id_source_id" to table: "messages"
CREATE UNIQUE INDEX `message_inbox_id_source_id` ON `messages` (`inbox_id`, `source_id`);
-- Enable back the enforcement of foreign-keys constraints
PRAGMA foreign_keys = on;
