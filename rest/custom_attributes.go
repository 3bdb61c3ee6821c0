package rest

import (
	"github.com/gofiber/fiber/v2"

	"github.com/switchboard/switchboard/internal/contacts"
	"github.com/switchboard/switchboard/internal/wire"
)

type customAttributeRequest struct {
	DisplayName  *string      `json:"attribute_display_name"`
	Key          *string      `json:"attribute_key"`
	DisplayType  *flexString  `json:"attribute_display_type"`
	Model        *flexString  `json:"attribute_model"`
	Description  *string      `json:"attribute_description"`
	Values       *flexStrings `json:"attribute_values"`
	RegexPattern *string      `json:"regex_pattern"`
	RegexCue     *string      `json:"regex_cue"`
}

func (r customAttributeRequest) input() contacts.CustomAttributeInput {
	in := contacts.CustomAttributeInput{
		DisplayName: r.DisplayName, Key: r.Key, DisplayType: r.DisplayType.ptr(), Model: r.Model.ptr(),
		Description: r.Description, RegexPattern: r.RegexPattern, RegexCue: r.RegexCue,
	}
	if r.Values != nil {
		in.Values = []string(*r.Values)
	}
	return in
}

func (a *API) listCustomAttributes(c *fiber.Ctx) error {
	defs, err := a.svc.CustomAttributeDefinitions(c.UserContext(), c.Query("attribute_model"))
	if err != nil {
		return err
	}
	out := make([]H, 0, len(defs))
	for _, d := range defs {
		out = append(out, wire.CustomAttribute(d))
	}
	return c.JSON(out)
}

func (a *API) showCustomAttribute(c *fiber.Ctx) error {
	id, err := pathID(c, "id", "Custom attribute definition")
	if err != nil {
		return err
	}
	d, err := a.svc.CustomAttributeDefinition(c.UserContext(), id)
	if err != nil {
		return err
	}
	return c.JSON(wire.CustomAttribute(d))
}

func (a *API) createCustomAttribute(c *fiber.Ctx) error {
	var req customAttributeRequest
	if err := decode(c, "custom_attribute_definition", &req); err != nil {
		return err
	}
	d, err := a.svc.CreateCustomAttributeDefinition(c.UserContext(), req.input())
	if err != nil {
		return err
	}
	return c.JSON(wire.CustomAttribute(d))
}

func (a *API) updateCustomAttribute(c *fiber.Ctx) error {
	id, err := pathID(c, "id", "Custom attribute definition")
	if err != nil {
		return err
	}
	var req customAttributeRequest
	if err := decode(c, "custom_attribute_definition", &req); err != nil {
		return err
	}
	d, err := a.svc.UpdateCustomAttributeDefinition(c.UserContext(), id, req.input())
	if err != nil {
		return err
	}
	return c.JSON(wire.CustomAttribute(d))
}

func (a *API) deleteCustomAttribute(c *fiber.Ctx) error {
	id, err := pathID(c, "id", "Custom attribute definition")
	if err != nil {
		return err
	}
	if err := a.svc.DeleteCustomAttributeDefinition(c.UserContext(), id); err != nil {
		return err
	}
	return emptyOK(c)
}
