package graph_test

// gmKnownGap lists the GraphQL matrix cells ("query.field | role") where the
// code does not yet meet issue 10, with the reason. They are skipped; a gap
// that starts passing fails the suite so that it is removed here. The lead
// empties this list as the rules move into the privacy policy.
var gmKnownGap = map[string]string{
	"query.kanbanItem | agent-out":                     cardLeak,
	"query.kanbanItems | agent-out":                    cardLeak,
	"edge.funnel.kanbanItems.conversation | agent-out": cardLeak,
	"subscription.kanbanBoardChanged | agent-out":      cardLeak,
	"query.scheduledMessage | agent-out":               schedForbidden,
	"mutation.updateScheduledMessage | agent-out":      schedForbidden,
	"mutation.cancelScheduledMessage | agent-out":      schedForbidden,
	"mutation.deleteScheduledMessage | agent-out":      schedForbidden,
	"edge.sub.scheduledMessageUpdated | agent-out": "the account-wide schedule feed sends the deletion of an inbox 1 schedule " +
		"(its id) to the agent outside the inbox; creations are filtered",
	"mutation.createConversation | agent-out": "a conversation in another inbox answers FORBIDDEN (post-load check), not NOT_FOUND",
}

const (
	cardLeak = "a card loads its conversation as the system viewer: inbox 1's scheduled messages, " +
		"their files and signed download links reach the agent outside the inbox"
	schedForbidden = "a schedule of another inbox answers FORBIDDEN (hand-written check), not NOT_FOUND"
)
