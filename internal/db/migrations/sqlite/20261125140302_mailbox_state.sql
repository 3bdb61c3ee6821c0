-- Create "mailbox_states" table
CREATE TABLE `mailbox_states` (`id` integer NOT NULL PRIMARY KEY AUTOINCREMENT, `created_at` datetime NOT NULL, `updated_at` datetime NOT NULL, `uid_validity` integer NOT NULL DEFAULT (0), `last_uid` integer NOT NULL DEFAULT (0), `last_error` text NULL DEFAULT (''), `failed_at` datetime NULL, `inbox_id` integer NOT NULL, CONSTRAINT `mailbox_states_inboxes_mailbox_state` FOREIGN KEY (`inbox_id`) REFERENCES `inboxes` (`id`) ON DELETE CASCADE);
-- Create index "mailbox_states_inbox_id_key" to table: "mailbox_states"
CREATE UNIQUE INDEX `mailbox_states_inbox_id_key` ON `mailbox_states` (`inbox_id`);
