-- Drop index "accountuser_account_id" from table: "account_users"
DROP INDEX `accountuser_account_id`;
-- Drop index "conversation_account_id" from table: "conversations"
DROP INDEX `conversation_account_id`;
-- Drop index "customattributedefinition_account_id" from table: "custom_attribute_definitions"
DROP INDEX `customattributedefinition_account_id`;
-- Drop index "kanbanconfig_account_id" from table: "kanban_configs"
DROP INDEX `kanbanconfig_account_id`;
-- Drop index "label_account_id" from table: "labels"
DROP INDEX `label_account_id`;
-- Drop index "scheduledmessage_account_id" from table: "scheduled_messages"
DROP INDEX `scheduledmessage_account_id`;
-- Drop index "team_account_id" from table: "teams"
DROP INDEX `team_account_id`;
