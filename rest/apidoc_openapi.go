package rest

import (
	"fmt"
	"net/http"
	"reflect"
	"sort"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
)

// queryParams are the query parameters the handlers read, by name.
var queryParams = map[string]*openapi3.Schema{
	"page":            note(integer(), "page number, from 1"),
	"per_page":        note(integer(), "items per page (bounded)"),
	"sort":            note(str(), "a field name, - in front for descending"),
	"labels":          note(arr(str()), "label titles (labels[]=a&labels[]=b, or a,b)"),
	"q":               note(str(), "search text"),
	"query":           note(str(), "search text (q also works)"),
	"attribute_model": note(enum("contact_attribute", "conversation_attribute", "0", "1"), "which definitions"),
	"status":          note(str(), "a status to filter by"),
	"assignee_type":   enum("me", "unassigned", "assigned", "all"),
	"inbox_id":        integer(),
	"team_id":         integer(),
	"funnel_id":       integer(),
	"agent_id":        integer(),
	"before":          note(integer(), "messages before this message id"),
	"after":           note(integer(), "messages after this message id"),
	"exp":             note(integer(), "a signed link's expiry (Unix seconds)"),
	"sig":             note(str(), "a signed link's signature; without it the api_access_token header is needed"),
	"conversation_id": note(integer(), "a conversation's display id (conversation also works)"),
	"stage_id":        note(str(), "a stage slug (funnel_stage also works)"),
	"priority":        note(arr(str()), "priorities (priorities also works)"),
	"value_min":       number(),
	"value_max":       number(),
	"created_from":    note(str(), "a date (YYYY-MM-DD) or ISO 8601 time (date_start also works)"),
	"created_to":      note(str(), "a date (YYYY-MM-DD, inclusive) or ISO 8601 time (date_end also works)"),
	"user_ids":        note(arr(integer()), "agent ids"),
	"from":            note(str(), "period start, a date or ISO 8601 time (default: 30 days before to)"),
	"to":              note(str(), "period end, a date (inclusive) or ISO 8601 time (default: now)"),
	"group_by":        note(enum("week", "month", "year"), "the periods of by_period (default: weeks up to half a year, months up to ten years, then years)"),
	"hub.mode":        note(str(), "subscribe"),
	"hub.challenge":   note(str(), "echoed back when the verify token matches"),
}

// stringParams are the path parameters that are not ids.
var stringParams = map[string]string{"phone_number": "the inbox's number in E.164 (the + may be left out)"}

// errorStatuses are the failures every authenticated route may answer,
// with the one error shape (rest/errors.go).
var errorStatuses = []int{
	http.StatusBadRequest, http.StatusUnauthorized, http.StatusForbidden, http.StatusNotFound,
	http.StatusConflict, http.StatusRequestEntityTooLarge, http.StatusUnsupportedMediaType, http.StatusUnprocessableEntity,
	http.StatusTooManyRequests, http.StatusInternalServerError, http.StatusServiceUnavailable,
}

// buildOpenAPI is the document of every route in the book.
func buildOpenAPI(book *routeBook) (*openapi3.T, error) {
	t := &openapi3.T{
		OpenAPI: "3.1.0",
		Info: &openapi3.Info{
			Title:   "Switchboard REST API",
			Version: "1.0.0",
			Description: "Chatwoot-compatible account API (/api/v1/accounts/{account_id}/...), the signed-in user's profile " +
				"and the platform API (/platform/api/v1/...). Timestamps are ISO 8601 UTC strings. Every error is " +
				"{\"error\": sentence}; a 422 adds Chatwoot's message and attributes (the failing fields).",
		},
		Paths: openapi3.NewPaths(),
		Components: &openapi3.Components{
			Schemas:         wireShapes(),
			Responses:       openapi3.ResponseBodies{"Error": errorResponse()},
			SecuritySchemes: securitySchemes(),
		},
	}
	for _, r := range book.routes {
		path := openAPIPath(r.path)
		item := t.Paths.Value(path)
		if item == nil {
			item = &openapi3.PathItem{}
			t.Paths.Set(path, item)
		}
		if item.GetOperation(r.method) != nil {
			return nil, fmt.Errorf("route %s %s is registered twice", r.method, r.path)
		}
		item.SetOperation(r.method, operation(r))
	}
	t.Tags = tagsOf(book)
	return t, nil
}

func errorResponse() *openapi3.ResponseRef {
	return &openapi3.ResponseRef{Value: openapi3.NewResponse().WithDescription("An error").
		WithJSONSchemaRef(shape("Error"))}
}

func securitySchemes() openapi3.SecuritySchemes {
	key := func(desc string) *openapi3.SecuritySchemeRef {
		return &openapi3.SecuritySchemeRef{Value: &openapi3.SecurityScheme{
			Type: "apiKey", In: "header", Name: "api_access_token", Description: desc,
		}}
	}
	return openapi3.SecuritySchemes{
		string(userAPIKey):     key("A user's access token (profile settings, or the platform API's user create)."),
		string(platformAPIKey): key("The installation's platform token."),
		string(whatsAppVerifyToken): {Value: &openapi3.SecurityScheme{Type: "apiKey", In: "query", Name: "hub.verify_token",
			Description: "A WhatsApp inbox's provider_config.webhook_verify_token."}},
		string(whatsAppSignature): {Value: &openapi3.SecurityScheme{Type: "apiKey", In: "header", Name: "X-Hub-Signature-256",
			Description: "sha256= and the hex HMAC-SHA256 of the raw body, keyed with the inbox's provider_config.app_secret."}},
	}
}

// operation is one route's operation object.
func operation(r routeDoc) *openapi3.Operation {
	d := r.doc
	o := &openapi3.Operation{
		Summary:     d.summary,
		OperationID: operationID(r.method, r.path),
		Tags:        []string{tagOf(r.path)},
		Responses:   openapi3.NewResponses(),
	}
	o.Responses.Delete("default")
	for _, name := range pathParams(r.path) {
		if desc, isStr := stringParams[name]; isStr {
			o.AddParameter(openapi3.NewPathParameter(name).WithSchema(str()).WithDescription(desc))
			continue
		}
		o.AddParameter(openapi3.NewPathParameter(name).WithSchema(pathParamSchema(name)))
	}
	for _, name := range d.query {
		s, ok := queryParams[name]
		if !ok {
			panic("query parameter " + name + " is not in queryParams")
		}
		o.AddParameter(openapi3.NewQueryParameter(name).WithSchema(s).WithDescription(s.Description))
	}
	if r.method == http.MethodPost && r.auth != public && r.auth != whatsAppSignature {
		o.AddParameter(openapi3.NewHeaderParameter("Idempotency-Key").WithSchema(str()).
			WithDescription("a replay with the same key and body answers the first response again"))
	}
	if d.body != nil {
		o.RequestBody = requestBody(d)
	}
	o.AddResponse(successStatus(d), successResponse(d))
	setSecurity(o, r.auth)
	return o
}

func requestBody(d doc) *openapi3.RequestBodyRef {
	s := bodySchema(d.body, d.wrapper)
	content := openapi3.Content{
		"application/json":                  openapi3.NewMediaType().WithSchema(s),
		"application/x-www-form-urlencoded": openapi3.NewMediaType().WithSchema(s),
	}
	form := openapi3.NewMediaType().WithSchema(s)
	if d.files {
		withFiles := *schemaOf(reflect.TypeOf(d.body))
		withFiles.Properties = openapi3.Schemas{}
		for k, v := range schemaOf(reflect.TypeOf(d.body)).Properties {
			withFiles.Properties[k] = v
		}
		withFiles.Properties["attachments[]"] = openapi3.NewSchemaRef("", arr(openapi3.NewStringSchema().WithFormat("binary")))
		form = openapi3.NewMediaType().WithSchema(&withFiles)
	}
	content["multipart/form-data"] = form
	return &openapi3.RequestBodyRef{Value: openapi3.NewRequestBody().WithContent(content)}
}

func successStatus(d doc) int {
	if d.status != 0 {
		return d.status
	}
	return http.StatusOK
}

func successResponse(d doc) *openapi3.Response {
	res := openapi3.NewResponse().WithDescription(http.StatusText(successStatus(d)))
	switch {
	case d.media != "":
		res.WithContent(openapi3.Content{d.media: openapi3.NewMediaType()})
	case d.ok != nil:
		res.WithJSONSchemaRef(d.ok)
	default:
		res.Description = ptr("No body")
	}
	return res
}

func setSecurity(o *openapi3.Operation, auth security) {
	switch auth {
	case public:
		o.Security = openapi3.NewSecurityRequirements()
		// Even a public route refuses malformed input before it runs (a
		// NUL character, a query too long) and may fail like any other.
		for _, status := range []int{http.StatusBadRequest, http.StatusInternalServerError, http.StatusServiceUnavailable} {
			o.Responses.Set(fmt.Sprint(status), &openapi3.ResponseRef{Ref: "#/components/responses/Error"})
		}
		return
	case visitorPath:
		o.Security = openapi3.NewSecurityRequirements()
	case signedOrUser:
		o.Security = openapi3.NewSecurityRequirements().
			With(openapi3.SecurityRequirement{}).
			With(openapi3.NewSecurityRequirement().Authenticate(string(userAPIKey)))
	default:
		o.Security = openapi3.NewSecurityRequirements().With(openapi3.NewSecurityRequirement().Authenticate(string(auth)))
	}
	for _, status := range errorStatuses {
		o.Responses.Set(fmt.Sprint(status), &openapi3.ResponseRef{Ref: "#/components/responses/Error"})
	}
}

// pathParamSchema: ids are integers; the public client API's identifiers
// (inbox_identifier, contact_identifier) are strings.
func pathParamSchema(name string) *openapi3.Schema {
	if strings.HasSuffix(name, "_identifier") {
		return str()
	}
	return integer()
}

func pathParams(path string) []string {
	var out []string
	for _, p := range strings.Split(path, "/") {
		if strings.HasPrefix(p, ":") {
			out = append(out, p[1:])
		}
	}
	return out
}

// tagOf groups a route by resource: the first segment after the account
// (or the platform API's prefix).
func tagOf(path string) string {
	rest := path
	for _, prefix := range []string{"/api/v1/accounts/:account_id/", "/platform/api/v1/", "/api/v1/", "/api/", "/webhooks/"} {
		if strings.HasPrefix(path, prefix) {
			rest = strings.TrimPrefix(path, prefix)
			break
		}
	}
	seg, _, _ := strings.Cut(rest, "/")
	if seg == "conversations" && strings.Contains(rest, "/messages") {
		seg = "messages"
	}
	if strings.Contains(rest, "scheduled_messages") {
		seg = "scheduled_messages"
	}
	if seg == "funnels" && strings.Contains(rest, "kanban_items") {
		seg = "kanban_items"
	}
	if strings.HasPrefix(path, "/platform/") {
		return "platform " + seg
	}
	if seg == "openapi.json" || seg == "docs" {
		return "reference"
	}
	return seg
}

func tagsOf(book *routeBook) openapi3.Tags {
	seen := map[string]bool{}
	var names []string
	for _, r := range book.routes {
		if tag := tagOf(r.path); !seen[tag] {
			seen[tag] = true
			names = append(names, tag)
		}
	}
	sort.Strings(names)
	tags := make(openapi3.Tags, 0, len(names))
	for _, n := range names {
		tags = append(tags, &openapi3.Tag{Name: n})
	}
	return tags
}

// operationID is unique per method and path: "get_contacts_id".
func operationID(method, path string) string {
	for _, prefix := range []string{"/api/v1/accounts/:account_id", "/api/v1"} {
		path = strings.TrimPrefix(path, prefix)
	}
	path = strings.NewReplacer("/:", "_by_", "/", "_", ".", "_").Replace(path)
	return strings.ToLower(method) + path
}

func ptr[T any](v T) *T { return &v }
