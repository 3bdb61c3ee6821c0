package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"
)

// MailboxState is how far the service has read an e-mail inbox's IMAP
// mailbox: the mailbox's UIDVALIDITY and the highest UID stored, so a
// restart (or another instance) goes on from there; and the last error of
// fetching it, cleared by the next success; and the lease that lets one
// instance at a time connect to the mailbox (a holder, and when its hold
// ends unless renewed). Only the fetcher reads it.
type MailboxState struct{ ent.Schema }

func (MailboxState) Mixin() []ent.Mixin { return []ent.Mixin{TimeMixin{}} }

func (MailboxState) Fields() []ent.Field {
	return []ent.Field{
		field.Int("inbox_id").Unique().Immutable(),
		// UIDs mean something only with the UIDVALIDITY they came with (both
		// 32-bit unsigned in IMAP, hence int64 here).
		field.Int64("uid_validity").Default(0),
		field.Int64("last_uid").Default(0),
		field.String("last_error").Optional().Default("").Validate(maxRunes(1000)),
		field.Time("failed_at").Optional().Nillable(),
		// lease_holder names the fetcher (one per process) allowed to
		// connect until lease_expires_at; "" or a past expiry: nobody.
		field.String("lease_holder").Optional().Default("").Validate(maxRunes(200)),
		field.Time("lease_expires_at").Optional().Nillable(),
	}
}

func (MailboxState) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("inbox", Inbox.Type).Ref("mailbox_state").Field("inbox_id").Unique().Required().Immutable(),
	}
}

func (MailboxState) Policy() ent.Policy { return systemOnlyPolicy() }

func (MailboxState) Annotations() []schema.Annotation { return skipGraphQL() }
