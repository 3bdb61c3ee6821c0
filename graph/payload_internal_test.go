package graph

import (
	"context"
	"errors"
	"reflect"
	"testing"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/ast"

	"github.com/switchboard/switchboard/graph/model"
	"github.com/switchboard/switchboard/internal/apperr"
	"github.com/switchboard/switchboard/internal/core"
)

// resolving is the context of resolving the mutation field name.
func resolving(t *testing.T, name string) context.Context {
	t.Helper()
	def := parsedSchema.Mutation.Fields.ForName(name)
	if def == nil {
		t.Fatalf("no mutation %s", name)
	}
	return graphql.WithFieldContext(context.Background(), &graphql.FieldContext{Object: "Mutation",
		Field: graphql.CollectedField{Field: &ast.Field{Name: name, Alias: name, Definition: def}}})
}

// TestInputPathFindsTheGraphQLInput: an operation's REST attribute names
// the mutation's own input, wherever GraphQL puts it.
func TestInputPathFindsTheGraphQLInput(t *testing.T) {
	for _, c := range []struct {
		mutation, attr string
		want           []string
	}{
		{"createContact", "inbox_id", []string{"input", "inboxID"}},
		{"createContact", "phone_number", []string{"input", "phoneNumber"}},
		{"toggleConversationStatus", "status", []string{"status"}},
		{"mergeContacts", "mergee_contact_id", []string{"mergeeContactID"}},
		{"changeInboxMembers", "user_ids", []string{"userIDs"}},
		{"createMessage", "attachments", []string{"attachments"}},
		{"createMessage", "content", []string{"input", "content"}},
		{"updateInbox", "channel.webhook_url", []string{"input", "channel", "webhookURL"}},
		{"updateInbox", "channel.provider_config.webhook_verify_token", []string{"input", "channel", "providerConfig", "webhookVerifyToken"}},
		{"updateInbox", "channel.imap_password", []string{"input", "channel", "imap", "password"}},
		{"createKanbanItem", "item_details.title", []string{"input", "title"}},
		{"createKanbanItem", "funnel_stage", []string{"input", "stage"}},
		{"createScheduledMessage", "scheduled_at", []string{"input", "scheduledAt"}},
		{"importKanbanItems", "mappings", []string{"mapping"}},
		// REST's alone: no path rather than a made-up one.
		{"createContact", "account_name", nil},
		{"updateInbox", "channel.nowhere", nil},
	} {
		if got := inputPath(resolving(t, c.mutation), c.attr); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s %s: got %v, want %v", c.mutation, c.attr, got, c.want)
		}
	}
}

// TestOutcomeSortsErrors: refused input becomes user errors (one per
// field, each with its own sentence), everything else stays an error.
func TestOutcomeSortsErrors(t *testing.T) {
	ctx := resolving(t, "createContact")
	var fields core.FieldErrors
	fields.Add("email", "Email is invalid")
	fields.Add("phone_number", "Phone number should be in e164 format")
	obj := &model.KanbanWebhookTest{}
	for _, c := range []struct {
		name string
		err  error
		want []*model.UserError
	}{
		{"success", nil, []*model.UserError{}},
		{"two fields", fields.Err(), []*model.UserError{
			{Field: []string{"input", "email"}, Message: "Email is invalid", Code: model.UserErrorCodeInvalid},
			{Field: []string{"input", "phoneNumber"}, Message: "Phone number should be in e164 format", Code: model.UserErrorCodeInvalid}}},
		{"no field", apperr.Invalid("A record with these values already exists"), []*model.UserError{
			{Message: "A record with these values already exists", Code: model.UserErrorCodeInvalid}}},
		{"conflict", apperr.Conflict("Only a failed webhook delivery can be retried"), []*model.UserError{
			{Message: "Only a failed webhook delivery can be retried", Code: model.UserErrorCodeConflict}}},
	} {
		got, ues, err := outcome(ctx, obj, c.err)
		if err != nil || !reflect.DeepEqual(ues, c.want) {
			t.Errorf("%s: got %v %v, want %v", c.name, ues, err, c.want)
		}
		if (got == nil) != (c.err != nil) {
			t.Errorf("%s: the object is %v; want it only on success", c.name, got)
		}
	}
	for _, err := range []error{apperr.Forbidden("no"), apperr.NotFound("Contact"), apperr.Unauthenticated("who?"),
		apperr.TooManyRequests("slow down", 0), errors.New("disk on fire")} {
		got, ues, gotErr := outcome(ctx, obj, err)
		if gotErr != err || ues != nil || got != nil {
			t.Errorf("%v: got %v %v %v, want the error itself", err, got, ues, gotErr)
		}
	}
}
