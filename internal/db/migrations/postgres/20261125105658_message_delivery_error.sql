-- Modify "messages" table
ALTER TABLE "messages" ADD COLUMN "delivery_error" text NULL DEFAULT '';
