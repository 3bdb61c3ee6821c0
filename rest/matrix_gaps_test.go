package rest_test

// knownGap lists the matrix cells ("METHOD /path | role", a variant as
// "METHOD /path [variant] | role") where the code does not yet meet issue
// 10, with the reason. They are skipped, not passed; a gap that starts
// passing fails the suite so that it is removed here. The lead empties this
// list as the rules move into the privacy policy.
var knownGap = map[string]string{}

func init() {
	const acc = "/api/v1/accounts/:account_id"
	// Schedules are hidden from an agent outside their inbox by a
	// hand-written check that answers 403, not by the privacy filter (404).
	const sched403 = "schedule of another inbox answers 403 (post-load check), not 404"
	for _, p := range []string{acc + "/scheduled_messages", acc + "/conversations/:conversation_id/scheduled_messages"} {
		for _, m := range []string{"GET", "PUT", "PATCH", "DELETE"} {
			knownGap[m+" "+p+"/:id | agent-out"] = sched403
		}
		knownGap["POST "+p+"/:id/cancel | agent-out"] = sched403
	}
	knownGap["POST "+acc+"/scheduled_messages | agent-out"] = "scheduling into another inbox answers 403, not 404"
	knownGap["POST "+acc+"/conversations | agent-out"] = "a conversation in another inbox answers 403 (post-load check), not 404"
	knownGap["GET "+acc+"/attachments/:id [schedule file] | agent-out"] =
		"a scheduled message's file is served to any agent of the account (only message files are checked)"
}
