package web

import (
	"sort"
	"strconv"
	"strings"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/ent/inbox"
	"github.com/switchboard/switchboard/views"
)

// WhatsApp template parameters of a schedule, as the operation takes them
// (template_params: name, language, processed_params {"1": ..., "2": ...}):
// the form has the name, the language and the parameters one per line, in
// order (WhatsApp refuses line breaks inside a parameter, so a line is
// one). The form shows them only for a WhatsApp inbox.

// templateChoices notes which of the inboxes are WhatsApp's and offers
// their approved templates to the name field.
func templateChoices(f *views.ScheduleForm, ibs ...*ent.Inbox) {
	for _, ib := range ibs {
		if ib.ChannelType != inbox.ChannelTypeWhatsapp {
			continue
		}
		f.WhatsAppInboxes = append(f.WhatsAppInboxes, strconv.Itoa(ib.ID))
		for _, t := range ib.Channel.MessageTemplates {
			if t.Approved() {
				f.Templates = append(f.Templates, views.Option{Value: t.Name, Text: t.Name + " · " + t.Language + " · " + ib.Name})
			}
		}
	}
}

// storedTemplate fills the form from a schedule's stored template params.
func storedTemplate(f *views.ScheduleForm, params map[string]any) {
	f.TemplateName, _ = params["name"].(string)
	f.TemplateLanguage, _ = params["language"].(string)
	processed, _ := params["processed_params"].(map[string]any)
	keys := make([]string, 0, len(processed))
	for k := range processed {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return placeholderLess(keys[i], keys[j]) })
	lines := make([]string, 0, len(keys))
	for _, k := range keys {
		s, _ := processed[k].(string)
		lines = append(lines, s)
	}
	f.TemplateParams = strings.Join(lines, "\n")
}

// placeholderLess orders placeholders by number ("2" before "10").
func placeholderLess(a, b string) bool {
	x, errA := strconv.Atoi(a)
	y, errB := strconv.Atoi(b)
	if errA != nil || errB != nil {
		return a < b
	}
	return x < y
}

// templateInput is the operation's template_params for the form: nil when
// unchanged (or none on a new schedule), empty to clear a stored one.
func templateInput(f views.ScheduleForm, old *views.ScheduleForm) map[string]any {
	if old != nil && f.TemplateName == old.TemplateName && f.TemplateLanguage == old.TemplateLanguage &&
		f.TemplateParams == old.TemplateParams {
		return nil
	}
	if f.TemplateName == "" {
		if old != nil && old.TemplateName != "" {
			return map[string]any{}
		}
		return nil
	}
	out := map[string]any{"name": f.TemplateName}
	if f.TemplateLanguage != "" {
		out["language"] = f.TemplateLanguage
	}
	lines := strings.Split(strings.ReplaceAll(f.TemplateParams, "\r\n", "\n"), "\n")
	for len(lines) > 0 && strings.TrimSpace(lines[len(lines)-1]) == "" {
		lines = lines[:len(lines)-1]
	}
	processed := make(map[string]any, len(lines))
	for i, l := range lines {
		processed[strconv.Itoa(i+1)] = strings.TrimSpace(l)
	}
	if len(processed) > 0 {
		out["processed_params"] = processed
	}
	return out
}

// templateWords is a stored template in words for the drawer: "renewal
// (en_US) with Ann, 42"; "" without one.
func templateWords(params map[string]any) string {
	var f views.ScheduleForm
	storedTemplate(&f, params)
	if f.TemplateName == "" {
		return ""
	}
	out := f.TemplateName
	if f.TemplateLanguage != "" {
		out += " (" + f.TemplateLanguage + ")"
	}
	if f.TemplateParams != "" {
		out += " with " + strings.ReplaceAll(f.TemplateParams, "\n", ", ")
	}
	return out
}
