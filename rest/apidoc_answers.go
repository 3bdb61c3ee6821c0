package rest

import "github.com/getkin/kin-openapi/openapi3"

// The answers the route table names that are not one shape: lists with
// their meta, and the kanban reports.

func mapOf(values *openapi3.Schema) *openapi3.Schema {
	return openapi3.NewObjectSchema().WithAdditionalProperties(values)
}

func listAnswer(name string) *openapi3.Schema { return arr(shapeOf(name)) }

func contactPageAnswer(withHasMore bool) *openapi3.SchemaRef {
	meta := obj(props{"count": integer(), "current_page": integer()})
	if withHasMore {
		meta = obj(props{"count": integer(), "current_page": integer(), "has_more": boolean()})
	}
	return inline(obj(props{"meta": meta, "payload": listAnswer("Contact")}))
}

func contactCreatedAnswer() *openapi3.SchemaRef {
	ci := obj(props{"source_id": str(), "inbox": shapeOf("Inbox")})
	return payloadOf(obj(props{"contact": shapeOf("Contact"), "contact_inbox": ci}))
}

func conversationListAnswer() *openapi3.SchemaRef {
	meta := obj(props{"mine_count": integer(), "assigned_count": integer(), "unassigned_count": integer(), "all_count": integer()})
	return inline(obj(props{"data": obj(props{"meta": meta, "payload": listAnswer("Conversation")})}))
}

func toggleStatusAnswer() *openapi3.SchemaRef {
	return inline(obj(props{"meta": anyObj(), "payload": obj(props{
		"success": boolean(), "conversation_id": integer(), "current_status": str(), "snoozed_until": nullTS(),
	})}))
}

func messageListAnswer() *openapi3.SchemaRef {
	meta := obj(props{
		"labels": arr(str()), "additional_attributes": anyObj(), "agent_last_seen_at": nullTS(),
		"assignee_last_seen_at": null(), "contact": shapeOf("ContactBase"),
	}, "contact")
	return inline(obj(props{"meta": meta, "payload": listAnswer("Message")}))
}

func scheduleListAnswer() *openapi3.SchemaRef {
	meta := obj(props{"count": integer(), "current_page": integer(), "per_page": integer()})
	return inline(obj(props{"meta": meta, "payload": listAnswer("ScheduledMessage")}))
}

func stageStatsAnswer() *openapi3.SchemaRef {
	stage := obj(props{"slug": str(), "name": str(), "color": str(), "count": integer(), "total_value": number(),
		"open": integer(), "won": integer(), "lost": integer()})
	return inline(obj(props{"funnel_id": integer(), "stages": arr(stage), "total_items": integer(), "total_value": number(),
		"open": integer(), "won": integer(), "lost": integer()}))
}

func cardMetaShape() *openapi3.Schema {
	return obj(props{"count": integer(), "total_count": integer(), "current_page": integer(), "has_more": boolean()})
}

func cardPageAnswer() *openapi3.SchemaRef {
	return inline(obj(props{"meta": cardMetaShape(), "payload": listAnswer("KanbanItem")}))
}

func cardBatchAnswer() *openapi3.SchemaRef {
	meta := cardMetaShape()
	meta.WithProperty("stage_counts", mapOf(integer())).WithProperty("total_items", integer())
	meta.Required = append(meta.Required, "stage_counts", "total_items")
	return inline(obj(props{"meta": meta, "payload": listAnswer("KanbanItem")}))
}

func cardSearchAnswer() *openapi3.SchemaRef {
	meta := obj(props{"count": integer(), "query": str(), "total_count": integer(), "current_page": integer(), "has_more": boolean()},
		"total_count", "current_page", "has_more")
	return inline(obj(props{"meta": meta, "payload": listAnswer("KanbanItem")}))
}

func cardReportAnswer() *openapi3.SchemaRef {
	stage := obj(props{"funnel_id": integer(), "slug": str(), "name": str(), "count": integer(), "value": number(),
		"stays": integer(), "avg_time_seconds": number(), "reached": integer()})
	countValue := func() *openapi3.Schema { return obj(props{"count": integer(), "value": number()}) }
	period := obj(props{"start": ts(), "created": countValue(), "won": countValue(), "lost": countValue()})
	agent := obj(props{"user_id": nullable(integer()), "name": str(), "cards": integer(),
		"open": countValue(), "won": countValue(), "lost": countValue()})
	return inline(obj(props{
		"period": obj(props{"from": ts(), "to": ts()}), "total_items": integer(), "total_value": number(),
		"by_status": mapOf(countValue()), "stages": arr(stage),
		"win_rate": nullable(number()), "avg_time_to_win_seconds": nullable(number()),
		"group_by": str(), "by_period": arr(period), "by_agent": arr(agent),
	}))
}

func importPreviewAnswer() *openapi3.SchemaRef {
	return inline(obj(props{"columns": arr(str()), "preview_rows": arr(mapOf(str())), "total_rows": integer(), "targets": arr(str())}))
}

func importAnswer() *openapi3.SchemaRef {
	return inline(obj(props{
		"success": boolean(), "total_rows": integer(), "created_count": integer(), "error_count": integer(),
		"errors": arr(obj(props{"row": integer(), "error": str()})), "created_ids": arr(integer()),
	}))
}

// bulkAnswer is a bulk change's answer; counted names its count.
func bulkAnswer(counted string) *openapi3.SchemaRef {
	return inline(obj(props{"success": boolean(), "total_requested": integer(), counted: integer(), "payload": listAnswer("KanbanItem")}))
}

func cardAgentsAnswer() *openapi3.SchemaRef {
	return inline(obj(props{"item_id": integer(), "assigned_agents": listAnswer("CardAgent"), "primary_agent": orNull(shape("CardAgent"))}))
}

func checklistAnswer() *openapi3.SchemaRef {
	return inline(obj(props{"item_id": integer(), "checklist": listAnswer("ChecklistItem"), "checklist_count": integer(),
		"completed_count": integer(), "checklist_item": shapeOf("ChecklistItem")}, "checklist_item"))
}

func notesAnswer() *openapi3.SchemaRef {
	return inline(obj(props{"item_id": integer(), "notes": listAnswer("CardNote"), "notes_count": integer(), "note": shapeOf("CardNote")}, "note"))
}

func timeReportAnswer() *openapi3.SchemaRef {
	current := obj(props{"stage": str(), "entered_at": ts(), "duration_seconds": integer(), "duration_formatted": str()},
		"stage", "entered_at", "duration_seconds", "duration_formatted")
	return inline(obj(props{
		"item_id": integer(), "status": str(), "created_at": ts(), "closed_at": nullTS(),
		"total_duration_seconds": integer(), "total_duration_formatted": str(), "current_stage": current,
		"time_per_stage": mapOf(integer()), "stage_changes": integer(),
	}))
}

func stageBreakdownAnswer() *openapi3.SchemaRef {
	span := obj(props{"stage": str(), "stage_name": str(), "stage_id": integer(), "funnel_id": integer(), "entered_at": ts(),
		"left_at": nullTS(), "duration_seconds": integer(), "duration_formatted": str()})
	return inline(obj(props{"item_id": integer(), "stage_breakdown": arr(span), "time_per_stage": mapOf(integer()), "total_stages": integer()}))
}

func cardCountsAnswer() *openapi3.SchemaRef {
	return inline(obj(props{"item_id": integer(), "checklist_count": integer(), "checklist_completed_count": integer(),
		"notes_count": integer(), "assigned_agents_count": integer(), "stage_changes_count": integer()}))
}

func webhookTestAnswer() *openapi3.SchemaRef {
	return inline(obj(props{"success": boolean(), "response_code": integer(), "response_body": str(), "error": str()}, "error"))
}
