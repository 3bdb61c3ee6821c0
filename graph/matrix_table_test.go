package graph_test

// The GraphQL matrix's table, part 1: queries, and extra checks of the
// edges that reach inside inbox 1 ("edge." entries, not root fields).
//
// Columns: anonymous, agent outside inbox 1, agent in inbox 1,
// administrator, administrator of account B (its token, A's ids), platform
// token (not a GraphQL credential).

import "fmt"

func gmMember() gmRow    { return gmRow{gUnauth, gOK, gOK, gOK, gOK, gUnauth} }
func gmMemberObj() gmRow { return gmRow{gUnauth, gOK, gOK, gOK, gNF, gUnauth} }
func gmMemberRef() gmRow { return gmRow{gUnauth, gOK, gOK, gOK, gRef, gUnauth} }
func gmAdminList() gmRow { return gmRow{gUnauth, gAdmin, gAdmin, gOK, gOK, gUnauth} }
func gmAdminObj() gmRow  { return gmRow{gUnauth, gAdmin, gAdmin, gOK, gNF, gUnauth} }
func gmInboxObj() gmRow  { return gmRow{gUnauth, gNF, gOK, gOK, gNF, gUnauth} }
func gmInboxRef() gmRow  { return gmRow{gUnauth, gRef, gOK, gOK, gRef, gUnauth} }

// gmInboxCreate: a new row in inbox 1 named by its inboxID: every agent sees
// the inbox, so one outside it is refused, not told it does not exist.
func gmInboxCreate() gmRow                  { return gmRow{gUnauth, gForbid, gOK, gOK, gRef, gUnauth} }
func gmAuthorOrAdmin() gmRow                { return gmRow{gUnauth, gNF, gForbid, gOK, gNF, gUnauth} }
func gmAuthorOrAdminCard() gmRow            { return gmRow{gUnauth, gForbid, gForbid, gOK, gNF, gUnauth} }
func gmFixed(s string) func(*gmCell) string { return func(*gmCell) string { return s } }

// gmf formats a field with the world's ids.
func gmf(format string, ids ...func(w *gmWorld) int) func(c *gmCell) string {
	return func(c *gmCell) string {
		args := make([]any, len(ids))
		for i, f := range ids {
			args[i] = f(c.w)
		}
		return fmt.Sprintf(format, args...)
	}
}

func wInbox1(w *gmWorld) int   { return w.Inbox1 }
func wContact(w *gmWorld) int  { return w.Contact }
func wConv(w *gmWorld) int     { return w.Conv }
func wSchedule(w *gmWorld) int { return w.Schedule }
func wFunnel(w *gmWorld) int   { return w.Funnel }
func wCard(w *gmWorld) int     { return w.Card }
func wLabel(w *gmWorld) int    { return w.Label }
func wTeam(w *gmWorld) int     { return w.Team }
func wBot(w *gmWorld) int      { return w.Bot }
func wSpare(w *gmWorld) int    { return w.Spare }
func wAuto(w *gmWorld) int     { return w.Auto }
func wNote(w *gmWorld) int     { return w.Note }
func wCheck(w *gmWorld) int    { return w.Checklist }
func wIn(w *gmWorld) int       { return w.userIn }
func wWebhook(w *gmWorld) int  { return w.Webhook }
func wAttr(w *gmWorld) int     { return w.Attr }
func wMessage(w *gmWorld) int  { return w.Message }

// inboxContent selects what inbox 1 holds, through a conversation.
const inboxContent = `id messages(first: 2) { edges { node { content attachments { fileName } } } }
	scheduledMessages { content attachments { fileName dataURL } }`

// inboxContentInPages is inboxContent for fixed-size pages of conversations
// or cards, whose size times a conversation's schedules would pass the
// GraphQL cost limit: messages only (the single-object queries and the
// connections check the schedules).
const inboxContentInPages = `id messages(first: 2) { edges { node { content attachments { fileName } } } }`

func gmQueries() map[string]gmEntry {
	conn := func(name string) gmEntry {
		return gmEntry{want: gmMember(), field: gmFixed(name + "(first: 5) { totalCount }")}
	}
	return map[string]gmEntry{
		"query.agents":         conn("agents"),
		"query.cardNotes":      conn("cardNotes"),
		"query.checklistItems": conn("checklistItems"),
		"query.contacts":       conn("contacts"),
		"query.conversations":  conn("conversations"),
		"query.funnels":        conn("funnels"),
		"query.inboxes":        conn("inboxes"),
		"query.kanbanItems":    conn("kanbanItems"),
		"query.labels":         conn("labels"),
		"query.teams":          conn("teams"),
		"query.contact":        {want: gmMemberObj(), field: gmf("contact(id: %d) { id }", wContact)},
		"query.searchContacts": {want: gmMember(), field: gmFixed(`searchContacts(q: "GM") { totalCount }`)},
		"query.filterContacts": {want: gmMember(), field: gmFixed(
			`filterContacts(conditions: [{attributeKey: "name", filterOperator: "contains", values: ["GM"]}]) { totalCount }`)},
		"query.contactableInboxes": {want: gmMemberObj(), field: gmf("contactableInboxes(contactID: %d) { sourceID }", wContact)},
		"query.inbox":              {want: gmMemberObj(), field: gmf("inbox(id: %d) { id }", wInbox1)},
		"query.agentBots":          {want: gmMember(), field: gmFixed("agentBots { id }")},
		"query.agentBot":           {want: gmMemberObj(), field: gmf("agentBot(id: %d) { id }", wBot)},
		"query.inboxMembers":       {want: gmMemberObj(), field: gmf("inboxMembers(inboxID: %d) { __typename }", wInbox1)},
		"query.label":              {want: gmMemberObj(), field: gmf("label(id: %d) { id }", wLabel)},
		"query.team":               {want: gmMemberObj(), field: gmf("team(id: %d) { id }", wTeam)},
		"query.teamMembers":        {want: gmMemberObj(), field: gmf("teamMembers(teamID: %d) { __typename }", wTeam)},
		"query.conversation":       {want: gmInboxObj(), field: gmf("conversation(displayID: %d) { "+inboxContent+" }", wConv)},
		"query.scheduledMessages":  {want: gmMember(), field: gmFixed("scheduledMessages(first: 5) { edges { node { content attachments { fileName } } } }")},
		"query.scheduledMessage":   {want: gmInboxObj(), field: gmf("scheduledMessage(id: %d) { content }", wSchedule)},
		// node/nodes by global id: the same privacy rules as the typed fields.
		"query.node": {want: gmInboxObj(), field: func(c *gmCell) string {
			return fmt.Sprintf(`node(id: %q) { id ... on Conversation { `+inboxContent+` } }`, gid("Conversation", c.w.Conv))
		}},
		"query.nodes": {want: gmInboxObj(), field: func(c *gmCell) string {
			return fmt.Sprintf(`nodes(ids: [%q]) { id ... on ScheduledMessage { content } }`, gid("ScheduledMessage", c.w.Schedule))
		}},
		"query.funnel":                     {want: gmMemberObj(), field: gmf("funnel(id: %d) { id }", wFunnel)},
		"query.kanbanItem":                 {want: gmMemberObj(), field: gmf("kanbanItem(id: %d) { id conversation { "+inboxContent+" } }", wCard)},
		"query.funnelStageStats":           {want: gmMemberObj(), field: gmf("funnelStageStats(funnelID: %d) { count stages { slug count } }", wFunnel)},
		"query.kanbanItemTimeReport":       {want: gmMemberObj(), field: gmf("kanbanItemTimeReport(id: %d) { totalDurationSeconds stays { stage } }", wCard)},
		"query.customAttributeDefinitions": {want: gmMember(), field: gmFixed("customAttributeDefinitions { attributeKey attributeValues }")},
		"query.customAttributeDefinition":  {want: gmMemberObj(), field: gmf("customAttributeDefinition(id: %d) { attributeKey }", wAttr)},
		"query.kanbanReport":               {want: gmMember(), field: gmFixed("kanbanReport { totalItems byStage { slug count } byAgent { name cards } }")},
		"query.searchKanbanItems":          {want: gmMember(), field: gmFixed(`searchKanbanItems(input: {query: "a"}) { totalCount nodes { id } }`)},
		"query.conversationList":           {want: gmMember(), field: gmFixed(`conversationList(status: "all", labels: ["gm"]) { mineCount allCount nodes { id } }`)},
		"query.kanbanConfig":               {want: gmAdminList(), field: gmFixed("kanbanConfig { __typename }")},
		"query.kanbanAutomations":          {want: gmAdminList(), field: gmFixed("kanbanAutomations { id }")},
		// Webhooks and their logs: administrators of their own account only;
		// a message's attempt log follows its inbox.
		"query.webhooks":          {want: gmAdminList(), field: gmFixed("webhooks { id url subscriptions }")},
		"query.webhook":           {want: gmAdminObj(), field: gmf("webhook(id: %d) { id url }", wWebhook)},
		"query.webhookDeliveries": {want: gmAdminObj(), field: gmf("webhookDeliveries(webhookID: %d) { id event status payload }", wWebhook)},
		"query.webhookDeliveryAttempts": {want: gmAdminObj(),
			setup: func(c *gmCell) { c.ids["id"] = failedDelivery(c.w.srv.DB.Client, c.w.Account, c.w.Webhook, c.n()) },
			field: func(c *gmCell) string {
				return fmt.Sprintf("webhookDeliveryAttempts(webhookID: %d, deliveryID: %d) { attempt outcome }", c.w.Webhook, c.ids["id"])
			}},
		"query.messageDeliveryAttempts": {want: gmInboxObj(),
			field: gmf("messageDeliveryAttempts(conversationDisplayID: %d, messageID: %d) { attempt outcome }", wConv, wMessage)},

		// Edges into inbox 1 from objects the agent outside it may read:
		// the answer must hold none of inbox 1's content.
		"edge.kanbanItems.conversation": {want: gmMember(), field: gmFixed(
			"kanbanItems(first: 10) { edges { node { conversation { " + inboxContent + " } } } }")},
		"edge.searchKanbanItems.conversation": {want: gmMember(), field: gmFixed(
			"searchKanbanItems(perPage: 10) { nodes { conversation { " + inboxContent + " } } }")},
		"edge.conversationList.messages": {want: gmMember(), field: gmFixed(
			"conversationList(status: \"all\") { allCount nodes { " + inboxContentInPages + " } }")},
		"edge.conversations.messages": {want: gmMember(), field: gmFixed(
			"conversations(first: 10) { edges { node { " + inboxContent + " } } }")},
		"edge.funnel.kanbanItems.conversation": {want: gmMember(), field: gmf(
			"kanbanItems(first: 10, where: {funnelID: %d}) { edges { node { conversation { "+inboxContentInPages+" } } } }", wFunnel)},
	}
}
