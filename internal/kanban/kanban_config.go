package kanban

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/ent/kanbanconfig"
	"github.com/switchboard/switchboard/internal/apperr"
	"github.com/switchboard/switchboard/internal/core"
	"github.com/switchboard/switchboard/internal/events"
	"github.com/switchboard/switchboard/internal/outbound"
	"github.com/switchboard/switchboard/internal/viewer"
	"github.com/switchboard/switchboard/internal/webhook"
	"github.com/switchboard/switchboard/internal/webhooks"
	"github.com/switchboard/switchboard/internal/wire"
)

// The kanban config is the account's kanban webhook: a URL and the secret
// its requests are signed with (the forks store a secret and never use it).
// Kanban events go to the account's webhook subscriptions and, through the
// same outbox and retries, to this URL. Administrators only; the secret is
// shown once (see KanbanConfig).

// KanbanEvents are the events the kanban webhook can receive.
var KanbanEvents = []string{
	"kanban_item.created", "kanban_item.updated", "kanban_item.moved", "kanban_item.status_changed", "kanban_item.deleted",
}

// KanbanConfigInput carries the config's fields; nil means "not sent".
type KanbanConfigInput struct {
	WebhookURL    *string
	WebhookSecret *string
	// RegenerateSecret replaces the secret with a fresh one.
	RegenerateSecret bool
	Enabled          *bool
	// Events limits the events sent to the URL (default: all KanbanEvents).
	Events   *[]string
	Settings map[string]any
}

// KanbanConfig returns the account's kanban config, creating the default
// one (enabled, no URL, a fresh secret) on first use. Its secret is shown
// once, like an account webhook's: in the answer that created it, and after
// that only when regenerated; otherwise WebhookSecret is "".
func (s *Service) KanbanConfig(ctx context.Context) (*ent.KanbanConfig, error) {
	cfg, created, err := s.kanbanConfig(ctx)
	if err != nil {
		return nil, err
	}
	return secretShownOnce(cfg, created), nil
}

// kanbanConfig is the config with its secret, for sending test events.
func (s *Service) kanbanConfig(ctx context.Context) (cfg *ent.KanbanConfig, created bool, err error) {
	err = s.InTx(ctx, func(ctx context.Context, c *ent.Client) error {
		cfg, created, err = kanbanConfigOrDefault(ctx, c)
		return err
	})
	return cfg, created, core.ApperrOrNil(err)
}

func kanbanConfigOrDefault(ctx context.Context, c *ent.Client) (*ent.KanbanConfig, bool, error) {
	cfg, err := c.KanbanConfig.Query().Only(ctx)
	if ent.IsNotFound(err) {
		cfg, err = c.KanbanConfig.Create().SetWebhookSecret(webhook.NewSecret()).
			SetSettings(map[string]any{"webhook_events": KanbanEvents}).Save(ctx)
		return cfg, err == nil, err
	}
	return cfg, false, err
}

// secretShownOnce blanks the secret of a config read, unless this very
// call issued it.
func secretShownOnce(cfg *ent.KanbanConfig, issued bool) *ent.KanbanConfig {
	if !issued {
		cfg.WebhookSecret = ""
	}
	return cfg
}

// SaveKanbanConfig creates or changes the account's kanban config.
func (s *Service) SaveKanbanConfig(ctx context.Context, in KanbanConfigInput) (*ent.KanbanConfig, error) {
	if err := core.RequireAdmin(ctx); err != nil {
		return nil, err
	}
	if err := checkKanbanConfig(in); err != nil {
		return nil, err
	}
	var out *ent.KanbanConfig
	var issued bool
	err := s.InTx(ctx, func(ctx context.Context, c *ent.Client) error {
		cfg, created, err := kanbanConfigOrDefault(ctx, c)
		issued = created || in.RegenerateSecret
		if err != nil {
			return err
		}
		settings := core.MergeAttributes(cfg.Settings, in.Settings)
		if in.Events != nil {
			settings["webhook_events"] = core.UniqueStrings(*in.Events)
		}
		upd := cfg.Update().SetNillableEnabled(in.Enabled).SetSettings(settings)
		if in.WebhookURL != nil {
			upd.SetWebhookURL(strings.TrimSpace(*in.WebhookURL))
		}
		switch {
		case in.RegenerateSecret:
			upd.SetWebhookSecret(webhook.NewSecret())
		case in.WebhookSecret != nil:
			upd.SetWebhookSecret(strings.TrimSpace(*in.WebhookSecret))
		}
		out, err = upd.Save(ctx)
		return err
	})
	if err != nil {
		return nil, apperr.From(err)
	}
	return secretShownOnce(out, issued), nil
}

func checkKanbanConfig(in KanbanConfigInput) error {
	var errs core.FieldErrors
	if u := core.Deref(in.WebhookURL); in.WebhookURL != nil && strings.TrimSpace(u) != "" {
		core.CheckOutboundURL(&errs, "webhook_url", "Webhook url", u)
	}
	if in.WebhookSecret != nil {
		if _, err := webhook.Sign(strings.TrimSpace(*in.WebhookSecret), "check", time.Now(), nil); err != nil {
			errs.Add("webhook_secret", "Webhook secret must be whsec_ followed by base64 (leave it out to keep the current one)")
		}
	}
	if in.Events != nil {
		for _, e := range *in.Events {
			if !core.ContainsString(KanbanEvents, e) {
				errs.Add("webhook_events", "Unknown event "+e+": use any of "+strings.Join(KanbanEvents, ", "))
				break
			}
		}
	}
	return errs.Err()
}

// DeleteKanbanConfig removes the account's kanban config (and so the
// kanban webhook).
func (s *Service) DeleteKanbanConfig(ctx context.Context) error {
	if err := core.RequireAdmin(ctx); err != nil {
		return err
	}
	n, err := s.Client(ctx).KanbanConfig.Delete().Exec(ctx)
	if err != nil {
		return apperr.From(err)
	}
	if n == 0 {
		return apperr.NotFound("Kanban config")
	}
	return nil
}

// WebhookTest is what the receiver answered a test event.
type WebhookTest struct {
	Status int
	Body   string
	Err    string
}

// OK tells whether the receiver took the test: it answered, with a 2xx.
func (t *WebhookTest) OK() bool { return t.Err == "" && t.Status >= 200 && t.Status < 300 }

// TestKanbanWebhook sends a signed kanban.test event to the config's URL
// now, and reports the answer.
func (s *Service) TestKanbanWebhook(ctx context.Context) (*WebhookTest, error) {
	cfg, _, err := s.kanbanConfig(ctx)
	if err != nil {
		return nil, err
	}
	if cfg.WebhookURL == "" || !cfg.Enabled {
		return nil, apperr.Invalid("Set a webhook url and enable the config before testing it", "webhook_url")
	}
	v, _ := viewer.FromContext(ctx)
	body, err := json.Marshal(map[string]any{
		"event": "kanban.test", "account": map[string]any{"id": v.AccountID},
		"message": "This is a test of the kanban webhook", "timestamp": wire.Time(s.Now()),
	})
	if err != nil {
		return nil, err
	}
	status, respBody, sendErr := signedPost(ctx, cfg.WebhookURL, cfg.WebhookSecret, body, s.Now())
	out := &WebhookTest{Status: status, Body: respBody}
	if sendErr != nil {
		out.Err = sendErr.Error()
	}
	return out, nil
}

// signedPost sends one signed request, as the webhook job does.
func signedPost(ctx context.Context, url, secret string, body []byte, now time.Time) (int, string, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return 0, "", err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", "Switchboard-Webhooks/1")
	id := webhooks.NewDeliveryID()
	if err := webhook.SetHeaders(req, secret, id, now, body); err != nil {
		return 0, "", err
	}
	resp, err := outbound.NewClient(10 * time.Second).Do(req)
	if err != nil {
		return 0, "", err
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(io.LimitReader(resp.Body, 4<<10))
	return resp.StatusCode, string(raw), nil
}

// emitToKanbanWebhook puts a kanban event in the outbox for the account's
// kanban webhook, when one is set, enabled and wants the event. The config
// is read as the system: agents trigger events but may not read it.
func (s *Service) emitToKanbanWebhook(ctx context.Context, c *ent.Client, accountID int, event events.Kind, payload func() (map[string]any, error)) error {
	ctx = core.AsOutbox(ctx, accountID)
	cfg, err := c.KanbanConfig.Query().Where(kanbanconfig.AccountID(accountID)).Only(ctx)
	if ent.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return err
	}
	if !cfg.Enabled || cfg.WebhookURL == "" || !wantsEvent(cfg.Settings, string(event)) {
		return nil
	}
	now := s.Now()
	raw, err := webhooks.WebhookBody(event, payload, now)
	if err != nil {
		return err
	}
	return c.WebhookDelivery.Create().SetAccountID(accountID).SetDeliveryID(webhooks.NewDeliveryID()).SetKanbanTarget(true).
		SetURL(cfg.WebhookURL).SetEvent(string(event)).SetPayload(raw).SetNextAttemptAt(now).Exec(ctx)
}

// EnabledEvents are the kanban_item.* events the config's webhook is sent:
// those stored in its settings' webhook_events ([]string as saved, []any as
// read back from JSON), or every one when none were chosen.
func EnabledEvents(settings map[string]any) []string {
	switch list := settings["webhook_events"].(type) {
	case []string:
		return list
	case []any:
		out := make([]string, 0, len(list))
		for _, e := range list {
			out = append(out, fmt.Sprint(e))
		}
		return out
	}
	return KanbanEvents
}

// wantsEvent tells whether the config's webhook is sent event.
func wantsEvent(settings map[string]any, event string) bool {
	return core.ContainsString(EnabledEvents(settings), event)
}
