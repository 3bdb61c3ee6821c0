package conversations

import (
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/ent/inbox"
	"github.com/switchboard/switchboard/ent/schema/schematype"
	"github.com/switchboard/switchboard/internal/apperr"
	"github.com/switchboard/switchboard/internal/core"
)

var placeholder = regexp.MustCompile(`\{\{(\d+)\}\}`)

// checkReplyWindow enforces the messaging-app rule on an outgoing message:
// within 24 hours of the contact's last incoming message anything goes;
// outside it the message must name an approved template of the inbox. Sent
// template params are checked either way.
func checkReplyWindow(ib *ent.Inbox, cv *ent.Conversation, params map[string]any, now time.Time) error {
	if ib.ChannelType != inbox.ChannelTypeWhatsapp {
		return nil
	}
	if len(params) > 0 {
		return CheckTemplateParams(ib, params)
	}
	if core.CanReply(ib.ChannelType, cv.LastIncomingAt, now) {
		return nil
	}
	return apperr.Invalid("The 24-hour reply window of this WhatsApp conversation is closed: send template_params naming an approved template", "template_params")
}

// CheckTemplateParams checks Chatwoot-shaped template params
// ({name, language, category, processed_params: {"1": ...}}) against the
// inbox's approved templates: the template must exist, be approved, and the
// params give exactly its body's {{n}} placeholders.
func CheckTemplateParams(ib *ent.Inbox, params map[string]any) error {
	name, _ := params["name"].(string)
	lang, _ := params["language"].(string)
	if name == "" {
		return apperr.Invalid("Template params need the template's name", "template_params")
	}
	tpl := findTemplate(ib.Channel.MessageTemplates, name, lang)
	if tpl == nil {
		return apperr.Invalidf("template_params", "No approved template %q (language %q) in this inbox", name, lang)
	}
	want := templatePlaceholders(tpl)
	got, _ := params["processed_params"].(map[string]any)
	if len(got) == 0 && len(want) > 0 {
		return apperr.Invalidf("template_params", "Template %q needs processed_params for %s", name, strings.Join(want, ", "))
	}
	have := make([]string, 0, len(got))
	for k := range got {
		have = append(have, k)
	}
	sort.Strings(have)
	if strings.Join(have, ",") != strings.Join(want, ",") {
		return apperr.Invalidf("template_params", "Template %q takes parameters %v, got %v", name, want, have)
	}
	return nil
}

func findTemplate(ts []schematype.MessageTemplate, name, lang string) *schematype.MessageTemplate {
	for i := range ts {
		t := &ts[i]
		if t.Name == name && (lang == "" || t.Language == lang) && t.Approved() {
			return t
		}
	}
	return nil
}

// templatePlaceholders lists a template body's placeholder numbers, sorted
// as strings (the keys of processed_params).
func templatePlaceholders(t *schematype.MessageTemplate) []string {
	seen := map[string]bool{}
	for _, c := range t.Components {
		if !strings.EqualFold(c.Type, "BODY") {
			continue
		}
		for _, m := range placeholder.FindAllStringSubmatch(c.Text, -1) {
			seen[m[1]] = true
		}
	}
	out := make([]string, 0, len(seen))
	for k := range seen {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
