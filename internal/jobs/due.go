package jobs

import (
	"context"
	"fmt"
	"strings"
	"time"
)

// idleCheck bounds how long an idle runner sleeps without a wake: the one
// statement it then runs (nextDue) notices work no wake announced (a row
// another instance wrote without an event, a lapsed lease of a dead one).
const idleCheck = time.Second

// nextDue reads, in one statement, the earliest due time of each kind's
// rows (the zero time for a kind without any), in r.kinds' order. Each is
// an index's first entry.
func (r *Runner) nextDue(ctx context.Context) ([]time.Time, error) {
	parts := make([]string, len(r.kinds))
	for i, k := range r.kinds {
		parts[i] = fmt.Sprintf("(SELECT min(c.%[1]s) FROM %[2]s c WHERE c.%[1]s IS NOT NULL)", k.dueColumn, k.table)
	}
	raw := make([]any, len(r.kinds))
	ptrs := make([]any, len(raw))
	for i := range raw {
		ptrs[i] = &raw[i]
	}
	if err := r.db.SQL.QueryRowContext(ctx, "SELECT "+strings.Join(parts, ", ")).Scan(ptrs...); err != nil {
		return nil, err
	}
	due := make([]time.Time, len(raw))
	for i, v := range raw {
		t, err := asTime(v)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", r.kinds[i].table, err)
		}
		due[i] = t
	}
	return due, nil
}

// sqliteTimeLayouts are how modernc's driver writes a time.Time (its
// default, time.Time.String's), then the other forms it reads: an
// aggregate's value has no declared type, so SQLite hands back the text.
var sqliteTimeLayouts = []string{"2006-01-02 15:04:05.999999999 -0700 MST", "2006-01-02 15:04:05.999999999-07:00", time.RFC3339Nano}

// asTime reads a due time as a driver returns it: NULL, a time.Time
// (PostgreSQL), or text (SQLite).
func asTime(v any) (time.Time, error) {
	var s string
	switch v := v.(type) {
	case nil:
		return time.Time{}, nil
	case time.Time:
		return v, nil
	case string:
		s = v
	case []byte:
		s = string(v)
	default:
		return time.Time{}, fmt.Errorf("a due time of type %T", v)
	}
	for _, layout := range sqliteTimeLayouts {
		if t, err := time.Parse(layout, s); err == nil {
			return t, nil
		}
	}
	return time.Time{}, fmt.Errorf("unreadable due time %q", s)
}

// sleepFor is how long the loop may sleep after a pass: until the earliest
// due row of a kind it did not just find waiting on busy workers or keys
// (a finishing job wakes it for those), and at most idleCheck.
func (r *Runner) sleepFor(due []time.Time, waiting []bool) time.Duration {
	now := r.now()
	d := r.idleCheck
	for i, t := range due {
		if t.IsZero() || waiting[i] {
			continue
		}
		d = min(d, max(t.Sub(now), 0))
	}
	return d
}

// nudgeGap is the least time between a pass and the next one a nudge
// starts. Every committed transaction and every event nudges the runner (a
// commit may have made work due), and under a stream of writes that was one
// due-time read for nearly every commit: 712 of them in a burst of 1,000
// WhatsApp posts, about 7 % of its statements. Work a commit made due now
// waits at most this long more; a finishing job's Wake is not held back.
const nudgeGap = 20 * time.Millisecond

// Nudge tells the runner a commit or an event may have made work due: it
// reads when each kind is next due again, at once or nudgeGap after its last
// pass, whichever is later.
func (r *Runner) Nudge() {
	select {
	case r.nudge <- struct{}{}:
	default:
	}
}

// sleep waits for the next pass: wait, a wake, or a nudge, the last held
// until nudgeGap after the pass that just ended. It answers false when ctx
// ends.
func (r *Runner) sleep(ctx context.Context, wait time.Duration) bool {
	passed := time.Now()
	t := time.NewTimer(wait)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-r.wake:
		return true
	case <-t.C:
		return true
	case <-r.nudge:
	}
	hold := nudgeGap - time.Since(passed)
	if hold <= 0 {
		return true
	}
	gap := time.NewTimer(hold)
	defer gap.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-r.wake:
	case <-t.C:
	case <-gap.C:
	}
	return true
}
