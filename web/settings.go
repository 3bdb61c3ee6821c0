package web

import (
	"context"
	"errors"
	"strconv"

	"github.com/gofiber/fiber/v2"

	"github.com/switchboard/switchboard/internal/accounts"
	"github.com/switchboard/switchboard/internal/apperr"
	"github.com/switchboard/switchboard/internal/contacts"
	"github.com/switchboard/switchboard/views"
)

// The account's settings: labels, agents and teams, each change the
// operation the API uses (which keeps them to administrators). A change
// sends the browser back to its section; a refused one shows the section
// again (422) with the form as it was typed and the operation's sentences
// at its fields.

// settingsLoaders fill a section's rows.
var settingsLoaders = map[string]func(*Console, context.Context, *views.Settings) error{
	"labels":      (*Console).labelRows,
	"agents":      (*Console).agentRows,
	"teams":       (*Console).teamRows,
	"inboxes":     (*Console).inboxRows,
	"webhooks":    (*Console).hookRows,
	"automations": (*Console).autoRows,
}

func (c *Console) settingsHome(ctx *fiber.Ctx) error {
	nav, err := c.nav(ctx)
	if err != nil {
		return err
	}
	return ctx.Redirect(views.AccountURL(nav.AccountID, "settings/labels"), fiber.StatusSeeOther)
}

// settings serves GET /settings/<section>.
func (c *Console) settings(section string) fiber.Handler {
	return func(ctx *fiber.Ctx) error { return c.renderSettings(ctx, fiber.StatusOK, section, "") }
}

func (c *Console) renderSettings(ctx *fiber.Ctx, status int, section, problem string) error {
	return c.renderSettingsWith(ctx, status, section, problem, nil)
}

// renderSettingsWith renders a section, then lets then add what only this
// answer shows (a secret just issued, a test's answer).
func (c *Console) renderSettingsWith(ctx *fiber.Ctx, status int, section, problem string, then func(*views.Settings)) error {
	load, ok := settingsLoaders[section]
	if !ok {
		return apperr.NotFound("Settings section")
	}
	nav, err := c.nav(ctx)
	if err != nil {
		return err
	}
	s := views.Settings{Nav: nav, Section: section, Error: problem}
	if err := load(c, ctx.UserContext(), &s); err != nil {
		return err
	}
	if then != nil {
		then(&s)
	}
	return render(ctx, status, views.SettingsPage(s))
}

// settingsDone ends a settings write: back to the section, or the section
// with the refused form as it was typed, each sentence at the field of
// shown (the form's fields) it is about and the others on top, or the
// error.
func (c *Console) settingsDone(ctx *fiber.Ctx, section string, err error, shown ...string) error {
	var ae *apperr.Error
	switch {
	case err == nil:
		nav, err := c.nav(ctx)
		if err != nil {
			return err
		}
		return ctx.Redirect(views.AccountURL(nav.AccountID, "settings/"+section), fiber.StatusSeeOther)
	case errors.As(err, &ae) && ae.Kind == apperr.KindInvalid:
		posted, _, perr := readPosted(ctx) // read already, by the write
		if perr != nil {
			return perr
		}
		errs := fieldErrors(ae, shown)
		tried := views.TriedForm{Action: ctx.Path(), Values: posted, Errors: errs}
		return c.renderSettingsWith(ctx, fiber.StatusUnprocessableEntity, section, errs[""], func(s *views.Settings) { s.Tried = tried })
	}
	return err
}

func (c *Console) labelRows(ctx context.Context, s *views.Settings) error {
	labels, err := c.svc.Labels(ctx)
	for _, l := range labels {
		s.Labels = append(s.Labels, views.LabelRow{ID: l.ID, Title: l.Title, Color: l.Color, Description: l.Description})
	}
	return err
}

func (c *Console) agentRows(ctx context.Context, s *views.Settings) error {
	agents, err := c.svc.Agents(ctx)
	for _, a := range agents {
		if u := a.Edges.User; u != nil {
			s.Agents = append(s.Agents, views.AgentRow{UserID: u.ID, Name: personName(u), Email: u.Email,
				Role: string(a.Role), Availability: string(a.Availability)})
		}
	}
	return err
}

func (c *Console) teamRows(ctx context.Context, s *views.Settings) error {
	teams, err := c.svc.Teams(ctx)
	if err != nil {
		return err
	}
	people, err := c.people(ctx)
	if err != nil {
		return err
	}
	var agents []views.Option
	for id, name := range people {
		agents = append(agents, views.Option{Value: strconv.Itoa(id), Text: name})
	}
	sortOptions(agents)
	for _, t := range teams {
		in := map[string]bool{}
		for _, m := range t.Edges.Members {
			in[strconv.Itoa(m.UserID)] = true
		}
		row := views.TeamRow{ID: t.ID, Name: t.Name, Description: t.Description}
		for _, a := range agents {
			row.Members = append(row.Members, views.Choice{Value: a.Value, Text: a.Text, On: in[a.Value]})
		}
		s.Teams = append(s.Teams, row)
	}
	return nil
}

func settingID(ctx *fiber.Ctx, what string) (int, error) {
	id, err := strconv.Atoi(ctx.Params("id"))
	if err != nil || id <= 0 {
		return 0, apperr.NotFound(what)
	}
	return id, nil
}

// optional is a posted field's value, nil when the form has no such field.
func (p postedForm) optional(key string) *string {
	if _, ok := p[key]; !ok {
		return nil
	}
	v := p.get(key)
	return &v
}

// The fields each settings form shows a refusal at (settingsDone).
var (
	labelFields    = []string{"title", "color", "description"}
	newAgentFields = []string{"name", "email", "role"}
	agentFields    = []string{"role", "availability"}
	teamFields     = []string{"name", "description"}
)

func (c *Console) saveLabel(ctx *fiber.Ctx) error {
	posted, _, err := readPosted(ctx)
	if err != nil {
		return err
	}
	in := contacts.LabelInput{Title: posted.optional("title"), Color: posted.optional("color"), Description: posted.optional("description")}
	if ctx.Params("id") == "" {
		_, err = c.svc.CreateLabel(ctx.UserContext(), in)
		return c.settingsDone(ctx, "labels", err, labelFields...)
	}
	id, err := settingID(ctx, "Label")
	if err != nil {
		return err
	}
	_, err = c.svc.UpdateLabel(ctx.UserContext(), id, in)
	return c.settingsDone(ctx, "labels", err, labelFields...)
}

func (c *Console) deleteLabel(ctx *fiber.Ctx) error {
	id, err := settingID(ctx, "Label")
	if err != nil {
		return err
	}
	return c.settingsDone(ctx, "labels", c.svc.DeleteLabel(ctx.UserContext(), id))
}

func (c *Console) saveAgent(ctx *fiber.Ctx) error {
	posted, _, err := readPosted(ctx)
	if err != nil {
		return err
	}
	in := accounts.AgentInput{Name: posted.optional("name"), Email: posted.optional("email"), Role: posted.optional("role"),
		Availability: posted.optional("availability")}
	if ctx.Params("id") == "" {
		_, err = c.svc.CreateAgent(ctx.UserContext(), in)
		return c.settingsDone(ctx, "agents", err, newAgentFields...)
	}
	id, err := settingID(ctx, "Agent")
	if err != nil {
		return err
	}
	_, err = c.svc.UpdateAgent(ctx.UserContext(), id, in)
	return c.settingsDone(ctx, "agents", err, agentFields...)
}

func (c *Console) deleteAgent(ctx *fiber.Ctx) error {
	id, err := settingID(ctx, "Agent")
	if err != nil {
		return err
	}
	return c.settingsDone(ctx, "agents", c.svc.DeleteAgent(ctx.UserContext(), id))
}

// saveTeam creates a team, or renames one and sets its members to those
// ticked.
func (c *Console) saveTeam(ctx *fiber.Ctx) error {
	posted, _, err := readPosted(ctx)
	if err != nil {
		return err
	}
	in := accounts.TeamInput{Name: posted.optional("name"), Description: posted.optional("description")}
	if ctx.Params("id") == "" {
		_, err = c.svc.CreateTeam(ctx.UserContext(), in)
		return c.settingsDone(ctx, "teams", err, teamFields...)
	}
	id, err := settingID(ctx, "Team")
	if err != nil {
		return err
	}
	members, err := postedMembers(posted)
	if err == nil {
		_, err = c.svc.UpdateTeamAndMembers(ctx.UserContext(), id, in, members)
	}
	return c.settingsDone(ctx, "teams", err, teamFields...)
}

// postedMembers are the user ids of the team form's member boxes: nil
// when the form sent none (the members stay), empty when it sent only the
// blank that says "none ticked". A value that is no id is refused rather
// than dropped, which would remove that member.
func postedMembers(posted postedForm) ([]int, error) {
	values, ok := posted["members"]
	if !ok {
		return nil, nil
	}
	ids := []int{}
	for _, v := range values {
		if v == "" {
			continue
		}
		n, err := strconv.Atoi(v)
		if err != nil {
			return nil, apperr.Invalid("Members must be agents' ids", "members")
		}
		ids = append(ids, n)
	}
	return ids, nil
}

func (c *Console) deleteTeam(ctx *fiber.Ctx) error {
	id, err := settingID(ctx, "Team")
	if err != nil {
		return err
	}
	return c.settingsDone(ctx, "teams", c.svc.DeleteTeam(ctx.UserContext(), id))
}
