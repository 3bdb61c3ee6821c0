-- Disable the enforcement of foreign-keys constraints
PRAGMA foreign_keys = off;
-- Create "new_contact_inboxes" table
CREATE TABLE `new_contact_inboxes` (`id` integer NOT NULL PRIMARY KEY AUTOINCREMENT, `created_at` datetime NOT NULL, `updated_at` datetime NOT NULL, `source_id` text NOT NULL, `hmac_verified` bool NOT NULL DEFAULT (false), `pubsub_token_hash` text NULL, `contact_id` integer NOT NULL, `account_id` integer NOT NULL, `inbox_id` integer NOT NULL, CONSTRAINT `contact_inboxes_contacts_contact_inboxes` FOREIGN KEY (`contact_id`) REFERENCES `contacts` (`id`) ON DELETE CASCADE, CONSTRAINT `contact_inboxes_accounts_account` FOREIGN KEY (`account_id`) REFERENCES `accounts` (`id`) ON DELETE NO ACTION, CONSTRAINT `contact_inboxes_inboxes_contact_inboxes` FOREIGN KEY (`inbox_id`) REFERENCES `inboxes` (`id`) ON DELETE CASCADE);
-- Copy rows from old table "contact_inboxes" to new temporary table "new_contact_inboxes"
INSERT INTO `new_contact_inboxes` (`id`, `created_at`, `updated_at`, `source_id`, `hmac_verified`, `contact_id`, `account_id`, `inbox_id`) SELECT `id`, `created_at`, `updated_at`, `source_id`, `hmac_verified`, `contact_id`, `account_id`, `inbox_id` FROM `contact_inboxes`;
-- Drop "contact_inboxes" table after copying rows
DROP TABLE `contact_inboxes`;
-- Rename temporary table "new_contact_inboxes" to "contact_inboxes"
ALTER TABLE `new_contact_inboxes` RENAME TO `contact_inboxes`;
-- Create index "contactinbox_account_id" to table: "contact_inboxes"
CREATE INDEX `contactinbox_account_id` ON `contact_inboxes` (`account_id`);
-- Create index "contactinbox_inbox_id_source_id" to table: "contact_inboxes"
CREATE UNIQUE INDEX `contactinbox_inbox_id_source_id` ON `contact_inboxes` (`inbox_id`, `source_id`);
-- Create index "contactinbox_contact_id_account_id" to table: "contact_inboxes"
CREATE INDEX `contactinbox_contact_id_account_id` ON `contact_inboxes` (`contact_id`, `account_id`);
-- Create index "contactinbox_pubsub_token_hash" to table: "contact_inboxes"
CREATE UNIQUE INDEX `contactinbox_pubsub_token_hash` ON `contact_inboxes` (`pubsub_token_hash`);
-- Enable back the enforcement of foreign-keys constraints
PRAGMA foreign_keys = on;
