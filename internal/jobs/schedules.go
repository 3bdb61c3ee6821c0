package jobs

// scheduleKind fires scheduled messages whose next occurrence is due; the
// operation records each firing at most once (see ops.FireSchedule).
func scheduleKind(r *Runner) kind {
	return kind{table: "scheduled_messages", dueColumn: "next_occurrence_at", run: r.writing(r.svc.FireSchedule),
		postgresWorkers: 8, sqliteWorkers: 1}
}
