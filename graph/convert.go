package graph

import (
	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/graph/model"
	"github.com/switchboard/switchboard/internal/ops"
)

func deref[T any](p *T) T {
	var zero T
	if p == nil {
		return zero
	}
	return *p
}

func contactPage(p *ops.Page[*ent.Contact]) *model.ContactPage {
	if p == nil {
		return nil
	}
	return &model.ContactPage{Nodes: p.Items, TotalCount: p.Total, Page: p.Page, HasMore: p.HasMore}
}

func filterConditions(in []*model.FilterConditionInput) []ops.FilterCondition {
	out := make([]ops.FilterCondition, len(in))
	for i, c := range in {
		values := make([]any, len(c.Values))
		for j, v := range c.Values {
			values[j] = v
		}
		out[i] = ops.FilterCondition{
			AttributeKey: c.AttributeKey, FilterOperator: c.FilterOperator,
			Values: values, QueryOperator: deref(c.QueryOperator),
		}
	}
	return out
}
