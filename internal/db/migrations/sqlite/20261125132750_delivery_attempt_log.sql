-- Create "message_delivery_attempts" table
CREATE TABLE `message_delivery_attempts` (`id` integer NOT NULL PRIMARY KEY AUTOINCREMENT, `created_at` datetime NOT NULL, `updated_at` datetime NOT NULL, `attempt` integer NOT NULL, `started_at` datetime NOT NULL, `duration_ms` integer NOT NULL, `outcome` text NOT NULL, `response_status` integer NULL, `error` text NULL DEFAULT (''), `message_id` integer NOT NULL, `account_id` integer NOT NULL, CONSTRAINT `message_delivery_attempts_messages_attempt_log` FOREIGN KEY (`message_id`) REFERENCES `messages` (`id`) ON DELETE CASCADE, CONSTRAINT `message_delivery_attempts_accounts_account` FOREIGN KEY (`account_id`) REFERENCES `accounts` (`id`) ON DELETE NO ACTION);
-- Create index "messagedeliveryattempt_account_id" to table: "message_delivery_attempts"
CREATE INDEX `messagedeliveryattempt_account_id` ON `message_delivery_attempts` (`account_id`);
-- Create index "messagedeliveryattempt_created_at" to table: "message_delivery_attempts"
CREATE INDEX `messagedeliveryattempt_created_at` ON `message_delivery_attempts` (`created_at`);
-- Create index "messagedeliveryattempt_message_id_id" to table: "message_delivery_attempts"
CREATE INDEX `messagedeliveryattempt_message_id_id` ON `message_delivery_attempts` (`message_id`, `id`);
-- Create "webhook_delivery_attempts" table
CREATE TABLE `webhook_delivery_attempts` (`id` integer NOT NULL PRIMARY KEY AUTOINCREMENT, `created_at` datetime NOT NULL, `updated_at` datetime NOT NULL, `attempt` integer NOT NULL, `started_at` datetime NOT NULL, `duration_ms` integer NOT NULL, `outcome` text NOT NULL, `response_status` integer NULL, `error` text NULL DEFAULT (''), `delivery_id` integer NOT NULL, `account_id` integer NOT NULL, CONSTRAINT `webhook_delivery_attempts_webhook_deliveries_attempt_log` FOREIGN KEY (`delivery_id`) REFERENCES `webhook_deliveries` (`id`) ON DELETE CASCADE, CONSTRAINT `webhook_delivery_attempts_accounts_account` FOREIGN KEY (`account_id`) REFERENCES `accounts` (`id`) ON DELETE NO ACTION);
-- Create index "webhookdeliveryattempt_account_id" to table: "webhook_delivery_attempts"
CREATE INDEX `webhookdeliveryattempt_account_id` ON `webhook_delivery_attempts` (`account_id`);
-- Create index "webhookdeliveryattempt_created_at" to table: "webhook_delivery_attempts"
CREATE INDEX `webhookdeliveryattempt_created_at` ON `webhook_delivery_attempts` (`created_at`);
-- Create index "webhookdeliveryattempt_delivery_id_id" to table: "webhook_delivery_attempts"
CREATE INDEX `webhookdeliveryattempt_delivery_id_id` ON `webhook_delivery_attempts` (`delivery_id`, `id`);
