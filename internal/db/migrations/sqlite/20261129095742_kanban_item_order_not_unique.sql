-- Disable the enforcement of foreign-keys constraints
PRAGMA foreign_keys = off;
-- Create "new_kanban_items" table
CREATE TABLE `new_kanban_items` (`id` integer NOT NULL PRIMARY KEY AUTOINCREMENT, `created_at` datetime NOT NULL, `updated_at` datetime NOT NULL, `position` integer NOT NULL DEFAULT (0), `title` text NOT NULL DEFAULT (''), `description` text NULL DEFAULT (''), `priority` text NOT NULL DEFAULT ('none'), `value` real NOT NULL DEFAULT (0), `currency` json NOT NULL, `item_details` json NOT NULL, `status` text NOT NULL DEFAULT ('open'), `stage_entered_at` datetime NOT NULL, `closed_at` datetime NULL, `created_by_id` integer NULL, `conversation_id` integer NULL, `funnel_id` integer NOT NULL, `stage_id` integer NOT NULL, `account_id` integer NOT NULL, CONSTRAINT `kanban_items_conversations_kanban_items` FOREIGN KEY (`conversation_id`) REFERENCES `conversations` (`id`) ON DELETE SET NULL, CONSTRAINT `kanban_items_funnels_items` FOREIGN KEY (`funnel_id`) REFERENCES `funnels` (`id`) ON DELETE CASCADE, CONSTRAINT `kanban_items_funnel_stages_items` FOREIGN KEY (`stage_id`) REFERENCES `funnel_stages` (`id`) ON DELETE NO ACTION, CONSTRAINT `kanban_items_accounts_account` FOREIGN KEY (`account_id`) REFERENCES `accounts` (`id`) ON DELETE NO ACTION);
-- Copy rows from old table "kanban_items" to new temporary table "new_kanban_items"
INSERT INTO `new_kanban_items` (`id`, `created_at`, `updated_at`, `position`, `title`, `description`, `priority`, `value`, `currency`, `item_details`, `status`, `stage_entered_at`, `closed_at`, `created_by_id`, `conversation_id`, `funnel_id`, `stage_id`, `account_id`) SELECT `id`, `created_at`, `updated_at`, `position`, `title`, `description`, `priority`, `value`, `currency`, `item_details`, `status`, `stage_entered_at`, `closed_at`, `created_by_id`, `conversation_id`, `funnel_id`, `stage_id`, `account_id` FROM `kanban_items`;
-- Drop "kanban_items" table after copying rows
DROP TABLE `kanban_items`;
-- Rename temporary table "new_kanban_items" to "kanban_items"
ALTER TABLE `new_kanban_items` RENAME TO `kanban_items`;
-- Create index "kanbanitem_account_id" to table: "kanban_items"
CREATE INDEX `kanbanitem_account_id` ON `kanban_items` (`account_id`);
-- Create index "kanbanitem_stage_id_position" to table: "kanban_items"
CREATE INDEX `kanbanitem_stage_id_position` ON `kanban_items` (`stage_id`, `position`);
-- Create index "kanbanitem_funnel_id_stage_id" to table: "kanban_items"
CREATE INDEX `kanbanitem_funnel_id_stage_id` ON `kanban_items` (`funnel_id`, `stage_id`);
-- Enable back the enforcement of foreign-keys constraints
PRAGMA foreign_keys = on;
