-- Create "access_tokens" table
CREATE TABLE `access_tokens` (`id` integer NOT NULL PRIMARY KEY AUTOINCREMENT, `created_at` datetime NOT NULL, `updated_at` datetime NOT NULL, `token_hash` text NOT NULL, `last_used_at` datetime NULL, `agent_bot_id` integer NULL, `user_id` integer NULL, CONSTRAINT `access_tokens_agent_bots_access_tokens` FOREIGN KEY (`agent_bot_id`) REFERENCES `agent_bots` (`id`) ON DELETE SET NULL, CONSTRAINT `access_tokens_users_access_tokens` FOREIGN KEY (`user_id`) REFERENCES `users` (`id`) ON DELETE SET NULL);
-- Create index "access_tokens_token_hash_key" to table: "access_tokens"
CREATE UNIQUE INDEX `access_tokens_token_hash_key` ON `access_tokens` (`token_hash`);
-- Create "accounts" table
CREATE TABLE `accounts` (`id` integer NOT NULL PRIMARY KEY AUTOINCREMENT, `created_at` datetime NOT NULL, `updated_at` datetime NOT NULL, `name` text NOT NULL, `locale` text NOT NULL DEFAULT ('en'), `status` text NOT NULL DEFAULT ('active'), `last_conversation_display_id` integer NOT NULL DEFAULT (0));
-- Create "account_users" table
CREATE TABLE `account_users` (`id` integer NOT NULL PRIMARY KEY AUTOINCREMENT, `created_at` datetime NOT NULL, `updated_at` datetime NOT NULL, `role` text NOT NULL DEFAULT ('agent'), `availability` text NOT NULL DEFAULT ('offline'), `auto_offline` bool NOT NULL DEFAULT (true), `account_id` integer NOT NULL, `user_id` integer NOT NULL, CONSTRAINT `account_users_accounts_account` FOREIGN KEY (`account_id`) REFERENCES `accounts` (`id`) ON DELETE NO ACTION, CONSTRAINT `account_users_users_memberships` FOREIGN KEY (`user_id`) REFERENCES `users` (`id`) ON DELETE NO ACTION);
-- Create index "accountuser_account_id" to table: "account_users"
CREATE INDEX `accountuser_account_id` ON `account_users` (`account_id`);
-- Create index "accountuser_account_id_user_id" to table: "account_users"
CREATE UNIQUE INDEX `accountuser_account_id_user_id` ON `account_users` (`account_id`, `user_id`);
-- Create "agent_bots" table
CREATE TABLE `agent_bots` (`id` integer NOT NULL PRIMARY KEY AUTOINCREMENT, `created_at` datetime NOT NULL, `updated_at` datetime NOT NULL, `name` text NOT NULL, `description` text NULL DEFAULT (''), `outgoing_url` text NULL DEFAULT (''), `bot_type` text NOT NULL DEFAULT ('webhook'), `bot_config` json NOT NULL, `account_id` integer NOT NULL, CONSTRAINT `agent_bots_accounts_account` FOREIGN KEY (`account_id`) REFERENCES `accounts` (`id`) ON DELETE NO ACTION);
-- Create index "agentbot_account_id" to table: "agent_bots"
CREATE INDEX `agentbot_account_id` ON `agent_bots` (`account_id`);
-- Create "attachments" table
CREATE TABLE `attachments` (`id` integer NOT NULL PRIMARY KEY AUTOINCREMENT, `created_at` datetime NOT NULL, `updated_at` datetime NOT NULL, `file_type` text NOT NULL DEFAULT ('file'), `file_name` text NOT NULL DEFAULT (''), `content_type` text NOT NULL DEFAULT ('application/octet-stream'), `file_size` integer NOT NULL DEFAULT (0), `storage_key` text NOT NULL, `account_id` integer NOT NULL, `message_id` integer NULL, `scheduled_message_id` integer NULL, CONSTRAINT `attachments_accounts_account` FOREIGN KEY (`account_id`) REFERENCES `accounts` (`id`) ON DELETE NO ACTION, CONSTRAINT `attachments_messages_attachments` FOREIGN KEY (`message_id`) REFERENCES `messages` (`id`) ON DELETE CASCADE, CONSTRAINT `attachments_scheduled_messages_attachments` FOREIGN KEY (`scheduled_message_id`) REFERENCES `scheduled_messages` (`id`) ON DELETE CASCADE);
-- Create index "attachment_account_id" to table: "attachments"
CREATE INDEX `attachment_account_id` ON `attachments` (`account_id`);
-- Create "card_notes" table
CREATE TABLE `card_notes` (`id` integer NOT NULL PRIMARY KEY AUTOINCREMENT, `created_at` datetime NOT NULL, `updated_at` datetime NOT NULL, `author_id` integer NULL, `content` text NOT NULL, `account_id` integer NOT NULL, `kanban_item_id` integer NOT NULL, CONSTRAINT `card_notes_accounts_account` FOREIGN KEY (`account_id`) REFERENCES `accounts` (`id`) ON DELETE NO ACTION, CONSTRAINT `card_notes_kanban_items_notes` FOREIGN KEY (`kanban_item_id`) REFERENCES `kanban_items` (`id`) ON DELETE CASCADE);
-- Create index "cardnote_account_id" to table: "card_notes"
CREATE INDEX `cardnote_account_id` ON `card_notes` (`account_id`);
-- Create "card_stage_histories" table
CREATE TABLE `card_stage_histories` (`id` integer NOT NULL PRIMARY KEY AUTOINCREMENT, `kind` text NOT NULL, `from_funnel_id` integer NULL, `to_funnel_id` integer NULL, `from_stage_id` integer NULL, `to_stage_id` integer NULL, `from_status` text NULL DEFAULT (''), `to_status` text NULL DEFAULT (''), `user_id` integer NULL, `created_at` datetime NOT NULL, `account_id` integer NOT NULL, `kanban_item_id` integer NOT NULL, CONSTRAINT `card_stage_histories_accounts_account` FOREIGN KEY (`account_id`) REFERENCES `accounts` (`id`) ON DELETE NO ACTION, CONSTRAINT `card_stage_histories_kanban_items_stage_history` FOREIGN KEY (`kanban_item_id`) REFERENCES `kanban_items` (`id`) ON DELETE CASCADE);
-- Create index "cardstagehistory_account_id" to table: "card_stage_histories"
CREATE INDEX `cardstagehistory_account_id` ON `card_stage_histories` (`account_id`);
-- Create index "cardstagehistory_kanban_item_id_created_at" to table: "card_stage_histories"
CREATE INDEX `cardstagehistory_kanban_item_id_created_at` ON `card_stage_histories` (`kanban_item_id`, `created_at`);
-- Create "checklist_items" table
CREATE TABLE `checklist_items` (`id` integer NOT NULL PRIMARY KEY AUTOINCREMENT, `created_at` datetime NOT NULL, `updated_at` datetime NOT NULL, `text` text NOT NULL, `completed` bool NOT NULL DEFAULT (false), `due_date` datetime NULL, `agent_id` integer NULL, `position` integer NOT NULL DEFAULT (0), `account_id` integer NOT NULL, `kanban_item_id` integer NOT NULL, CONSTRAINT `checklist_items_accounts_account` FOREIGN KEY (`account_id`) REFERENCES `accounts` (`id`) ON DELETE NO ACTION, CONSTRAINT `checklist_items_kanban_items_checklist_items` FOREIGN KEY (`kanban_item_id`) REFERENCES `kanban_items` (`id`) ON DELETE CASCADE);
-- Create index "checklistitem_account_id" to table: "checklist_items"
CREATE INDEX `checklistitem_account_id` ON `checklist_items` (`account_id`);
-- Create "console_sessions" table
CREATE TABLE `console_sessions` (`id` integer NOT NULL PRIMARY KEY AUTOINCREMENT, `created_at` datetime NOT NULL, `updated_at` datetime NOT NULL, `token_hash` text NOT NULL, `expires_at` datetime NOT NULL, `last_seen_at` datetime NOT NULL, `user_id` integer NOT NULL, `account_id` integer NOT NULL, CONSTRAINT `console_sessions_users_user` FOREIGN KEY (`user_id`) REFERENCES `users` (`id`) ON DELETE CASCADE, CONSTRAINT `console_sessions_accounts_account` FOREIGN KEY (`account_id`) REFERENCES `accounts` (`id`) ON DELETE CASCADE);
-- Create index "console_sessions_token_hash_key" to table: "console_sessions"
CREATE UNIQUE INDEX `console_sessions_token_hash_key` ON `console_sessions` (`token_hash`);
-- Create index "consolesession_expires_at" to table: "console_sessions"
CREATE INDEX `consolesession_expires_at` ON `console_sessions` (`expires_at`);
-- Create index "consolesession_last_seen_at" to table: "console_sessions"
CREATE INDEX `consolesession_last_seen_at` ON `console_sessions` (`last_seen_at`);
-- Create "contacts" table
CREATE TABLE `contacts` (`id` integer NOT NULL PRIMARY KEY AUTOINCREMENT, `created_at` datetime NOT NULL, `updated_at` datetime NOT NULL, `name` text NOT NULL DEFAULT (''), `email` text NULL, `phone_number` text NULL, `identifier` text NULL, `blocked` bool NOT NULL DEFAULT (false), `avatar_url` text NULL DEFAULT (''), `additional_attributes` json NOT NULL, `custom_attributes` json NOT NULL, `labels` json NOT NULL, `last_activity_at` datetime NULL, `search_text` text NULL DEFAULT (''), `account_id` integer NOT NULL, CONSTRAINT `contacts_accounts_account` FOREIGN KEY (`account_id`) REFERENCES `accounts` (`id`) ON DELETE NO ACTION);
-- Create index "contact_account_id" to table: "contacts"
CREATE INDEX `contact_account_id` ON `contacts` (`account_id`);
-- Create index "contact_account_id_email" to table: "contacts"
CREATE UNIQUE INDEX `contact_account_id_email` ON `contacts` (`account_id`, `email`);
-- Create index "contact_account_id_phone_number" to table: "contacts"
CREATE UNIQUE INDEX `contact_account_id_phone_number` ON `contacts` (`account_id`, `phone_number`);
-- Create index "contact_account_id_identifier" to table: "contacts"
CREATE UNIQUE INDEX `contact_account_id_identifier` ON `contacts` (`account_id`, `identifier`);
-- Create index "contact_account_id_last_activity_at" to table: "contacts"
CREATE INDEX `contact_account_id_last_activity_at` ON `contacts` (`account_id`, `last_activity_at`);
-- Create index "contact_search_text_trgm" to table: "contacts"
CREATE INDEX `contact_search_text_trgm` ON `contacts` (`search_text`);
-- Create "contact_inboxes" table
CREATE TABLE `contact_inboxes` (`id` integer NOT NULL PRIMARY KEY AUTOINCREMENT, `created_at` datetime NOT NULL, `updated_at` datetime NOT NULL, `source_id` text NOT NULL, `hmac_verified` bool NOT NULL DEFAULT (false), `contact_id` integer NOT NULL, `account_id` integer NOT NULL, `inbox_id` integer NOT NULL, CONSTRAINT `contact_inboxes_contacts_contact_inboxes` FOREIGN KEY (`contact_id`) REFERENCES `contacts` (`id`) ON DELETE CASCADE, CONSTRAINT `contact_inboxes_accounts_account` FOREIGN KEY (`account_id`) REFERENCES `accounts` (`id`) ON DELETE NO ACTION, CONSTRAINT `contact_inboxes_inboxes_contact_inboxes` FOREIGN KEY (`inbox_id`) REFERENCES `inboxes` (`id`) ON DELETE CASCADE);
-- Create index "contactinbox_account_id" to table: "contact_inboxes"
CREATE INDEX `contactinbox_account_id` ON `contact_inboxes` (`account_id`);
-- Create index "contactinbox_inbox_id_source_id" to table: "contact_inboxes"
CREATE UNIQUE INDEX `contactinbox_inbox_id_source_id` ON `contact_inboxes` (`inbox_id`, `source_id`);
-- Create "conversations" table
CREATE TABLE `conversations` (`id` integer NOT NULL PRIMARY KEY AUTOINCREMENT, `created_at` datetime NOT NULL, `updated_at` datetime NOT NULL, `display_id` integer NOT NULL, `uuid` text NOT NULL, `status` text NOT NULL DEFAULT ('open'), `priority` text NULL, `labels` json NOT NULL, `additional_attributes` json NOT NULL, `custom_attributes` json NOT NULL, `snoozed_until` datetime NULL, `last_activity_at` datetime NOT NULL, `last_incoming_at` datetime NULL, `first_reply_created_at` datetime NULL, `waiting_since` datetime NULL, `agent_last_seen_at` datetime NULL, `contact_last_seen_at` datetime NULL, `contact_id` integer NOT NULL, `account_id` integer NOT NULL, `contact_inbox_id` integer NULL, `assignee_id` integer NULL, `inbox_id` integer NOT NULL, `team_id` integer NULL, CONSTRAINT `conversations_contacts_conversations` FOREIGN KEY (`contact_id`) REFERENCES `contacts` (`id`) ON DELETE CASCADE, CONSTRAINT `conversations_accounts_account` FOREIGN KEY (`account_id`) REFERENCES `accounts` (`id`) ON DELETE NO ACTION, CONSTRAINT `conversations_contact_inboxes_contact_inbox` FOREIGN KEY (`contact_inbox_id`) REFERENCES `contact_inboxes` (`id`) ON DELETE SET NULL, CONSTRAINT `conversations_users_assignee` FOREIGN KEY (`assignee_id`) REFERENCES `users` (`id`) ON DELETE SET NULL, CONSTRAINT `conversations_inboxes_conversations` FOREIGN KEY (`inbox_id`) REFERENCES `inboxes` (`id`) ON DELETE CASCADE, CONSTRAINT `conversations_teams_conversations` FOREIGN KEY (`team_id`) REFERENCES `teams` (`id`) ON DELETE SET NULL);
-- Create index "conversation_account_id" to table: "conversations"
CREATE INDEX `conversation_account_id` ON `conversations` (`account_id`);
-- Create index "conversation_account_id_display_id" to table: "conversations"
CREATE UNIQUE INDEX `conversation_account_id_display_id` ON `conversations` (`account_id`, `display_id`);
-- Create index "conversation_account_id_status_last_activity_at" to table: "conversations"
CREATE INDEX `conversation_account_id_status_last_activity_at` ON `conversations` (`account_id`, `status`, `last_activity_at`);
-- Create index "conversation_contact_id" to table: "conversations"
CREATE INDEX `conversation_contact_id` ON `conversations` (`contact_id`);
-- Create "custom_attribute_definitions" table
CREATE TABLE `custom_attribute_definitions` (`id` integer NOT NULL PRIMARY KEY AUTOINCREMENT, `created_at` datetime NOT NULL, `updated_at` datetime NOT NULL, `attribute_display_name` text NOT NULL, `attribute_key` text NOT NULL, `attribute_display_type` text NOT NULL DEFAULT ('text'), `attribute_model` text NOT NULL, `attribute_description` text NULL DEFAULT (''), `attribute_values` json NOT NULL, `regex_pattern` text NULL DEFAULT (''), `regex_cue` text NULL DEFAULT (''), `account_id` integer NOT NULL, CONSTRAINT `custom_attribute_definitions_accounts_account` FOREIGN KEY (`account_id`) REFERENCES `accounts` (`id`) ON DELETE NO ACTION);
-- Create index "customattributedefinition_account_id" to table: "custom_attribute_definitions"
CREATE INDEX `customattributedefinition_account_id` ON `custom_attribute_definitions` (`account_id`);
-- Create index "customattributedefinition_accou_76f61558ac17972ec5d5c50cb36be013" to table: "custom_attribute_definitions"
CREATE UNIQUE INDEX `customattributedefinition_accou_76f61558ac17972ec5d5c50cb36be013` ON `custom_attribute_definitions` (`account_id`, `attribute_model`, `attribute_key`);
-- Create "funnels" table
CREATE TABLE `funnels` (`id` integer NOT NULL PRIMARY KEY AUTOINCREMENT, `created_at` datetime NOT NULL, `updated_at` datetime NOT NULL, `name` text NOT NULL, `description` text NULL DEFAULT (''), `active` bool NOT NULL DEFAULT (true), `settings` json NOT NULL, `account_id` integer NOT NULL, CONSTRAINT `funnels_accounts_account` FOREIGN KEY (`account_id`) REFERENCES `accounts` (`id`) ON DELETE NO ACTION);
-- Create index "funnel_account_id" to table: "funnels"
CREATE INDEX `funnel_account_id` ON `funnels` (`account_id`);
-- Create "funnel_stages" table
CREATE TABLE `funnel_stages` (`id` integer NOT NULL PRIMARY KEY AUTOINCREMENT, `created_at` datetime NOT NULL, `updated_at` datetime NOT NULL, `name` text NOT NULL, `slug` text NOT NULL, `color` text NULL DEFAULT (''), `description` text NULL DEFAULT (''), `position` integer NOT NULL DEFAULT (0), `funnel_id` integer NOT NULL, `account_id` integer NOT NULL, CONSTRAINT `funnel_stages_funnels_stages` FOREIGN KEY (`funnel_id`) REFERENCES `funnels` (`id`) ON DELETE CASCADE, CONSTRAINT `funnel_stages_accounts_account` FOREIGN KEY (`account_id`) REFERENCES `accounts` (`id`) ON DELETE NO ACTION);
-- Create index "funnelstage_account_id" to table: "funnel_stages"
CREATE INDEX `funnelstage_account_id` ON `funnel_stages` (`account_id`);
-- Create index "funnelstage_funnel_id_slug" to table: "funnel_stages"
CREATE UNIQUE INDEX `funnelstage_funnel_id_slug` ON `funnel_stages` (`funnel_id`, `slug`);
-- Create "idempotency_keys" table
CREATE TABLE `idempotency_keys` (`id` integer NOT NULL PRIMARY KEY AUTOINCREMENT, `created_at` datetime NOT NULL, `updated_at` datetime NOT NULL, `account_id` integer NOT NULL, `user_id` integer NOT NULL, `key` text NOT NULL, `request` text NOT NULL, `body_hash` text NOT NULL, `status` integer NOT NULL DEFAULT (0), `content_type` text NULL, `response_body` blob NULL);
-- Create index "idempotencykey_account_id_user_id_key" to table: "idempotency_keys"
CREATE UNIQUE INDEX `idempotencykey_account_id_user_id_key` ON `idempotency_keys` (`account_id`, `user_id`, `key`);
-- Create index "idempotencykey_created_at" to table: "idempotency_keys"
CREATE INDEX `idempotencykey_created_at` ON `idempotency_keys` (`created_at`);
-- Create "inboxes" table
CREATE TABLE `inboxes` (`id` integer NOT NULL PRIMARY KEY AUTOINCREMENT, `created_at` datetime NOT NULL, `updated_at` datetime NOT NULL, `name` text NOT NULL, `channel_type` text NOT NULL, `channel` json NOT NULL, `greeting_enabled` bool NOT NULL DEFAULT (false), `greeting_message` text NULL DEFAULT (''), `enable_auto_assignment` bool NOT NULL DEFAULT (true), `enable_email_collect` bool NOT NULL DEFAULT (true), `csat_survey_enabled` bool NOT NULL DEFAULT (false), `working_hours_enabled` bool NOT NULL DEFAULT (false), `out_of_office_message` text NULL DEFAULT (''), `timezone` text NOT NULL DEFAULT ('UTC'), `allow_messages_after_resolved` bool NOT NULL DEFAULT (true), `lock_to_single_conversation` bool NOT NULL DEFAULT (false), `sender_name_type` text NOT NULL DEFAULT ('friendly'), `business_name` text NULL DEFAULT (''), `avatar_url` text NULL DEFAULT (''), `agent_bot_id` integer NULL, `account_id` integer NOT NULL, CONSTRAINT `inboxes_agent_bots_inboxes` FOREIGN KEY (`agent_bot_id`) REFERENCES `agent_bots` (`id`) ON DELETE SET NULL, CONSTRAINT `inboxes_accounts_account` FOREIGN KEY (`account_id`) REFERENCES `accounts` (`id`) ON DELETE NO ACTION);
-- Create index "inbox_account_id" to table: "inboxes"
CREATE INDEX `inbox_account_id` ON `inboxes` (`account_id`);
-- Create "inbox_members" table
CREATE TABLE `inbox_members` (`id` integer NOT NULL PRIMARY KEY AUTOINCREMENT, `created_at` datetime NOT NULL, `updated_at` datetime NOT NULL, `inbox_id` integer NOT NULL, `account_id` integer NOT NULL, `user_id` integer NOT NULL, CONSTRAINT `inbox_members_inboxes_members` FOREIGN KEY (`inbox_id`) REFERENCES `inboxes` (`id`) ON DELETE CASCADE, CONSTRAINT `inbox_members_accounts_account` FOREIGN KEY (`account_id`) REFERENCES `accounts` (`id`) ON DELETE NO ACTION, CONSTRAINT `inbox_members_users_user` FOREIGN KEY (`user_id`) REFERENCES `users` (`id`) ON DELETE NO ACTION);
-- Create index "inboxmember_account_id" to table: "inbox_members"
CREATE INDEX `inboxmember_account_id` ON `inbox_members` (`account_id`);
-- Create index "inboxmember_inbox_id_user_id" to table: "inbox_members"
CREATE UNIQUE INDEX `inboxmember_inbox_id_user_id` ON `inbox_members` (`inbox_id`, `user_id`);
-- Create "kanban_automations" table
CREATE TABLE `kanban_automations` (`id` integer NOT NULL PRIMARY KEY AUTOINCREMENT, `created_at` datetime NOT NULL, `updated_at` datetime NOT NULL, `name` text NOT NULL, `funnel_id` integer NULL, `trigger_type` text NOT NULL, `trigger_config` json NOT NULL, `action_type` text NOT NULL, `action_config` json NOT NULL, `enabled` bool NOT NULL DEFAULT (true), `last_run_at` datetime NULL, `account_id` integer NOT NULL, CONSTRAINT `kanban_automations_accounts_account` FOREIGN KEY (`account_id`) REFERENCES `accounts` (`id`) ON DELETE NO ACTION);
-- Create index "kanbanautomation_account_id" to table: "kanban_automations"
CREATE INDEX `kanbanautomation_account_id` ON `kanban_automations` (`account_id`);
-- Create "kanban_configs" table
CREATE TABLE `kanban_configs` (`id` integer NOT NULL PRIMARY KEY AUTOINCREMENT, `created_at` datetime NOT NULL, `updated_at` datetime NOT NULL, `webhook_url` text NULL DEFAULT (''), `webhook_secret` text NULL DEFAULT (''), `enabled` bool NOT NULL DEFAULT (true), `settings` json NOT NULL, `account_id` integer NOT NULL, CONSTRAINT `kanban_configs_accounts_account` FOREIGN KEY (`account_id`) REFERENCES `accounts` (`id`) ON DELETE NO ACTION);
-- Create index "kanbanconfig_account_id" to table: "kanban_configs"
CREATE INDEX `kanbanconfig_account_id` ON `kanban_configs` (`account_id`);
-- Create index "kanbanconfig_account_unique" to table: "kanban_configs"
CREATE UNIQUE INDEX `kanbanconfig_account_unique` ON `kanban_configs` (`account_id`);
-- Create "kanban_items" table
CREATE TABLE `kanban_items` (`id` integer NOT NULL PRIMARY KEY AUTOINCREMENT, `created_at` datetime NOT NULL, `updated_at` datetime NOT NULL, `position` integer NOT NULL DEFAULT (0), `title` text NOT NULL DEFAULT (''), `description` text NULL DEFAULT (''), `priority` text NOT NULL DEFAULT ('none'), `value` real NOT NULL DEFAULT (0), `currency` json NOT NULL, `item_details` json NOT NULL, `status` text NOT NULL DEFAULT ('open'), `stage_entered_at` datetime NOT NULL, `closed_at` datetime NULL, `created_by_id` integer NULL, `conversation_id` integer NULL, `funnel_id` integer NOT NULL, `stage_id` integer NOT NULL, `account_id` integer NOT NULL, CONSTRAINT `kanban_items_conversations_kanban_items` FOREIGN KEY (`conversation_id`) REFERENCES `conversations` (`id`) ON DELETE SET NULL, CONSTRAINT `kanban_items_funnels_items` FOREIGN KEY (`funnel_id`) REFERENCES `funnels` (`id`) ON DELETE CASCADE, CONSTRAINT `kanban_items_funnel_stages_items` FOREIGN KEY (`stage_id`) REFERENCES `funnel_stages` (`id`) ON DELETE NO ACTION, CONSTRAINT `kanban_items_accounts_account` FOREIGN KEY (`account_id`) REFERENCES `accounts` (`id`) ON DELETE NO ACTION);
-- Create index "kanbanitem_account_id" to table: "kanban_items"
CREATE INDEX `kanbanitem_account_id` ON `kanban_items` (`account_id`);
-- Create index "kanbanitem_stage_id_position" to table: "kanban_items"
CREATE UNIQUE INDEX `kanbanitem_stage_id_position` ON `kanban_items` (`stage_id`, `position`);
-- Create index "kanbanitem_funnel_id_stage_id" to table: "kanban_items"
CREATE INDEX `kanbanitem_funnel_id_stage_id` ON `kanban_items` (`funnel_id`, `stage_id`);
-- Create "labels" table
CREATE TABLE `labels` (`id` integer NOT NULL PRIMARY KEY AUTOINCREMENT, `created_at` datetime NOT NULL, `updated_at` datetime NOT NULL, `title` text NOT NULL, `description` text NULL DEFAULT (''), `color` text NOT NULL DEFAULT ('#1f93ff'), `show_on_sidebar` bool NOT NULL DEFAULT (false), `account_id` integer NOT NULL, CONSTRAINT `labels_accounts_account` FOREIGN KEY (`account_id`) REFERENCES `accounts` (`id`) ON DELETE NO ACTION);
-- Create index "label_account_id" to table: "labels"
CREATE INDEX `label_account_id` ON `labels` (`account_id`);
-- Create index "label_account_id_title" to table: "labels"
CREATE UNIQUE INDEX `label_account_id_title` ON `labels` (`account_id`, `title`);
-- Create "messages" table
CREATE TABLE `messages` (`id` integer NOT NULL PRIMARY KEY AUTOINCREMENT, `created_at` datetime NOT NULL, `updated_at` datetime NOT NULL, `inbox_id` integer NOT NULL, `content` text NULL, `message_type` text NOT NULL DEFAULT ('outgoing'), `content_type` text NOT NULL DEFAULT ('text'), `private` bool NOT NULL DEFAULT (false), `status` text NOT NULL DEFAULT ('sent'), `content_attributes` json NOT NULL, `additional_attributes` json NOT NULL, `template_params` json NULL, `source_id` text NULL, `echo_id` text NULL, `sender_type` text NULL, `sender_id` integer NULL, `delivery_attempts` integer NOT NULL DEFAULT (0), `next_delivery_at` datetime NULL, `conversation_id` integer NOT NULL, `account_id` integer NOT NULL, CONSTRAINT `messages_conversations_messages` FOREIGN KEY (`conversation_id`) REFERENCES `conversations` (`id`) ON DELETE CASCADE, CONSTRAINT `messages_accounts_account` FOREIGN KEY (`account_id`) REFERENCES `accounts` (`id`) ON DELETE NO ACTION);
-- Create index "message_account_id" to table: "messages"
CREATE INDEX `message_account_id` ON `messages` (`account_id`);
-- Create index "message_conversation_id_id" to table: "messages"
CREATE INDEX `message_conversation_id_id` ON `messages` (`conversation_id`, `id`);
-- Create index "message_next_delivery_at" to table: "messages"
CREATE INDEX `message_next_delivery_at` ON `messages` (`next_delivery_at`);
-- Create "platform_tokens" table
CREATE TABLE `platform_tokens` (`id` integer NOT NULL PRIMARY KEY AUTOINCREMENT, `created_at` datetime NOT NULL, `updated_at` datetime NOT NULL, `name` text NOT NULL DEFAULT ('platform'), `token_hash` text NOT NULL);
-- Create index "platform_tokens_token_hash_key" to table: "platform_tokens"
CREATE UNIQUE INDEX `platform_tokens_token_hash_key` ON `platform_tokens` (`token_hash`);
-- Create "scheduled_messages" table
CREATE TABLE `scheduled_messages` (`id` integer NOT NULL PRIMARY KEY AUTOINCREMENT, `created_at` datetime NOT NULL, `updated_at` datetime NOT NULL, `title` text NULL DEFAULT (''), `content` text NOT NULL DEFAULT (''), `scheduled_at` datetime NOT NULL, `status` text NOT NULL DEFAULT ('pending'), `failure_reason` text NULL DEFAULT (''), `template_params` json NULL, `content_attributes` json NOT NULL, `private` bool NOT NULL DEFAULT (false), `recurrence_type` text NOT NULL DEFAULT ('none'), `recurrence_interval` integer NOT NULL DEFAULT (1), `recurrence_days` json NOT NULL, `recurrence_end_type` text NOT NULL DEFAULT ('never'), `recurrence_end_date` datetime NULL, `recurrence_max_occurrences` integer NULL, `occurrences_count` integer NOT NULL DEFAULT (0), `next_occurrence_at` datetime NULL, `occurrence_at` datetime NULL, `message_id` integer NULL, `sent_at` datetime NULL, `contact_id` integer NOT NULL, `conversation_id` integer NULL, `inbox_id` integer NOT NULL, `account_id` integer NOT NULL, `author_id` integer NULL, `parent_id` integer NULL, CONSTRAINT `scheduled_messages_contacts_scheduled_messages` FOREIGN KEY (`contact_id`) REFERENCES `contacts` (`id`) ON DELETE CASCADE, CONSTRAINT `scheduled_messages_conversations_scheduled_messages` FOREIGN KEY (`conversation_id`) REFERENCES `conversations` (`id`) ON DELETE CASCADE, CONSTRAINT `scheduled_messages_inboxes_scheduled_messages` FOREIGN KEY (`inbox_id`) REFERENCES `inboxes` (`id`) ON DELETE CASCADE, CONSTRAINT `scheduled_messages_accounts_account` FOREIGN KEY (`account_id`) REFERENCES `accounts` (`id`) ON DELETE NO ACTION, CONSTRAINT `scheduled_messages_users_author` FOREIGN KEY (`author_id`) REFERENCES `users` (`id`) ON DELETE SET NULL, CONSTRAINT `scheduled_messages_scheduled_messages_occurrences` FOREIGN KEY (`parent_id`) REFERENCES `scheduled_messages` (`id`) ON DELETE SET NULL);
-- Create index "scheduledmessage_account_id" to table: "scheduled_messages"
CREATE INDEX `scheduledmessage_account_id` ON `scheduled_messages` (`account_id`);
-- Create index "scheduledmessage_status_scheduled_at" to table: "scheduled_messages"
CREATE INDEX `scheduledmessage_status_scheduled_at` ON `scheduled_messages` (`status`, `scheduled_at`);
-- Create index "scheduledmessage_parent_id_occurrence_at" to table: "scheduled_messages"
CREATE UNIQUE INDEX `scheduledmessage_parent_id_occurrence_at` ON `scheduled_messages` (`parent_id`, `occurrence_at`);
-- Create index "scheduledmessage_account_id_scheduled_at" to table: "scheduled_messages"
CREATE INDEX `scheduledmessage_account_id_scheduled_at` ON `scheduled_messages` (`account_id`, `scheduled_at`);
-- Create index "scheduledmessage_next_occurrence_at" to table: "scheduled_messages"
CREATE INDEX `scheduledmessage_next_occurrence_at` ON `scheduled_messages` (`next_occurrence_at`);
-- Create index "scheduledmessage_message_id" to table: "scheduled_messages"
CREATE INDEX `scheduledmessage_message_id` ON `scheduled_messages` (`message_id`);
-- Create "teams" table
CREATE TABLE `teams` (`id` integer NOT NULL PRIMARY KEY AUTOINCREMENT, `created_at` datetime NOT NULL, `updated_at` datetime NOT NULL, `name` text NOT NULL, `description` text NULL DEFAULT (''), `allow_auto_assign` bool NOT NULL DEFAULT (true), `account_id` integer NOT NULL, CONSTRAINT `teams_accounts_account` FOREIGN KEY (`account_id`) REFERENCES `accounts` (`id`) ON DELETE NO ACTION);
-- Create index "team_account_id" to table: "teams"
CREATE INDEX `team_account_id` ON `teams` (`account_id`);
-- Create index "team_account_id_name" to table: "teams"
CREATE UNIQUE INDEX `team_account_id_name` ON `teams` (`account_id`, `name`);
-- Create "team_members" table
CREATE TABLE `team_members` (`id` integer NOT NULL PRIMARY KEY AUTOINCREMENT, `created_at` datetime NOT NULL, `updated_at` datetime NOT NULL, `team_id` integer NOT NULL, `account_id` integer NOT NULL, `user_id` integer NOT NULL, CONSTRAINT `team_members_teams_members` FOREIGN KEY (`team_id`) REFERENCES `teams` (`id`) ON DELETE CASCADE, CONSTRAINT `team_members_accounts_account` FOREIGN KEY (`account_id`) REFERENCES `accounts` (`id`) ON DELETE NO ACTION, CONSTRAINT `team_members_users_user` FOREIGN KEY (`user_id`) REFERENCES `users` (`id`) ON DELETE NO ACTION);
-- Create index "teammember_account_id" to table: "team_members"
CREATE INDEX `teammember_account_id` ON `team_members` (`account_id`);
-- Create index "teammember_team_id_user_id" to table: "team_members"
CREATE UNIQUE INDEX `teammember_team_id_user_id` ON `team_members` (`team_id`, `user_id`);
-- Create "users" table
CREATE TABLE `users` (`id` integer NOT NULL PRIMARY KEY AUTOINCREMENT, `created_at` datetime NOT NULL, `updated_at` datetime NOT NULL, `name` text NOT NULL, `display_name` text NULL, `email` text NOT NULL, `password_hash` text NULL, `confirmed` bool NOT NULL DEFAULT (false), `avatar_url` text NULL);
-- Create index "users_email_key" to table: "users"
CREATE UNIQUE INDEX `users_email_key` ON `users` (`email`);
-- Create "webhook_deliveries" table
CREATE TABLE `webhook_deliveries` (`id` integer NOT NULL PRIMARY KEY AUTOINCREMENT, `created_at` datetime NOT NULL, `updated_at` datetime NOT NULL, `delivery_id` text NOT NULL, `kanban_target` bool NOT NULL DEFAULT (false), `url` text NOT NULL, `event` text NOT NULL, `payload` text NOT NULL, `status` text NOT NULL DEFAULT ('pending'), `attempts` integer NOT NULL DEFAULT (0), `next_attempt_at` datetime NULL, `response_status` integer NULL, `last_error` text NULL DEFAULT (''), `delivered_at` datetime NULL, `account_id` integer NOT NULL, `subscription_id` integer NULL, CONSTRAINT `webhook_deliveries_accounts_account` FOREIGN KEY (`account_id`) REFERENCES `accounts` (`id`) ON DELETE NO ACTION, CONSTRAINT `webhook_deliveries_webhook_subscriptions_deliveries` FOREIGN KEY (`subscription_id`) REFERENCES `webhook_subscriptions` (`id`) ON DELETE CASCADE);
-- Create index "webhook_deliveries_delivery_id_key" to table: "webhook_deliveries"
CREATE UNIQUE INDEX `webhook_deliveries_delivery_id_key` ON `webhook_deliveries` (`delivery_id`);
-- Create index "webhookdelivery_account_id" to table: "webhook_deliveries"
CREATE INDEX `webhookdelivery_account_id` ON `webhook_deliveries` (`account_id`);
-- Create index "webhookdelivery_status_next_attempt_at" to table: "webhook_deliveries"
CREATE INDEX `webhookdelivery_status_next_attempt_at` ON `webhook_deliveries` (`status`, `next_attempt_at`);
-- Create "webhook_subscriptions" table
CREATE TABLE `webhook_subscriptions` (`id` integer NOT NULL PRIMARY KEY AUTOINCREMENT, `created_at` datetime NOT NULL, `updated_at` datetime NOT NULL, `name` text NULL DEFAULT (''), `url` text NOT NULL, `subscriptions` json NOT NULL, `secret` text NOT NULL, `inbox_id` integer NULL, `account_id` integer NOT NULL, CONSTRAINT `webhook_subscriptions_accounts_account` FOREIGN KEY (`account_id`) REFERENCES `accounts` (`id`) ON DELETE NO ACTION);
-- Create index "webhooksubscription_account_id" to table: "webhook_subscriptions"
CREATE INDEX `webhooksubscription_account_id` ON `webhook_subscriptions` (`account_id`);
-- Create "kanban_item_assigned_agents" table
CREATE TABLE `kanban_item_assigned_agents` (`kanban_item_id` integer NOT NULL, `user_id` integer NOT NULL, PRIMARY KEY (`kanban_item_id`, `user_id`), CONSTRAINT `kanban_item_assigned_agents_kanban_item_id` FOREIGN KEY (`kanban_item_id`) REFERENCES `kanban_items` (`id`) ON DELETE CASCADE, CONSTRAINT `kanban_item_assigned_agents_user_id` FOREIGN KEY (`user_id`) REFERENCES `users` (`id`) ON DELETE CASCADE);
