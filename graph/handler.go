package graph

import (
	"cmp"
	"context"
	"encoding/json"
	"mime"
	"net/http"
	"strconv"
	"strings"

	"github.com/99designs/gqlgen/graphql"
	"github.com/99designs/gqlgen/graphql/executor"
	"github.com/99designs/gqlgen/graphql/handler/extension"
	"github.com/99designs/gqlgen/graphql/handler/lru"
	"github.com/99designs/gqlgen/graphql/handler/transport"
	"github.com/a-h/templ"
	"github.com/gorilla/websocket"
	"github.com/vektah/gqlparser/v2/ast"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/internal/accounts"
	"github.com/switchboard/switchboard/internal/apperr"
	"github.com/switchboard/switchboard/internal/events"
	"github.com/switchboard/switchboard/internal/ops"
	"github.com/switchboard/switchboard/internal/viewer"
	"github.com/switchboard/switchboard/views"
)

// Handler serves /graphql: queries and mutations over POST and GET,
// subscriptions over websocket, and the explorer page (ours, served from the binary) to a browser asking for HTML.
type Handler struct {
	appCtx context.Context
	svc    *ops.Service
	// exec runs every operation, whichever way it came: JSON POSTs in Fiber
	// itself (ServeJSONPost), the rest through transports over net/http.
	exec       *executor.Executor
	transports []graphql.Transport
	// explorer serves the GraphQL explorer page to browsers.
	explorer http.Handler
}

// apqCacheSize bounds the automatic persisted queries kept: the least
// recently used go first (a client whose hash is gone sends the text again).
// Each is at most Limits.MaxBytes.
const apqCacheSize = 1000

// queryCacheSize bounds the parsed and validated queries kept, by text:
// parsing and validating took a fifth of the server's CPU for GraphQL
// contact(id). Apps send a few dozen distinct queries; a document is at most
// Limits.MaxTokens tokens, so the bound keeps the worst case to tens of MB.
const queryCacheSize = 100

// NewHandler builds the GraphQL endpoint with DefaultLimits. appCtx is
// cancelled at shutdown; subscriptions end with it.
func NewHandler(appCtx context.Context, client *ent.Client, svc *ops.Service, hub *events.Hub, path string) *Handler {
	return NewHandlerWithLimits(appCtx, client, svc, hub, path, DefaultLimits)
}

// NewHandlerWithLimits is NewHandler with other limits (tests use small
// ones).
func NewHandlerWithLimits(appCtx context.Context, client *ent.Client, svc *ops.Service, hub *events.Hub, path string, limits Limits) *Handler {
	exec := executor.New(NewExecutableSchema(newConfig(NewResolver(client, svc, hub))))
	ws := &wsTransport{
		limits: limits,
		upgrader: websocket.Upgrader{
			Subprotocols: []string{wsProtocol},
			// Subscriptions authenticate with a token in the init payload, not
			// with cookies, so any origin may connect.
			CheckOrigin: func(*http.Request) bool { return true },
		},
		authenticate: func(ctx context.Context, addr string, p map[string]any) (context.Context, error) {
			return viewerOfInit(ctx, p, func(token string, accountID int) (viewer.Viewer, error) {
				return svc.AuthenticateToken(ctx, addr, token, accountID)
			})
		},
		// Not throttled: a re-check is no guess, and a client must not keep a
		// revoked token's subscriptions by getting its address throttled.
		reauthenticate: func(ctx context.Context, p map[string]any) (context.Context, error) {
			return viewerOfInit(ctx, p, func(token string, accountID int) (viewer.Viewer, error) {
				return svc.ViewerForToken(ctx, token, accountID)
			})
		},
	}
	exec.SetQueryCache(lru.New[*ast.QueryDocument](queryCacheSize))
	exec.Use(newTextLimits(limits))
	// After the text limits: a query sent with its hash is checked before it
	// is kept, and one sent by hash alone was checked when it was kept (the
	// cost check runs on every request). Queries are text, the same for every
	// account, so one cache serves all.
	exec.Use(extension.AutomaticPersistedQuery{Cache: lru.New[string](apqCacheSize)})
	exec.Use(extension.Introspection{})
	exec.AroundResponses(withLoaders(svc, client))
	exec.SetErrorPresenter(presenter(limits.Timeout))
	exec.SetRecoverFunc(recoverPanic)
	transports := []graphql.Transport{ws, transport.Options{}, transport.GET{}, transport.POST{},
		transport.MultipartForm{MaxUploadSize: 64 << 20, MaxMemory: 16 << 20}}
	return &Handler{appCtx: appCtx, svc: svc, exec: exec, transports: transports, explorer: templ.Handler(views.GraphQLExplorer(path))}
}

// ServeHTTP authenticates the caller (authenticated) and runs the request
// as that viewer, over gqlgen's transports.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method == http.MethodGet && wantsHTML(r) && !websocket.IsWebSocketUpgrade(r) {
		h.explorer.ServeHTTP(w, r)
		return
	}
	if websocket.IsWebSocketUpgrade(r) {
		// A subscription outlives its request: its context is the app's, since
		// the fasthttp request context behind the adaptor is recycled when the
		// handler returns (its Done and Err then disagree, which panics
		// context.WithCancel). Authenticated by the connection's init payload;
		// it ends with its socket (no goroutine waits on appCtx for it).
		h.serve(w, r.WithContext(h.appCtx))
		return
	}
	if err := servedOver(r); err != nil {
		status := http.StatusUnsupportedMediaType
		if r.Method != http.MethodPost {
			status = http.StatusMethodNotAllowed
			w.Header().Set("Allow", "GET, POST, OPTIONS")
		}
		writeJSON(w, status, refusalBody(err))
		return
	}
	ctx, err := h.authenticated(r.Context(), r.RemoteAddr, r.Header.Get, r.URL.Query().Get("account_id"))
	if err != nil {
		status, retryAfter := refusal(err)
		if retryAfter != "" {
			w.Header().Set("Retry-After", retryAfter)
		}
		writeJSON(w, status, refusalBody(err))
		return
	}
	h.serve(w, r.WithContext(ctx))
}

// authenticated is ctx with the viewer of a request's token (REST's headers:
// api_access_token, Api-Access-Token or Authorization: Bearer) in its account
// (X-Account-Id, else accountParam, else the user's first account). addr is
// the caller's, for the throttle of wrong tokens.
func (h *Handler) authenticated(ctx context.Context, addr string, header func(string) string, accountParam string) (context.Context, error) {
	accountID, err := namedAccount(cmp.Or(header("X-Account-Id"), accountParam))
	if err != nil {
		return ctx, err
	}
	v, err := h.svc.AuthenticateToken(ctx, addr, accounts.RequestToken(header), accountID)
	if err != nil {
		return ctx, err
	}
	return viewer.NewContext(ctx, v), nil
}

// servedOver refuses a request gqlgen has no transport for (it would answer
// "transport not supported" without a code): queries come over GET, or POST
// as JSON, or multipart with files; OPTIONS asks which.
func servedOver(r *http.Request) error {
	switch r.Method {
	case http.MethodGet, http.MethodOptions:
		return nil
	case http.MethodPost:
		media, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
		if media == "application/json" || media == "multipart/form-data" {
			return nil
		}
		return apperr.BadRequest("send a GraphQL request as application/json (multipart/form-data for file uploads)")
	}
	return apperr.BadRequest("GraphQL is served over GET and POST")
}

func wantsHTML(r *http.Request) bool {
	return strings.Contains(r.Header.Get("Accept"), "text/html") && r.URL.Query().Get("query") == ""
}

// namedAccount is the account id a request names, or 0 when it names none.
func namedAccount(s string) (int, error) {
	if s == "" {
		return 0, nil
	}
	n, err := strconv.Atoi(s)
	if err != nil || n <= 0 {
		return 0, apperr.BadRequest("X-Account-Id must be an account id")
	}
	return n, nil
}

// RequestTokenFromInit reads the token from a websocket init payload:
// {"api_access_token": "..."} or {"Authorization": "Bearer ..."}.
func RequestTokenFromInit(p transport.InitPayload) string {
	if t := p.GetString("api_access_token"); t != "" {
		return t
	}
	return accounts.RequestToken(func(name string) string {
		if name == "Authorization" {
			return p.Authorization()
		}
		return ""
	})
}

// viewerOfInit is ctx with the viewer check makes of an init payload's
// token and account.
func viewerOfInit(ctx context.Context, p map[string]any, check func(token string, accountID int) (viewer.Viewer, error)) (context.Context, error) {
	init := transport.InitPayload(p)
	v, err := check(RequestTokenFromInit(init), accountFromInit(init))
	if err != nil {
		return ctx, err
	}
	return viewer.NewContext(ctx, v), nil
}

func accountFromInit(p transport.InitPayload) int {
	switch v := p["account_id"].(type) {
	case float64:
		return int(v)
	case string:
		n, _ := strconv.Atoi(v)
		return n
	}
	return 0
}

func writeJSON(w http.ResponseWriter, status int, body any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(body) // the client went away; nothing left to tell it
}
