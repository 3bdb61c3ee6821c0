-- Disable the enforcement of foreign-keys constraints
PRAGMA foreign_keys = off;
-- Create "new_scheduled_messages" table
CREATE TABLE `new_scheduled_messages` (`id` integer NOT NULL PRIMARY KEY AUTOINCREMENT, `created_at` datetime NOT NULL, `updated_at` datetime NOT NULL, `title` text NULL DEFAULT (''), `content` text NOT NULL DEFAULT (''), `scheduled_at` datetime NOT NULL, `status` text NOT NULL DEFAULT ('pending'), `failure_reason` text NULL DEFAULT (''), `template_params` json NULL, `content_attributes` json NOT NULL, `private` bool NOT NULL DEFAULT (false), `recurrence_type` text NOT NULL DEFAULT ('none'), `recurrence_interval` integer NOT NULL DEFAULT (1), `recurrence_days` json NOT NULL, `recurrence_end_type` text NOT NULL DEFAULT ('never'), `recurrence_end_date` datetime NULL, `recurrence_max_occurrences` integer NULL, `occurrences_count` integer NOT NULL DEFAULT (0), `next_occurrence_at` datetime NULL, `occurrence_at` datetime NULL, `message_id` integer NULL, `sent_at` datetime NULL, `contact_id` integer NOT NULL, `conversation_id` integer NULL, `inbox_id` integer NOT NULL, `account_id` integer NOT NULL, `author_id` integer NULL, `parent_id` integer NULL, CONSTRAINT `scheduled_messages_contacts_scheduled_messages` FOREIGN KEY (`contact_id`) REFERENCES `contacts` (`id`) ON DELETE CASCADE, CONSTRAINT `scheduled_messages_conversations_scheduled_messages` FOREIGN KEY (`conversation_id`) REFERENCES `conversations` (`id`) ON DELETE CASCADE, CONSTRAINT `scheduled_messages_inboxes_scheduled_messages` FOREIGN KEY (`inbox_id`) REFERENCES `inboxes` (`id`) ON DELETE CASCADE, CONSTRAINT `scheduled_messages_accounts_account` FOREIGN KEY (`account_id`) REFERENCES `accounts` (`id`) ON DELETE NO ACTION, CONSTRAINT `scheduled_messages_users_author` FOREIGN KEY (`author_id`) REFERENCES `users` (`id`) ON DELETE SET NULL, CONSTRAINT `scheduled_messages_scheduled_messages_occurrences` FOREIGN KEY (`parent_id`) REFERENCES `scheduled_messages` (`id`) ON DELETE SET NULL);
-- Copy rows from old table "scheduled_messages" to new temporary table "new_scheduled_messages"
INSERT INTO `new_scheduled_messages` (`id`, `created_at`, `updated_at`, `title`, `content`, `scheduled_at`, `status`, `failure_reason`, `template_params`, `content_attributes`, `private`, `recurrence_type`, `recurrence_interval`, `recurrence_days`, `recurrence_end_type`, `recurrence_end_date`, `recurrence_max_occurrences`, `occurrences_count`, `next_occurrence_at`, `occurrence_at`, `message_id`, `sent_at`, `contact_id`, `conversation_id`, `inbox_id`, `account_id`, `author_id`, `parent_id`) SELECT `id`, `created_at`, `updated_at`, `title`, `content`, `scheduled_at`, `status`, `failure_reason`, `template_params`, `content_attributes`, `private`, `recurrence_type`, `recurrence_interval`, `recurrence_days`, `recurrence_end_type`, `recurrence_end_date`, `recurrence_max_occurrences`, `occurrences_count`, `next_occurrence_at`, `occurrence_at`, `message_id`, `sent_at`, `contact_id`, `conversation_id`, `inbox_id`, `account_id`, `author_id`, `parent_id` FROM `scheduled_messages`;
-- Drop "scheduled_messages" table after copying rows
DROP TABLE `scheduled_messages`;
-- Rename temporary table "new_scheduled_messages" to "scheduled_messages"
ALTER TABLE `new_scheduled_messages` RENAME TO `scheduled_messages`;
-- Create index "scheduledmessage_account_id_status_scheduled_at" to table: "scheduled_messages"
CREATE INDEX `scheduledmessage_account_id_status_scheduled_at` ON `scheduled_messages` (`account_id`, `status`, `scheduled_at`);
-- Create index "scheduledmessage_parent_id_occurrence_at" to table: "scheduled_messages"
CREATE UNIQUE INDEX `scheduledmessage_parent_id_occurrence_at` ON `scheduled_messages` (`parent_id`, `occurrence_at`) WHERE parent_id IS NOT NULL;
-- Create index "scheduledmessage_account_id_scheduled_at" to table: "scheduled_messages"
CREATE INDEX `scheduledmessage_account_id_scheduled_at` ON `scheduled_messages` (`account_id`, `scheduled_at`);
-- Create index "scheduledmessage_next_occurrence_at" to table: "scheduled_messages"
CREATE INDEX `scheduledmessage_next_occurrence_at` ON `scheduled_messages` (`next_occurrence_at`) WHERE next_occurrence_at IS NOT NULL;
-- Create index "scheduledmessage_message_id" to table: "scheduled_messages"
CREATE INDEX `scheduledmessage_message_id` ON `scheduled_messages` (`message_id`);
-- Create index "scheduledmessage_conversation_id_scheduled_at" to table: "scheduled_messages"
CREATE INDEX `scheduledmessage_conversation_id_scheduled_at` ON `scheduled_messages` (`conversation_id`, `scheduled_at`);
-- Create index "scheduledmessage_contact_id_scheduled_at" to table: "scheduled_messages"
CREATE INDEX `scheduledmessage_contact_id_scheduled_at` ON `scheduled_messages` (`contact_id`, `scheduled_at`);
-- Enable back the enforcement of foreign-keys constraints
PRAGMA foreign_keys = on;
