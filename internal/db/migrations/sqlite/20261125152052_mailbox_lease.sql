-- Disable the enforcement of foreign-keys constraints
PRAGMA foreign_keys = off;
-- Create "new_mailbox_states" table
CREATE TABLE `new_mailbox_states` (`id` integer NOT NULL PRIMARY KEY AUTOINCREMENT, `created_at` datetime NOT NULL, `updated_at` datetime NOT NULL, `uid_validity` integer NOT NULL DEFAULT (0), `last_uid` integer NOT NULL DEFAULT (0), `last_error` text NULL DEFAULT (''), `failed_at` datetime NULL, `lease_holder` text NULL DEFAULT (''), `lease_expires_at` datetime NULL, `inbox_id` integer NOT NULL, CONSTRAINT `mailbox_states_inboxes_mailbox_state` FOREIGN KEY (`inbox_id`) REFERENCES `inboxes` (`id`) ON DELETE CASCADE);
-- Copy rows from old table "mailbox_states" to new temporary table "new_mailbox_states"
INSERT INTO `new_mailbox_states` (`id`, `created_at`, `updated_at`, `uid_validity`, `last_uid`, `last_error`, `failed_at`, `inbox_id`) SELECT `id`, `created_at`, `updated_at`, `uid_validity`, `last_uid`, `last_error`, `failed_at`, `inbox_id` FROM `mailbox_states`;
-- Drop "mailbox_states" table after copying rows
DROP TABLE `mailbox_states`;
-- Rename temporary table "new_mailbox_states" to "mailbox_states"
ALTER TABLE `new_mailbox_states` RENAME TO `mailbox_states`;
-- Create index "mailbox_states_inbox_id_key" to table: "mailbox_states"
CREATE UNIQUE INDEX `mailbox_states_inbox_id_key` ON `mailbox_states` (`inbox_id`);
-- Enable back the enforcement of foreign-keys constraints
PRAGMA foreign_keys = on;
