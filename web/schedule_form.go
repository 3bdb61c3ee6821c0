package web

import (
	"errors"
	"io"
	"mime/multipart"
	"strconv"
	"strings"
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/internal/apperr"
	"github.com/switchboard/switchboard/internal/core"
	"github.com/switchboard/switchboard/internal/schedules"
	"github.com/switchboard/switchboard/views"
)

// The schedule form as the browser posts it (multipart, for the files):
// values are read into a views.ScheduleForm, so that a refused save shows
// the form again as it was typed, and turned into the operation's input.

// localLayout is an <input type=datetime-local> value.
const localLayout = "2006-01-02T15:04"

// postedForm is a posted form's values, from a multipart or urlencoded body.
type postedForm map[string][]string

func readPosted(ctx *fiber.Ctx) (postedForm, []core.Upload, error) {
	if strings.HasPrefix(strings.ToLower(ctx.Get(fiber.HeaderContentType)), fiber.MIMEMultipartForm) {
		form, err := ctx.MultipartForm()
		if err != nil {
			return nil, nil, apperr.BadRequest("Malformed form: %v", err)
		}
		var files []core.Upload
		for _, fh := range form.File["attachments[]"] {
			files = append(files, upload(fh))
		}
		return form.Value, files, nil
	}
	out := postedForm{}
	ctx.Request().PostArgs().VisitAll(func(k, v []byte) { out[string(k)] = append(out[string(k)], string(v)) })
	return out, nil, nil
}

func upload(fh *multipart.FileHeader) core.Upload {
	return core.Upload{Name: fh.Filename, ContentType: fh.Header.Get("Content-Type"), Size: fh.Size,
		Open: func() (io.ReadCloser, error) { return fh.Open() }}
}

func (p postedForm) get(key string) string {
	if v := p[key]; len(v) > 0 {
		return strings.TrimSpace(v[0])
	}
	return ""
}

// scheduleForm reads the posted fields over base (the stored schedule's
// form for an edit): a field not posted keeps base's value. The form posts
// a hidden "false" before the private checkbox and an empty day before the
// day boxes, so that unticking them is posted too. A day that is none of
// the boxes' (0 to 6) is refused, with the form as read: dropped, it would
// save a series on fewer days than were sent.
func scheduleForm(p postedForm, base views.ScheduleForm) (views.ScheduleForm, error) {
	var err error
	f := base
	for key, dst := range map[string]*string{
		"tz": &f.TZ, "title": &f.Title, "content": &f.Content, "scheduled_at": &f.At, "inbox_id": &f.InboxID,
		"contact_id": &f.ContactID, "conversation_id": &f.Conversation, "recurrence_type": &f.Repeat,
		"recurrence_interval": &f.Interval, "recurrence_end_type": &f.EndType, "recurrence_end_date": &f.EndDate,
		"recurrence_max_occurrences": &f.Max, "template_name": &f.TemplateName, "template_language": &f.TemplateLanguage,
		"template_params": &f.TemplateParams,
	} {
		if _, ok := p[key]; ok {
			*dst = p.get(key)
		}
	}
	if v := p["private"]; len(v) > 0 {
		f.Private = v[len(v)-1] == "true"
	}
	if days, ok := p["recurrence_days"]; ok {
		f.Days = [7]bool{}
		for _, d := range days {
			n, nerr := strconv.Atoi(d)
			switch {
			case d == "":
			case nerr == nil && n >= 0 && n < 7:
				f.Days[n] = true
			default:
				err = apperr.Invalid("Repeat on must name days of the week", "recurrence_days")
			}
		}
	}
	if f.TZ == "" {
		f.TZ = "UTC"
	}
	return f, err
}

// formOf is a stored schedule as its edit form shows it.
func formOf(sm *ent.ScheduledMessage, accountID int, loc *time.Location) views.ScheduleForm {
	f := views.ScheduleForm{
		AccountID: accountID, ID: sm.ID, TZ: loc.String(), Title: sm.Title, Content: sm.Content,
		At: sm.ScheduledAt.In(loc).Format(localLayout), Private: sm.Private, Repeat: string(sm.RecurrenceType),
		Interval: strconv.Itoa(max(sm.RecurrenceInterval, 1)), EndType: string(sm.RecurrenceEndType),
	}
	for _, d := range localWeekdays(sm.RecurrenceDays, sm.ScheduledAt, loc) {
		f.Days[d] = true
	}
	if sm.RecurrenceEndDate != nil {
		f.EndDate = sm.RecurrenceEndDate.In(loc).Format(time.DateOnly)
	}
	if sm.RecurrenceMaxOccurrences != nil {
		f.Max = strconv.Itoa(*sm.RecurrenceMaxOccurrences)
	}
	storedTemplate(&f, sm.TemplateParams)
	return f
}

// input is the operation's input for the form; for an edit (old set) only
// what differs from the stored schedule, since sending its time or rule
// again would restart a series whose start has passed.
func (c *Console) scheduleInput(f views.ScheduleForm, old *views.ScheduleForm) (schedules.ScheduleInput, error) {
	var in schedules.ScheduleInput
	var errs core.FieldErrors
	loc, err := zone(f.TZ)
	if err != nil {
		return in, err
	}
	changed := func(get func(views.ScheduleForm) string) bool { return old == nil || get(f) != get(*old) }
	str := func(get func(views.ScheduleForm) string) *string {
		if !changed(get) {
			return nil
		}
		v := get(f)
		return &v
	}
	in.Title = str(func(x views.ScheduleForm) string { return x.Title })
	in.Content = str(func(x views.ScheduleForm) string { return x.Content })
	if old == nil || f.Private != old.Private {
		in.Private = &f.Private
	}
	if old == nil {
		in.InboxID = intField(&errs, "inbox_id", "Inbox", f.InboxID)
		in.ContactID = intField(&errs, "contact_id", "Contact", f.ContactID)
		in.ConversationID = intField(&errs, "conversation_id", "Conversation number", f.Conversation)
		if in.ConversationID != nil {
			in.InboxID, in.ContactID = nil, nil // the conversation names both
		}
	}
	if changed(func(x views.ScheduleForm) string { return x.At }) && f.At != "" {
		t, err := time.ParseInLocation(localLayout, f.At, loc)
		if err != nil {
			errs.Add("scheduled_at", "When must be a date and time")
		}
		in.ScheduledAt = &t
	}
	c.recurrenceInput(&in, &errs, f, old, loc)
	in.TemplateParams = templateInput(f, old)
	return in, errs.Err()
}

// recurrenceInput sets the rule's fields when any of them changed (the
// operation reads them together).
func (c *Console) recurrenceInput(in *schedules.ScheduleInput, errs *core.FieldErrors, f views.ScheduleForm, old *views.ScheduleForm, loc *time.Location) {
	if old != nil && f.Repeat == old.Repeat && f.Interval == old.Interval && f.Days == old.Days &&
		f.EndType == old.EndType && f.EndDate == old.EndDate && f.Max == old.Max && in.ScheduledAt == nil {
		return
	}
	repeat, end := f.Repeat, f.EndType
	in.RecurrenceType, in.RecurrenceEndType = &repeat, &end
	in.RecurrenceInterval = intField(errs, "recurrence_interval", "Every", f.Interval)
	if repeat == "weekly" {
		var days []int
		for d, on := range f.Days {
			if on {
				days = append(days, d)
			}
		}
		// Ticked in loc, stored as UTC weekdays: the start's time of day
		// says which (an edit that keeps the start has it in f.At too).
		if start, err := time.ParseInLocation(localLayout, f.At, loc); err == nil {
			days = utcWeekdays(days, start)
		}
		in.RecurrenceDays = &days
	}
	if end == "on_date" && f.EndDate != "" {
		d, err := time.ParseInLocation(time.DateOnly, f.EndDate, loc)
		if err != nil {
			errs.Add("recurrence_end_date", "End date must be a date")
		}
		last := d.AddDate(0, 0, 1).Add(-time.Second) // the end day counts
		in.RecurrenceEndDate = &last
	}
	if end == "after_occurrences" {
		in.RecurrenceMaxOccurrences = intField(errs, "recurrence_max_occurrences", "Times", f.Max)
	}
}

// intField reads a whole number typed in a field ("" is not sent).
func intField(errs *core.FieldErrors, field, label, s string) *int {
	if s == "" {
		return nil
	}
	n, err := strconv.Atoi(s)
	if err != nil {
		errs.Add(field, label+" must be a whole number")
		return nil
	}
	return &n
}

// refusal fills the form with an operation's validation refusal, each
// sentence at its field (those the form has no place for on top:
// fieldErrors); other errors pass through.
func refusal(f *views.ScheduleForm, err error, shown ...string) error {
	var ae *apperr.Error
	if !errors.As(err, &ae) || ae.Kind != apperr.KindInvalid {
		return err
	}
	f.Errors = fieldErrors(ae, shown)
	f.Error = f.Errors[""]
	delete(f.Errors, "")
	return nil
}

// scheduleFormFields are the fields the schedule form shows a refusal at.
var scheduleFormFields = []string{"inbox_id", "contact_id", "conversation_id", "title", "content", "scheduled_at",
	"recurrence_type", "recurrence_interval", "recurrence_days", "recurrence_end_type", "recurrence_end_date",
	"recurrence_max_occurrences", "attachments", "template_params"}
