-- Drop index "message_account_id" from table: "messages"
DROP INDEX "message_account_id";
