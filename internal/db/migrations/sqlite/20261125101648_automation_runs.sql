-- Create "automation_runs" table
CREATE TABLE `automation_runs` (`id` integer NOT NULL PRIMARY KEY AUTOINCREMENT, `created_at` datetime NOT NULL, `updated_at` datetime NOT NULL, `kanban_item_id` integer NOT NULL, `funnel_id` integer NOT NULL, `trigger_type` text NOT NULL, `stage` text NULL DEFAULT (''), `status` text NULL DEFAULT (''), `actor_id` integer NULL, `depth` integer NOT NULL DEFAULT (1), `run_at` datetime NOT NULL, `attempts` integer NOT NULL DEFAULT (0), `account_id` integer NOT NULL, CONSTRAINT `automation_runs_accounts_account` FOREIGN KEY (`account_id`) REFERENCES `accounts` (`id`) ON DELETE NO ACTION);
-- Create index "automationrun_account_id" to table: "automation_runs"
CREATE INDEX `automationrun_account_id` ON `automation_runs` (`account_id`);
-- Create index "automationrun_run_at" to table: "automation_runs"
CREATE INDEX `automationrun_run_at` ON `automation_runs` (`run_at`);
