package rest_test

// The console's calendar, conversation, contact and settings pages: the
// same rules as the API routes they share operations with, met by a
// session instead of a token.

// consoleLive: a signed-in member's socket (refused here as a plain GET).
var consoleLive = mxRow{oLogin, oUpgrade, oUpgrade, oUpgrade, oUpgrade, oLogin}

// consoleAuthorOrAdmin is mxAuthorOrAdmin for the console's session.
func consoleAuthorOrAdmin() mxRow { return mxRow{oLogin, o404, o403, o2xx, o404, oLogin} }

func pagesEntries() map[string]mxEntry {
	const app = "/app/accounts/:account_id"
	const sched = app + "/schedules/:id"
	scheduleForm := func(c *mxCell) any {
		return fields("inbox_id", itoa(c.w.Inbox1), "contact_id", itoa(c.w.Contact), "content", "Later",
			"scheduled_at", mxInAFewDays()[:16], "tz", "UTC", "recurrence_type", "none", "recurrence_end_type", "never")
	}
	return map[string]mxEntry{
		"GET " + app + "/schedules/live":   {want: consoleLive},
		"GET " + app + "/schedules/new":    {want: consoleRow(o2xx)},
		"GET " + app + "/contacts/options": {want: consoleRow(o2xx)},
		"POST " + app + "/schedules":       {want: mxRow{oLogin, o403, o2xx, o2xx, oRef, oLogin}, body: scheduleForm},
		"GET " + sched + "/drawer":         {want: mxRow{oLogin, o404, o2xx, o2xx, o404, oLogin}},
		"POST " + sched + "/edit": {want: consoleAuthorOrAdmin(),
			body: sameBody(fields("content", markSchedule, "tz", "UTC"))},
		"POST " + sched + "/cancel": {want: consoleAuthorOrAdmin(), setup: mxFreshSchedule},
		"POST " + sched + "/delete": {want: consoleAuthorOrAdmin(), setup: mxFreshSchedule},
	}
}
