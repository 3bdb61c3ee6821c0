-- Modify "messages" table
ALTER TABLE "messages" ADD COLUMN "delivery_attempt_offset" bigint NOT NULL DEFAULT 0;
-- Modify "webhook_deliveries" table
ALTER TABLE "webhook_deliveries" ADD COLUMN "attempt_offset" bigint NOT NULL DEFAULT 0;
