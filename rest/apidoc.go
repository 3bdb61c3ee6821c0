package rest

import (
	"net/http"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/gofiber/fiber/v2"
)

// doc describes one route for the OpenAPI document: the route table passes
// one with every registration, so a route cannot exist undescribed.
type doc struct {
	summary string
	// body is a zero value of the struct the handler decodes (nil: no body);
	// wrapper is the key Chatwoot also accepts it under ({wrapper: {...}}).
	body    any
	wrapper string
	// files says the body may be multipart with attachments[] parts.
	files bool
	query []string // names in queryParams
	// ok is the success body (nil: none); status and media override 200 and
	// application/json.
	ok     *openapi3.SchemaRef
	status int
	media  string
}

// op is a route answering 200 with the JSON body ok (nil: an empty body).
func op(summary string, ok *openapi3.SchemaRef) doc { return doc{summary: summary, ok: ok} }

// in names the request struct the handler decodes and its wrapper key.
func (d doc) in(body any, wrapper string) doc { d.body, d.wrapper = body, wrapper; return d }

// q names the query parameters the handler reads.
func (d doc) q(names ...string) doc { d.query = append(d.query, names...); return d }

// withFiles says the body may carry attachments as multipart parts.
func (d doc) withFiles() doc { d.files = true; return d }

// code sets the success status.
func (d doc) code(status int) doc { d.status = status; return d }

// as sets a non-JSON success content type.
func (d doc) as(media string) doc { d.media = media; return d }

// security says how a route authenticates, as Chatwoot's document names
// its schemes.
type security string

const (
	userAPIKey     security = "userApiKey"
	platformAPIKey security = "platformAppApiKey"
	// signedOrUser: a signed link, or a user's token.
	signedOrUser security = "signedOrUser"
	// visitorPath: the public client API; the inbox's public identifier
	// and the visitor's contact identifier in the path are the credentials.
	visitorPath security = "visitorPath"
	public      security = ""
	// whatsAppVerifyToken: an inbox's webhook_verify_token in
	// hub.verify_token; whatsAppSignature: X-Hub-Signature-256 made with
	// its app secret.
	whatsAppVerifyToken security = "whatsAppVerifyToken"
	whatsAppSignature   security = "whatsAppSignature"
)

// routeDoc is one registered route with its description.
type routeDoc struct {
	method, path string // path as Fiber has it (":id")
	auth         security
	doc          doc
}

// routeBook collects the route table's descriptions as routes are
// registered.
type routeBook struct{ routes []routeDoc }

func (b *routeBook) add(method, path string, auth security, d doc) {
	b.routes = append(b.routes, routeDoc{method: method, path: path, auth: auth, doc: d})
}

// guarded registers routes behind an authentication handler, and records
// each with its description. The handler runs per route, not for the whole
// prefix, so an unknown path is a 404 whatever the credentials. POST routes
// (the creates) honour an Idempotency-Key header.
type guarded struct {
	r      fiber.Router
	prefix string
	sec    security
	book   *routeBook
	auth   fiber.Handler
	idem   fiber.Handler
}

func (g guarded) Get(path string, h fiber.Handler, d doc) {
	g.book.add(http.MethodGet, g.prefix+path, g.sec, d)
	g.r.Get(path, g.auth, h)
}

func (g guarded) Post(path string, h fiber.Handler, d doc) {
	g.book.add(http.MethodPost, g.prefix+path, g.sec, d)
	g.r.Post(path, g.auth, g.idem, h)
}

func (g guarded) Put(path string, h fiber.Handler, d doc) {
	g.book.add(http.MethodPut, g.prefix+path, g.sec, d)
	g.r.Put(path, g.auth, h)
}

func (g guarded) Patch(path string, h fiber.Handler, d doc) {
	g.book.add(http.MethodPatch, g.prefix+path, g.sec, d)
	g.r.Patch(path, g.auth, h)
}

func (g guarded) Delete(path string, h fiber.Handler, d doc) {
	g.book.add(http.MethodDelete, g.prefix+path, g.sec, d)
	g.r.Delete(path, g.auth, h)
}

// openGet registers a GET route that authenticates itself (or needs no
// credentials).
func (b *routeBook) openGet(app *fiber.App, path string, sec security, h fiber.Handler, d doc) {
	b.add(http.MethodGet, path, sec, d)
	app.Get(path, h)
}

// openPost registers a POST route that authenticates itself.
func (b *routeBook) openPost(app *fiber.App, path string, sec security, h fiber.Handler, d doc) {
	b.add(http.MethodPost, path, sec, d)
	app.Post(path, h)
}

// openAPIPath is a Fiber path in OpenAPI's form ("/contacts/{id}").
func openAPIPath(path string) string {
	parts := strings.Split(path, "/")
	for i, p := range parts {
		if strings.HasPrefix(p, ":") {
			parts[i] = "{" + p[1:] + "}"
		}
	}
	return strings.Join(parts, "/")
}
