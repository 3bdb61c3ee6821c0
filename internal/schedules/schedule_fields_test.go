package schedules

import (
	"errors"
	"reflect"
	"testing"
	"time"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/ent/scheduledmessage"
	"github.com/switchboard/switchboard/internal/apperr"
	"github.com/switchboard/switchboard/internal/recurrence"
)

func ptr[T any](v T) *T { return &v }

// now is a Tuesday.
var now = time.Date(2030, 1, 1, 12, 0, 0, 0, time.UTC)

// wednesday is the next day at 09:00, a valid start.
var wednesday = time.Date(2030, 1, 2, 9, 0, 0, 0, time.UTC)

// invalidFields returns the fields of err, which must be a 422.
func invalidFields(t *testing.T, err error) []string {
	t.Helper()
	var ae *apperr.Error
	if !errors.As(err, &ae) || ae.Kind != apperr.KindInvalid {
		t.Fatalf("got %#v, want an invalid-input error", err)
	}
	return ae.Fields
}

// Each bad create names the field it is about (every failing field when
// several fail), whatever else is sent.
func TestScheduleFieldsRefusals(t *testing.T) {
	valid := func(edit func(*ScheduleInput)) ScheduleInput {
		in := ScheduleInput{Content: ptr("Hello"), ScheduledAt: ptr(wednesday)}
		edit(&in)
		return in
	}
	for _, tc := range []struct {
		name       string
		in         ScheduleInput
		wantFields []string
	}{
		{"nothing sent", ScheduleInput{}, []string{"content", "scheduled_at"}},
		{"blank content", valid(func(in *ScheduleInput) { in.Content = ptr(" \t ") }), []string{"content"}},
		{"scheduled now", valid(func(in *ScheduleInput) { in.ScheduledAt = ptr(now) }), []string{"scheduled_at"}},
		{"scheduled in the past", valid(func(in *ScheduleInput) { in.ScheduledAt = ptr(now.Add(-time.Second)) }), []string{"scheduled_at"}},
		{"unknown recurrence type", valid(func(in *ScheduleInput) { in.RecurrenceType = ptr("hourly") }), []string{"recurrence_type"}},
		{"interval 0", valid(func(in *ScheduleInput) { in.RecurrenceType, in.RecurrenceInterval = ptr("daily"), ptr(0) }),
			[]string{"recurrence_interval"}},
		{"negative interval", valid(func(in *ScheduleInput) { in.RecurrenceType, in.RecurrenceInterval = ptr("monthly"), ptr(-2) }),
			[]string{"recurrence_interval"}},
		{"days on a daily series", valid(func(in *ScheduleInput) { in.RecurrenceType, in.RecurrenceDays = ptr("daily"), &[]int{1} }),
			[]string{"recurrence_days"}},
		{"day 7", valid(func(in *ScheduleInput) { in.RecurrenceType, in.RecurrenceDays = ptr("weekly"), &[]int{1, 7} }),
			[]string{"recurrence_days"}},
		{"day -1", valid(func(in *ScheduleInput) { in.RecurrenceType, in.RecurrenceDays = ptr("weekly"), &[]int{-1} }),
			[]string{"recurrence_days"}},
		{"unknown end type", valid(func(in *ScheduleInput) { in.RecurrenceType, in.RecurrenceEndType = ptr("daily"), ptr("someday") }),
			[]string{"recurrence_end_type"}},
		{"on_date without a date", valid(func(in *ScheduleInput) { in.RecurrenceType, in.RecurrenceEndType = ptr("daily"), ptr("on_date") }),
			[]string{"recurrence_end_date"}},
		{"after_occurrences without a count", valid(func(in *ScheduleInput) {
			in.RecurrenceType, in.RecurrenceEndType = ptr("daily"), ptr("after_occurrences")
		}), []string{"recurrence_max_occurrences"}},
		{"after 0 occurrences", valid(func(in *ScheduleInput) {
			in.RecurrenceType, in.RecurrenceEndType, in.RecurrenceMaxOccurrences = ptr("daily"), ptr("after_occurrences"), ptr(0)
		}), []string{"recurrence_max_occurrences"}},
		{"end date at the start", valid(func(in *ScheduleInput) {
			in.RecurrenceType, in.RecurrenceEndType, in.RecurrenceEndDate = ptr("daily"), ptr("on_date"), ptr(wednesday)
		}), []string{"recurrence_end_date"}},
		{"series ends before its first occurrence", valid(func(in *ScheduleInput) {
			// Fridays only, from a Wednesday, ending on the Thursday.
			in.RecurrenceType, in.RecurrenceDays = ptr("weekly"), &[]int{5}
			in.RecurrenceEndType, in.RecurrenceEndDate = ptr("on_date"), ptr(wednesday.AddDate(0, 0, 1))
		}), []string{"recurrence_end_date"}},
		{"several at once", ScheduleInput{ScheduledAt: ptr(wednesday), RecurrenceType: ptr("weekly"),
			RecurrenceInterval: ptr(0), RecurrenceDays: &[]int{9}}, []string{"content", "recurrence_interval", "recurrence_days"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f, err := scheduleFields(tc.in, nil, now)
			if f != nil {
				t.Errorf("a refused input returned fields %+v", f)
			}
			if got := invalidFields(t, err); !reflect.DeepEqual(got, tc.wantFields) {
				t.Errorf("fields %v, want %v (%v)", got, tc.wantFields, err)
			}
		})
	}
}

// What a valid create stores: the time in UTC, the rule with its defaults,
// and the first occurrence as the schedule's clock.
func TestScheduleFieldsCreate(t *testing.T) {
	berlin := time.FixedZone("CET", 3600)
	for _, tc := range []struct {
		name      string
		in        ScheduleInput
		wantRule  recurrence.Rule
		wantFirst time.Time
	}{
		{"one-off", ScheduleInput{Content: ptr("Hi"), ScheduledAt: ptr(wednesday.In(berlin))},
			recurrence.Rule{Type: recurrence.None, Interval: 1, EndType: recurrence.Never}, wednesday},
		{"weekly on Monday and Friday from a Wednesday starts on the Friday",
			ScheduleInput{Content: ptr("Hi"), ScheduledAt: ptr(wednesday), RecurrenceType: ptr("weekly"), RecurrenceDays: &[]int{5, 1}},
			recurrence.Rule{Type: recurrence.Weekly, Interval: 1, Days: []int{5, 1}, EndType: recurrence.Never},
			time.Date(2030, 1, 4, 9, 0, 0, 0, time.UTC)},
		{"an end without a recurrence is dropped",
			ScheduleInput{Content: ptr("Hi"), ScheduledAt: ptr(wednesday), RecurrenceEndType: ptr("after_occurrences"), RecurrenceMaxOccurrences: ptr(3)},
			recurrence.Rule{Type: recurrence.None, Interval: 1, EndType: recurrence.Never, Max: 3}, wednesday},
		{"monthly after 3", ScheduleInput{Content: ptr("Hi"), ScheduledAt: ptr(wednesday), RecurrenceType: ptr("monthly"),
			RecurrenceInterval: ptr(2), RecurrenceEndType: ptr("after_occurrences"), RecurrenceMaxOccurrences: ptr(3)},
			recurrence.Rule{Type: recurrence.Monthly, Interval: 2, EndType: recurrence.AfterOccurrences, Max: 3}, wednesday},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f, err := scheduleFields(tc.in, nil, now)
			if err != nil {
				t.Fatal(err)
			}
			if f.scheduledAt == nil || !f.scheduledAt.Equal(wednesday) || f.scheduledAt.Location() != time.UTC {
				t.Errorf("scheduled_at %v, want %v in UTC", f.scheduledAt, wednesday)
			}
			if !reflect.DeepEqual(f.rule, tc.wantRule) {
				t.Errorf("rule %+v, want %+v", f.rule, tc.wantRule)
			}
			if !f.next.Equal(tc.wantFirst) {
				t.Errorf("first occurrence %v, want %v", f.next, tc.wantFirst)
			}
			if !f.ruleChanged {
				t.Error("a create did not set its rule")
			}
		})
	}
}

// A PUT reads what it was not sent from the stored schedule: content and
// times may be left out, a change of type away from weekly drops the stored
// days, and any change of the recurrence restarts the series, so it needs a
// scheduled_at still ahead.
func TestScheduleFieldsUpdate(t *testing.T) {
	stored := func(scheduledAt time.Time) *ent.ScheduledMessage {
		return &ent.ScheduledMessage{Content: "Stored", ScheduledAt: scheduledAt,
			RecurrenceType: scheduledmessage.RecurrenceTypeWeekly, RecurrenceInterval: 1, RecurrenceDays: []int{1, 3},
			RecurrenceEndType: scheduledmessage.RecurrenceEndTypeNever, OccurrencesCount: 4}
	}
	started := stored(now.AddDate(0, 0, -30)) // a running series
	future := stored(wednesday)

	t.Run("content only keeps the running series", func(t *testing.T) {
		f, err := scheduleFields(ScheduleInput{Content: ptr("New text")}, started, now)
		if err != nil {
			t.Fatal(err)
		}
		if f.ruleChanged || f.scheduledAt != nil {
			t.Errorf("ruleChanged %v, scheduledAt %v: a content edit restarted the series", f.ruleChanged, f.scheduledAt)
		}
	})
	t.Run("blank content over stored content", func(t *testing.T) {
		_, err := scheduleFields(ScheduleInput{Content: ptr("")}, started, now)
		if got := invalidFields(t, err); !reflect.DeepEqual(got, []string{"content"}) {
			t.Errorf("fields %v, want [content]", got)
		}
	})
	t.Run("a recurrence change on a running series needs a new start", func(t *testing.T) {
		_, err := scheduleFields(ScheduleInput{RecurrenceInterval: ptr(2)}, started, now)
		if got := invalidFields(t, err); !reflect.DeepEqual(got, []string{"scheduled_at"}) {
			t.Errorf("fields %v, want [scheduled_at]", got)
		}
	})
	t.Run("weekly to daily drops the stored days", func(t *testing.T) {
		f, err := scheduleFields(ScheduleInput{RecurrenceType: ptr("daily")}, future, now)
		if err != nil {
			t.Fatal(err)
		}
		want := recurrence.Rule{Type: recurrence.Daily, Interval: 1, EndType: recurrence.Never}
		if !reflect.DeepEqual(f.rule, want) || !f.ruleChanged || !f.next.Equal(wednesday) {
			t.Errorf("rule %+v (changed %v, next %v), want %+v from %v", f.rule, f.ruleChanged, f.next, want, wednesday)
		}
	})
	t.Run("weekly to daily with days sent is refused", func(t *testing.T) {
		_, err := scheduleFields(ScheduleInput{RecurrenceType: ptr("daily"), RecurrenceDays: &[]int{2}}, future, now)
		if got := invalidFields(t, err); !reflect.DeepEqual(got, []string{"recurrence_days"}) {
			t.Errorf("fields %v, want [recurrence_days]", got)
		}
	})
	t.Run("end date before the stored start", func(t *testing.T) {
		_, err := scheduleFields(ScheduleInput{RecurrenceEndType: ptr("on_date"), RecurrenceEndDate: ptr(now.Add(time.Hour))}, future, now)
		if got := invalidFields(t, err); !reflect.DeepEqual(got, []string{"recurrence_end_date"}) {
			t.Errorf("fields %v, want [recurrence_end_date]", got)
		}
	})
}

func TestEditable(t *testing.T) {
	for _, tc := range []struct {
		name    string
		sm      *ent.ScheduledMessage
		wantErr string
	}{
		{"pending", &ent.ScheduledMessage{Status: scheduledmessage.StatusPending}, ""},
		{"sent", &ent.ScheduledMessage{Status: scheduledmessage.StatusSent},
			"Only a pending scheduled message can be changed; this one is sent"},
		{"cancelled", &ent.ScheduledMessage{Status: scheduledmessage.StatusCancelled},
			"Only a pending scheduled message can be changed; this one is cancelled"},
		{"pending but fired", &ent.ScheduledMessage{Status: scheduledmessage.StatusPending, MessageID: ptr(7)},
			"This scheduled message has already been sent to its channel"},
	} {
		err := editable(tc.sm)
		if tc.wantErr == "" {
			if err != nil {
				t.Errorf("%s: %v", tc.name, err)
			}
			continue
		}
		if fields := invalidFields(t, err); !reflect.DeepEqual(fields, []string{"status"}) || err.Error() != tc.wantErr {
			t.Errorf("%s: %q on %v, want %q on [status]", tc.name, err, fields, tc.wantErr)
		}
	}
}

// A firing that meets a refusal fails the schedule; anything else is
// retried.
func TestIsRefusal(t *testing.T) {
	for _, tc := range []struct {
		err  error
		want bool
	}{
		{apperr.Invalid("bad", "content"), true},
		{apperr.NotFound("Contact"), true},
		{apperr.Forbidden("no"), true},
		{apperr.Conflict("busy"), false},
		{apperr.From(errors.New("disk full")), false},
		{errors.New("connection reset"), false},
	} {
		if got := isRefusal(tc.err); got != tc.want {
			t.Errorf("isRefusal(%v) = %v, want %v", tc.err, got, tc.want)
		}
	}
}
