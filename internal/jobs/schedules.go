package jobs

// scheduleKind fires scheduled messages whose next occurrence is due, many
// to a transaction in a burst; the operation records each firing at most
// once (see schedules.FireSchedules).
func scheduleKind(r *Runner) kind {
	return kind{table: "scheduled_messages", dueColumn: "next_occurrence_at",
		batch: scheduleBatch, runBatch: r.writingBatch(r.svc.FireSchedules), postgresWorkers: 4, sqliteWorkers: 1}
}

// scheduleBatch is how many schedules one firing transaction takes at most:
// enough to share a commit and the reads among many, few enough that the
// transaction holds SQLite's one writer for tens of milliseconds.
const scheduleBatch = 50
