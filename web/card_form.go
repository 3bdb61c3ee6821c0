package web

import (
	"math"
	"strconv"
	"strings"

	"github.com/gofiber/fiber/v2"

	"github.com/switchboard/switchboard/internal/apperr"
	"github.com/switchboard/switchboard/internal/kanban"
)

// cardForm is a card's fields as the drawer's forms post them.
type cardForm struct {
	Title       *string `form:"title"`
	Description *string `form:"description"`
	Value       *string `form:"value"`
	Currency    *string `form:"currency"`
	Priority    *string `form:"priority"`
	Stage       *string `form:"stage"`
}

// decodeForm reads a posted form into dst (a struct with form tags).
// No body at all is an empty form (a form of buttons only, or a client that
// sends nothing): the operation then says what is missing.
func decodeForm(ctx *fiber.Ctx, dst any) error {
	if len(ctx.Body()) == 0 {
		return nil
	}
	if err := ctx.BodyParser(dst); err != nil {
		return apperr.BadRequest("Malformed form: %v", err)
	}
	return nil
}

// input turns the form into the operations' card input; currency is the
// card's current one, whose symbol and locale stay while its code does.
func (f cardForm) input(currency map[string]string) (kanban.CardInput, error) {
	in := kanban.CardInput{Title: f.Title, Description: f.Description, Priority: f.Priority, Stage: f.Stage}
	if f.Value != nil {
		v, err := parseAmount(*f.Value)
		if err != nil {
			return in, err
		}
		in.Value = &v
	}
	if f.Currency != nil {
		code := strings.ToUpper(strings.TrimSpace(*f.Currency))
		if code != currency["code"] {
			in.Currency = map[string]string{"code": code}
			if loc := currency["locale"]; loc != "" {
				in.Currency["locale"] = loc
			}
		}
	}
	return in, nil
}

// parseAmount reads a value as people type it: blank is 0, and a comma
// may stand for the decimal point ("1500,50").
func parseAmount(raw string) (float64, error) {
	s := strings.ReplaceAll(strings.TrimSpace(raw), " ", "")
	if s == "" {
		return 0, nil
	}
	if strings.Count(s, ",") == 1 && !strings.Contains(s, ".") {
		s = strings.Replace(s, ",", ".", 1)
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsInf(v, 0) || math.IsNaN(v) {
		return 0, apperr.Invalid("Value must be a number, like 1500 or 1500.50", "item_details.value")
	}
	return v, nil
}
