package rest

import (
	"sort"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/switchboard/switchboard/views"
)

var methodOrder = []string{"GET", "POST", "PUT", "PATCH", "DELETE"}

// pageOf is the page's model: operations grouped by tag, in path order.
func pageOf(doc *openapi3.T) views.APIReference {
	ref := views.APIReference{Title: doc.Info.Title, Description: doc.Info.Description}
	groups := map[string]*views.APIGroup{}
	for _, path := range doc.Paths.InMatchingOrder() {
		item := doc.Paths.Value(path)
		for _, m := range methodOrder {
			o := item.GetOperation(m)
			if o == nil {
				continue
			}
			tag := o.Tags[0]
			if groups[tag] == nil {
				groups[tag] = &views.APIGroup{Name: tag}
			}
			groups[tag].Operations = append(groups[tag].Operations, pageOperation(m, path, o))
		}
	}
	for _, g := range groups {
		sort.SliceStable(g.Operations, func(i, j int) bool { return g.Operations[i].Path < g.Operations[j].Path })
		ref.Groups = append(ref.Groups, *g)
	}
	sort.Slice(ref.Groups, func(i, j int) bool { return ref.Groups[i].Name < ref.Groups[j].Name })
	return ref
}

func pageOperation(method, path string, o *openapi3.Operation) views.APIOperation {
	op := views.APIOperation{ID: o.OperationID, Method: method, Path: path, Summary: o.Summary, Auth: authText(o)}
	for _, p := range o.Parameters {
		pv := p.Value
		op.Params = append(op.Params, views.APIField{Name: pv.Name, In: pv.In, Type: typeText(pv.Schema), Note: pv.Description, Required: pv.Required})
	}
	if o.RequestBody != nil {
		if mt := o.RequestBody.Value.Content.Get("multipart/form-data"); mt != nil {
			op.Body = fieldsOf(mt.Schema)
		}
	}
	statuses := make([]string, 0, o.Responses.Len())
	for status := range o.Responses.Map() {
		statuses = append(statuses, status)
	}
	sort.Strings(statuses)
	for _, status := range statuses {
		op.Responses = append(op.Responses, pageResponse(status, o.Responses.Value(status)))
	}
	return op
}

func pageResponse(status string, r *openapi3.ResponseRef) views.APIResponse {
	out := views.APIResponse{Status: status}
	if r.Value.Description != nil {
		out.Description = *r.Value.Description
	}
	for media, mt := range r.Value.Content {
		out.Media = media
		if r.Ref == "" { // the shared error shape is shown once, not under every status
			out.Fields = fieldsOf(mt.Schema)
		} else {
			out.Description += " (the error shape)"
		}
	}
	return out
}

// fieldsOf lists an object's properties, the request body's wrapped form
// left out.
func fieldsOf(s *openapi3.SchemaRef) []views.APIField {
	if s == nil || s.Value == nil {
		return nil
	}
	v := s.Value
	if len(v.AnyOf) > 0 {
		v = v.AnyOf[0].Value
	}
	if v.Type.Is("array") && v.Items != nil {
		return []views.APIField{{Name: "(list)", Type: typeText(s)}}
	}
	required := map[string]bool{}
	for _, k := range v.Required {
		required[k] = true
	}
	names := make([]string, 0, len(v.Properties))
	for k := range v.Properties {
		names = append(names, k)
	}
	sort.Strings(names)
	out := make([]views.APIField, 0, len(names))
	for _, k := range names {
		p := v.Properties[k]
		out = append(out, views.APIField{Name: k, Type: typeText(p), Note: p.Value.Description, Required: required[k]})
	}
	return out
}

// typeText is a schema in a few words: "integer | null", "list of Contact".
func typeText(s *openapi3.SchemaRef) string {
	if s == nil {
		return "any"
	}
	if s.Ref != "" {
		return s.Ref[strings.LastIndexByte(s.Ref, '/')+1:]
	}
	v := s.Value
	switch {
	case v == nil:
		return "any"
	case len(v.AllOf) == 1:
		return typeText(v.AllOf[0])
	case len(v.AnyOf) > 0:
		parts := make([]string, 0, len(v.AnyOf))
		for _, x := range v.AnyOf {
			parts = append(parts, typeText(x))
		}
		return strings.Join(parts, " | ")
	case v.Type == nil || len(*v.Type) == 0:
		return "any"
	}
	parts := make([]string, 0, len(*v.Type))
	for _, t := range *v.Type {
		switch {
		case t == "array" && v.Items != nil:
			t = "list of " + typeText(v.Items)
		case t == "string" && len(v.Enum) > 0:
			t = "one of " + enumText(v.Enum)
		case t == "string" && v.Format != "":
			t = v.Format
		}
		parts = append(parts, t)
	}
	return strings.Join(parts, " | ")
}

func enumText(values []any) string {
	out := make([]string, 0, len(values))
	for _, v := range values {
		if s, ok := v.(string); ok {
			out = append(out, s)
		}
	}
	return strings.Join(out, ", ")
}

func authText(o *openapi3.Operation) string {
	if o.Security == nil || len(*o.Security) == 0 {
		return "none"
	}
	var out []string
	for _, req := range *o.Security {
		if len(req) == 0 {
			out = append(out, "a signed link")
		}
		for name := range req {
			out = append(out, name+" (api_access_token header)")
		}
	}
	return strings.Join(out, " or ")
}
