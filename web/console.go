// Package web serves the server-rendered console: templ pages, signed in
// with a session cookie that carries a console session token (its own
// token with an expiry, see ops.StartSession; never the user's API token).
package web

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/a-h/templ"
	"github.com/gofiber/fiber/v2"
	"github.com/gofiber/fiber/v2/middleware/filesystem"

	"github.com/switchboard/switchboard/internal/accounts"
	"github.com/switchboard/switchboard/internal/apperr"
	"github.com/switchboard/switchboard/internal/events"
	"github.com/switchboard/switchboard/internal/observe"
	"github.com/switchboard/switchboard/internal/ops"
	"github.com/switchboard/switchboard/internal/throttle"
	"github.com/switchboard/switchboard/internal/viewer"
	"github.com/switchboard/switchboard/static"
	"github.com/switchboard/switchboard/views"
)

const sessionCookie = "sb_session"

// Console is the web console over the operations.
type Console struct {
	svc *ops.Service
	hub *events.Hub
	// ctx ends at shutdown, and with it the live board connections.
	ctx context.Context
	// secureCookie marks the session cookie Secure (PUBLIC_URL is https).
	secureCookie bool
	// publicHost is PUBLIC_URL's host[:port], an origin of our own.
	publicHost string
	// ws counts the live board connections.
	ws *observe.Websockets
}

// Mount registers the console's routes and its static files. Live boards
// follow hub until ctx ends; ws counts them. publicURL is where the console
// is served (PUBLIC_URL); an https one makes the session cookie Secure.
func Mount(ctx context.Context, app *fiber.App, svc *ops.Service, hub *events.Hub, publicURL string, ws *observe.Websockets) {
	c := &Console{svc: svc, hub: hub, ctx: ctx, ws: ws}
	if u, err := url.Parse(publicURL); err == nil {
		c.secureCookie, c.publicHost = u.Scheme == "https", u.Host
	}
	app.Use("/static", filesystem.New(filesystem.Config{Root: http.FS(static.Files), MaxAge: 3600}))
	app.Use("/app", c.pageErrors)
	app.Get("/", func(ctx *fiber.Ctx) error { return ctx.Redirect("/app") })
	app.Get("/app/login", c.loginPage)
	app.Post("/app/login", c.requireSameOrigin, c.login)
	app.Post("/app/logout", c.requireSameOrigin, c.logout)
	app.Get("/app", c.home)
	acc := app.Group("/app/accounts/:account_id", c.requireSameOrigin, c.requireSession, noStore)
	acc.Get("/contacts", c.contacts)
	c.mountPages(acc)
	acc.Get("/reports", c.reports)
	acc.Get("/funnels", c.funnels)
	acc.Post("/funnels", c.createFunnel)
	acc.Post("/funnels/:funnel_id/rename", c.renameFunnel)
	acc.Post("/funnels/:funnel_id/delete", c.deleteFunnel)
	acc.Get("/funnels/:funnel_id/board", c.board)
	acc.Get("/funnels/:funnel_id/stages", c.stages)
	acc.Post("/funnels/:funnel_id/stages", c.addStage)
	acc.Post("/funnels/:funnel_id/stages/:slug/edit", c.editStage)
	acc.Post("/funnels/:funnel_id/stages/:slug/move", c.moveStage)
	acc.Post("/funnels/:funnel_id/stages/:slug/delete", c.deleteStage)
	acc.Get("/funnels/:funnel_id/live", c.live)
	acc.Post("/kanban_items/:id/move", c.moveCard)
	acc.Get("/funnels/:funnel_id/cards/new", c.newCardForm)
	acc.Post("/funnels/:funnel_id/cards", c.createCard)
	acc.Post("/kanban_items/bulk", c.bulkCards)
	acc.Get("/kanban_items/:id/drawer", c.cardDrawer)
	acc.Post("/kanban_items/:id/edit", c.editCard)
	acc.Post("/kanban_items/:id/status", c.cardStatus)
	acc.Post("/kanban_items/:id/delete", c.deleteCard)
	acc.Post("/kanban_items/:id/agents", c.cardAgent)
	acc.Post("/kanban_items/:id/checklist", c.addChecklistItem)
	acc.Post("/kanban_items/:id/checklist/:item/toggle", c.toggleChecklistItem)
	acc.Post("/kanban_items/:id/checklist/:item/delete", c.deleteChecklistItem)
	acc.Post("/kanban_items/:id/notes", c.addNote)
	acc.Post("/kanban_items/:id/notes/:note/delete", c.deleteNote)
	acc.Post("/kanban_items/:id/checklist/:item/edit", c.editChecklistItem)
	acc.Post("/kanban_items/:id/notes/:note/edit", c.editNote)
	acc.Post("/kanban_items/:id/reply", c.replyToCard)
	// After every page: what no page answers gets the console's 404 page.
	app.Get("/app/*", unknownPage)
}

func render(c *fiber.Ctx, status int, comp templ.Component) error {
	c.Status(status).Type("html", "utf-8")
	return comp.Render(c.UserContext(), c.Response().BodyWriter())
}

// loginPage shows the sign-in form or, given a platform-minted single
// sign-on token (Chatwoot's link shape), exchanges it once for a session.
func (c *Console) loginPage(ctx *fiber.Ctx) error {
	if token := ctx.Query("sso_auth_token"); token != "" {
		return c.signInWithLink(ctx, token)
	}
	return render(ctx, fiber.StatusOK, views.Login("", ""))
}

func (c *Console) signInWithLink(ctx *fiber.Ctx, token string) error {
	in, err := c.svc.RedeemSignInLink(ctx.UserContext(), token)
	if err != nil {
		ae := apperr.From(err)
		if ae.Kind == apperr.KindInternal {
			return err
		}
		return render(ctx, fiber.StatusUnauthorized, views.Login(ctx.Query("email"), ae.Message))
	}
	c.setSessionCookie(ctx, in)
	return ctx.Redirect("/app", fiber.StatusSeeOther)
}

func (c *Console) setSessionCookie(ctx *fiber.Ctx, in accounts.ConsoleSignIn) {
	ctx.Cookie(&fiber.Cookie{
		Name: sessionCookie, Value: in.Token, Path: "/", HTTPOnly: true, SameSite: "Lax",
		Secure: c.secureCookie || ctx.Protocol() == "https", Expires: in.ExpiresAt,
	})
}

// login signs in; a throttled client sees the wait on the form (429 with
// Retry-After).
func (c *Console) login(ctx *fiber.Ctx) error {
	email := ctx.FormValue("email")
	in, err := c.svc.StartSession(ctx.UserContext(), ctx.IP(), email, ctx.FormValue("password"))
	if err != nil {
		ae := apperr.From(err)
		status := fiber.StatusUnauthorized
		switch ae.Kind {
		case apperr.KindTooManyRequests:
			status = fiber.StatusTooManyRequests
			ctx.Set(fiber.HeaderRetryAfter, strconv.Itoa(throttle.Seconds(ae.RetryAfter)))
		case apperr.KindInternal:
			return err
		}
		return render(ctx, status, views.Login(email, ae.Message))
	}
	c.setSessionCookie(ctx, in)
	return ctx.Redirect("/app", fiber.StatusSeeOther)
}

func (c *Console) logout(ctx *fiber.Ctx) error {
	if tok := ctx.Cookies(sessionCookie); tok != "" {
		if err := c.svc.EndSession(ctx.UserContext(), tok); err != nil {
			return err
		}
	}
	ctx.ClearCookie(sessionCookie)
	return ctx.Redirect("/app/login", fiber.StatusSeeOther)
}

// home sends a signed-in user to its first account.
func (c *Console) home(ctx *fiber.Ctx) error {
	v, err := c.svc.SessionViewer(ctx.UserContext(), ctx.Cookies(sessionCookie), 0)
	if err != nil {
		return ctx.Redirect("/app/login", fiber.StatusSeeOther)
	}
	return ctx.Redirect(views.AccountURL(v.AccountID, "contacts"), fiber.StatusSeeOther)
}

// requireSession authenticates the session cookie for the account in the
// path; without a live session the browser goes to the sign-in page, and
// the console's scripts are refused (401 with the reason; see fromScript).
func (c *Console) requireSession(ctx *fiber.Ctx) error {
	accountID, err := strconv.Atoi(ctx.Params("account_id"))
	if err != nil {
		return apperr.NotFound("Account")
	}
	v, err := c.svc.SessionViewer(ctx.UserContext(), ctx.Cookies(sessionCookie), accountID)
	var ae *apperr.Error
	if errors.As(err, &ae) && ae.Kind == apperr.KindUnauthenticated {
		ctx.ClearCookie(sessionCookie)
		if fromScript(ctx) {
			return ae
		}
		return ctx.Redirect("/app/login", fiber.StatusSeeOther)
	}
	if err != nil {
		return err
	}
	ctx.SetUserContext(viewer.NewContext(ctx.UserContext(), v))
	return ctx.Next()
}

// noStore keeps the account's pages out of the browser's caches: they show
// private conversations, and Back after signing out drew them from there.
func noStore(ctx *fiber.Ctx) error {
	ctx.Set(fiber.HeaderCacheControl, "no-store")
	return ctx.Next()
}

// scriptHeader is what the console's scripts send with each fetch
// (static/session.js); its value is scriptHeaderValue.
const (
	scriptHeader      = "X-Requested-With"
	scriptHeaderValue = "fetch"
)

// fromScript reports whether one of the console's scripts made the request.
// It needs a refusal it can show: fetch follows a redirect to the sign-in
// page silently and hands the script a 200 sign-in form, which it would
// take for success. A header of our own is used rather than Sec-Fetch-Mode,
// which browsers send only to https and localhost origins.
func fromScript(ctx *fiber.Ctx) bool {
	return ctx.Get(scriptHeader) == scriptHeaderValue
}

// nav describes the signed-in viewer for the page frame: the user's own
// profile (GET /profile's operation) names their accounts, for the switcher.
func (c *Console) nav(ctx *fiber.Ctx) (views.Nav, error) {
	v, _ := viewer.FromContext(ctx.UserContext())
	u, err := c.svc.Profile(ctx.UserContext())
	if err != nil {
		return views.Nav{}, err
	}
	n := views.Nav{AccountID: v.AccountID, UserName: u.Name, Admin: v.IsAdmin(), Section: consoleSection(ctx.Path())}
	for _, m := range u.Edges.Memberships {
		if m.Edges.Account == nil {
			continue
		}
		if m.AccountID == v.AccountID {
			n.AccountName, n.Locale = m.Edges.Account.Name, m.Edges.Account.Locale
		}
		n.Accounts = append(n.Accounts, views.AccountLink{ID: m.AccountID, Name: m.Edges.Account.Name})
	}
	sort.Slice(n.Accounts, func(i, j int) bool { return n.Accounts[i].Name < n.Accounts[j].Name })
	return n, nil
}

// consoleSection is the screen a console path is on (funnels, reports...):
// the account switcher opens the same screen in the other account; paths
// below it name the first account's records, which the other does not hold.
func consoleSection(path string) string {
	parts := strings.Split(strings.TrimPrefix(path, "/app/accounts/"), "/")
	if len(parts) < 2 {
		return ""
	}
	return parts[1]
}

// mayFollow tells a live socket opened by viewer opened whether it may
// still follow the page: the session holds, its user is still a member of
// the account with the same role (an agent removed from it would otherwise
// go on hearing of its changes, and the page's filter judges as opened),
// and still, if any, admits the viewer as it is now. A check that fails
// otherwise (the database) counts as allowed, as the next ping checks
// again.
func (c *Console) mayFollow(token string, opened viewer.Viewer, still func(context.Context) error) bool {
	v, err := c.svc.SessionLive(c.ctx, token, opened.AccountID)
	if err == nil && !v.SameAccess(opened) {
		return false
	}
	if err == nil && still != nil {
		err = still(viewer.NewContext(c.ctx, v))
	}
	if err == nil {
		return true
	}
	switch apperr.From(err).Kind {
	case apperr.KindUnauthenticated, apperr.KindForbidden, apperr.KindNotFound:
		return false
	}
	if c.ctx.Err() == nil { // at shutdown the socket is closing anyway
		slog.Warn("live page: checking the viewer failed", "err", err)
	}
	return true
}

// inboxesWorked answers whether viewer v works in an inbox (WorksIn),
// remembering each answer for workedFor: a burst of schedule events would
// otherwise ask the database once an event and socket. mayFollow closes
// the socket when v's role changes; an inbox membership changed meanwhile
// shows within workedFor. For one goroutine (a socket's).
func (c *Console) inboxesWorked(v viewer.Viewer) func(inboxID int) bool {
	ctx := viewer.NewContext(c.ctx, v)
	known, since := map[int]bool{}, time.Now()
	return func(inboxID int) bool {
		if time.Since(since) > workedFor {
			known, since = map[int]bool{}, time.Now()
		}
		works, ok := known[inboxID]
		if !ok {
			works = c.svc.WorksIn(ctx, inboxID)
			known[inboxID] = works
		}
		return works
	}
}

// workedFor is how long inboxesWorked trusts an answer.
const workedFor = 30 * time.Second
