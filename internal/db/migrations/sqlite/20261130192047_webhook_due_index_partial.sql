-- Drop index "webhookdelivery_status_next_attempt_at" from table: "webhook_deliveries"
DROP INDEX `webhookdelivery_status_next_attempt_at`;
-- Create index "webhookdelivery_next_attempt_at" to table: "webhook_deliveries"
CREATE INDEX `webhookdelivery_next_attempt_at` ON `webhook_deliveries` (`next_attempt_at`) WHERE next_attempt_at IS NOT NULL;
