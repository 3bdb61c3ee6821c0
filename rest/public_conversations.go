package rest

import (
	"context"
	"strings"

	"github.com/gofiber/fiber/v2"

	"github.com/switchboard/switchboard/internal/apperr"
	"github.com/switchboard/switchboard/internal/visitors"
)

// publicConversationRequest starts a visitor's conversation.
type publicConversationRequest struct {
	CustomAttributes map[string]any `json:"custom_attributes"`
}

// publicTypingRequest says whether the visitor is typing.
type publicTypingRequest struct {
	TypingStatus *string `json:"typing_status"`
}

// publicMessageRequest is a visitor's message (JSON, or multipart with
// attachments[] parts).
type publicMessageRequest struct {
	Content *string `json:"content"`
	EchoID  *string `json:"echo_id"`
}

// publicSubmitRequest answers an input_select or form message.
type publicSubmitRequest struct {
	SubmittedValues []visitors.SubmittedValue `json:"submitted_values"`
}

func (a *API) listVisitorConversations(c *fiber.Ctx) error {
	ctx, v, err := a.svc.Visitors.Find(c.UserContext(), visitorKey(c))
	if err != nil {
		return err
	}
	ts, err := a.svc.Visitors.Conversations(ctx, v)
	if err != nil {
		return err
	}
	out := make([]H, 0, len(ts))
	for i := range ts {
		out = append(out, a.publicThread(c.BaseURL(), &ts[i], v.Contact()))
	}
	return c.JSON(out)
}

func (a *API) createVisitorConversation(c *fiber.Ctx) error {
	var req publicConversationRequest
	if err := decode(c, "", &req); err != nil {
		return err
	}
	ctx, v, err := a.svc.Visitors.Find(c.UserContext(), visitorKey(c))
	if err != nil {
		return err
	}
	t, err := a.svc.Visitors.StartConversation(ctx, v, req.CustomAttributes)
	if err != nil {
		return err
	}
	return c.JSON(a.publicThread(c.BaseURL(), t, v.Contact()))
}

// visitorConversation runs op on the visitor's conversation the path names
// and renders the conversation it answers.
func (a *API) visitorConversation(op func(x visitorCtx) (*visitors.Thread, error)) fiber.Handler {
	return func(c *fiber.Ctx) error {
		id, err := pathID(c, "conversation_id", "Conversation")
		if err != nil {
			return err
		}
		ctx, v, err := a.svc.Visitors.Find(c.UserContext(), visitorKey(c))
		if err != nil {
			return err
		}
		t, err := op(visitorCtx{ctx, v, id})
		if err != nil {
			return err
		}
		return c.JSON(a.publicThread(c.BaseURL(), t, v.Contact()))
	}
}

func (a *API) showVisitorConversation(x visitorCtx) (*visitors.Thread, error) {
	return a.svc.Visitors.Conversation(x.ctx, x.v, x.id)
}

func (a *API) resolveVisitorConversation(x visitorCtx) (*visitors.Thread, error) {
	return a.svc.Visitors.Resolve(x.ctx, x.v, x.id)
}

func (a *API) toggleVisitorTyping(c *fiber.Ctx) error {
	var req publicTypingRequest
	if err := decode(c, "", &req); err != nil {
		return err
	}
	on, err := typingOn(req.TypingStatus)
	if err != nil {
		return err
	}
	return a.onVisitorConversation(c, func(x visitorCtx) error { return a.svc.Visitors.Typing(x.ctx, x.v, x.id, on) })
}

// typingOn reads a typing_status: on or off.
func typingOn(status *string) (bool, error) {
	switch strings.TrimSpace(wireStr(status)) {
	case "on":
		return true, nil
	case "off":
		return false, nil
	}
	return false, apperr.Invalid("Typing status must be on or off", "typing_status")
}

func (a *API) visitorSeen(c *fiber.Ctx) error {
	return a.onVisitorConversation(c, func(x visitorCtx) error { return a.svc.Visitors.Seen(x.ctx, x.v, x.id) })
}

// onVisitorConversation runs op on the visitor's conversation the path
// names and answers an empty 200, as Chatwoot's head :ok.
func (a *API) onVisitorConversation(c *fiber.Ctx, op func(visitorCtx) error) error {
	id, err := pathID(c, "conversation_id", "Conversation")
	if err != nil {
		return err
	}
	ctx, v, err := a.svc.Visitors.Find(c.UserContext(), visitorKey(c))
	if err != nil {
		return err
	}
	if err := op(visitorCtx{ctx, v, id}); err != nil {
		return err
	}
	return emptyOK(c)
}

func (a *API) listVisitorMessages(c *fiber.Ctx) error {
	before, err := optionalQueryInt(c, "before")
	if err != nil {
		return err
	}
	return a.visitorMessages(c, func(x visitorCtx) (*visitors.MessagePage, error) {
		return a.svc.Visitors.Messages(x.ctx, x.v, x.id, before)
	}, true)
}

func (a *API) createVisitorMessage(c *fiber.Ctx) error {
	var req publicMessageRequest
	if err := decode(c, "", &req); err != nil {
		return err
	}
	files, err := uploads(c)
	if err != nil {
		return err
	}
	in := visitors.MessageInput{Content: wireStr(req.Content), EchoID: wireStr(req.EchoID), Files: files}
	return a.visitorMessages(c, func(x visitorCtx) (*visitors.MessagePage, error) {
		return a.svc.Visitors.Send(x.ctx, x.v, x.id, in)
	}, false)
}

func (a *API) submitVisitorMessage(c *fiber.Ctx) error {
	mid, err := pathID(c, "message_id", "Message")
	if err != nil {
		return err
	}
	var req publicSubmitRequest
	if err := decode(c, "message", &req); err != nil {
		return err
	}
	return a.visitorMessages(c, func(x visitorCtx) (*visitors.MessagePage, error) {
		return a.svc.Visitors.Submit(x.ctx, x.v, x.id, mid, req.SubmittedValues)
	}, false)
}

// visitorMessages runs op on the visitor's conversation the path names and
// renders its messages: the list, or (list false) the one message.
func (a *API) visitorMessages(c *fiber.Ctx, op func(visitorCtx) (*visitors.MessagePage, error), list bool) error {
	id, err := pathID(c, "conversation_id", "Conversation")
	if err != nil {
		return err
	}
	ctx, v, err := a.svc.Visitors.Find(c.UserContext(), visitorKey(c))
	if err != nil {
		return err
	}
	p, err := op(visitorCtx{ctx, v, id})
	if err != nil {
		return err
	}
	msgs := a.publicMessages(c.BaseURL(), p, v.Contact())
	if list {
		return c.JSON(msgs)
	}
	return c.JSON(msgs[0])
}

// visitorCtx is a visitor's request: the context acting as their inbox's
// channel, the visitor, the conversation's display id.
type visitorCtx struct {
	ctx context.Context
	v   *visitors.Visitor
	id  int
}

func wireStr(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
