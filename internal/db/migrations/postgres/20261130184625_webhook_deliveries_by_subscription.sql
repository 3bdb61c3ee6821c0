-- Create index "webhookdelivery_subscription_id_id" to table: "webhook_deliveries"
CREATE INDEX "webhookdelivery_subscription_id_id" ON "webhook_deliveries" ("subscription_id", "id");
