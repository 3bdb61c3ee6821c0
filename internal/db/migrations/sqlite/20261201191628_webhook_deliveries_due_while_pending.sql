-- Hand-written: a webhook delivery is due while its next_attempt_at is set,
-- and the job runner reads no status beside it. Every write that ends a
-- delivery (delivered, failed) clears it; this clears it on any ended row
-- written otherwise, so none is taken for due. Safe to run again.
UPDATE webhook_deliveries SET next_attempt_at = NULL
WHERE status <> 'pending' AND next_attempt_at IS NOT NULL;
