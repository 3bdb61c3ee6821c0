-- Only due rows are indexed by their due time (written by hand: Atlas rebuilds
-- both tables to change an index's predicate; SQLite drops and creates it).
DROP INDEX `message_next_delivery_at`;
CREATE INDEX `message_next_delivery_at` ON `messages` (`next_delivery_at`) WHERE next_delivery_at IS NOT NULL;
DROP INDEX `scheduledmessage_next_occurrence_at`;
CREATE INDEX `scheduledmessage_next_occurrence_at` ON `scheduled_messages` (`next_occurrence_at`) WHERE next_occurrence_at IS NOT NULL;
