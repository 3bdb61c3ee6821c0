package jobs

// scheduleKind fires scheduled messages whose next occurrence is due, many
// to a transaction in a burst. Its workers claim the schedules in the
// firing's own transaction (schedules.FireDue), which records each firing
// at most once; the few it leaves are claimed and fired alone. Two workers
// on PostgreSQL: each goes on while its batches come back full, and four
// took so much of a 10,000-schedule burst's CPU that its webhooks fell 2-3 s
// behind, for no earlier delivery (docs/performance.md, eleventh session).
func scheduleKind(r *Runner) kind {
	return kind{table: "scheduled_messages", dueColumn: "next_occurrence_at",
		batch: scheduleBatch, fireDue: r.svc.FireDue, run: r.writing(r.svc.FireSchedule),
		postgresWorkers: 2, sqliteWorkers: 1}
}

// scheduleBatch is how many schedules one firing transaction takes at most:
// enough to share a commit and the reads among many, few enough that the
// transaction holds SQLite's one writer for tens of milliseconds.
const scheduleBatch = 50
