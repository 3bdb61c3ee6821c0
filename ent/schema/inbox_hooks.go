package schema

import (
	"context"
	"errors"

	"entgo.io/ent"

	gen "github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/ent/hook"
)

// channelKeyHook keeps an inbox's channel_key in step with its channel
// (schematype.Channel.Key), on every write that sets the channel.
func channelKeyHook() ent.Hook {
	return hook.On(func(next ent.Mutator) ent.Mutator {
		return hook.InboxFunc(func(ctx context.Context, m *gen.InboxMutation) (ent.Value, error) {
			channel, set := m.Channel()
			if !set {
				return next.Mutate(ctx, m)
			}
			if m.Op().Is(ent.OpUpdate) {
				return nil, errors.New("an inbox's channel may only change one inbox at a time")
			}
			typ, ok := m.ChannelType()
			if !ok {
				old, err := m.OldChannelType(ctx)
				if err != nil {
					return nil, err
				}
				typ = old
			}
			if err := m.SetField("channel_key", channel.Key(typ.String())); err != nil {
				return nil, err
			}
			return next.Mutate(ctx, m)
		})
	}, ent.OpCreate|ent.OpUpdate|ent.OpUpdateOne)
}
