package rest

import (
	"github.com/gofiber/fiber/v2"

	"github.com/switchboard/switchboard/internal/contacts"
	"github.com/switchboard/switchboard/internal/wire"
)

type labelRequest struct {
	Title         *string   `json:"title"`
	Description   *string   `json:"description"`
	Color         *string   `json:"color"`
	ShowOnSidebar *flexBool `json:"show_on_sidebar"`
}

func (r labelRequest) input() contacts.LabelInput {
	return contacts.LabelInput{Title: r.Title, Description: r.Description, Color: r.Color, ShowOnSidebar: r.ShowOnSidebar.ptr()}
}

func (a *API) listLabels(c *fiber.Ctx) error {
	ls, err := a.svc.Labels(c.UserContext())
	if err != nil {
		return err
	}
	payload := make([]H, 0, len(ls))
	for _, l := range ls {
		payload = append(payload, wire.Label(l))
	}
	return c.JSON(H{"payload": payload})
}

func (a *API) showLabel(c *fiber.Ctx) error {
	id, err := pathID(c, "id", "Label")
	if err != nil {
		return err
	}
	l, err := a.svc.Label(c.UserContext(), id)
	if err != nil {
		return err
	}
	return c.JSON(wire.Label(l))
}

func (a *API) createLabel(c *fiber.Ctx) error {
	var req labelRequest
	if err := decode(c, "label", &req); err != nil {
		return err
	}
	l, err := a.svc.CreateLabel(c.UserContext(), req.input())
	if err != nil {
		return err
	}
	return c.JSON(wire.Label(l))
}

func (a *API) updateLabel(c *fiber.Ctx) error {
	id, err := pathID(c, "id", "Label")
	if err != nil {
		return err
	}
	var req labelRequest
	if err := decode(c, "label", &req); err != nil {
		return err
	}
	l, err := a.svc.UpdateLabel(c.UserContext(), id, req.input())
	if err != nil {
		return err
	}
	return c.JSON(wire.Label(l))
}

func (a *API) deleteLabel(c *fiber.Ctx) error {
	id, err := pathID(c, "id", "Label")
	if err != nil {
		return err
	}
	if err := a.svc.DeleteLabel(c.UserContext(), id); err != nil {
		return err
	}
	return emptyOK(c)
}
