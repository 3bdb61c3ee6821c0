package main

import (
	"strconv"
	"time"

	"github.com/valyala/fasthttp"
)

// requestTimeout bounds one request of a driver or of the seeding.
const requestTimeout = 30 * time.Second

// newClient is the drivers' HTTP client: fasthttp's, which Fiber already
// brings, because the load generator shares the machine's two cores with the
// server and the database. net/http's client took a fifth of the process's
// CPU on GET /contacts/{id} (its connection's reader and writer goroutines,
// a request and a header map each time), and every figure of the route paid
// for it; the first figures came from wrk, a client of about
// fasthttp's weight.
//
// A connection a client (-c) up to maxConns; past that, a request waits for a
// free one rather than failing as fasthttp's client does by default.
func newClient() *fasthttp.Client {
	return &fasthttp.Client{MaxConnsPerHost: maxConns, MaxConnWaitTimeout: requestTimeout,
		ReadTimeout: requestTimeout, WriteTimeout: requestTimeout}
}

// maxConns bounds the connections the drivers open to the server.
const maxConns = 1024

// do sends one request with the account's token and hands the answer's
// status and body to read, before the body's buffer is reused. fasthttp's
// client takes no context: requestTimeout bounds a request, and the drivers
// start none after their deadline.
func (w *world) do(method, url string, body []byte, read func(status int, body []byte) error) error {
	req, res := fasthttp.AcquireRequest(), fasthttp.AcquireResponse()
	defer fasthttp.ReleaseRequest(req)
	defer fasthttp.ReleaseResponse(res)
	req.SetRequestURI(url)
	req.Header.SetMethod(method)
	req.Header.Set("api_access_token", w.token)
	req.Header.Set("X-Account-Id", strconv.Itoa(w.accountID))
	if body != nil {
		req.Header.SetContentType("application/json")
		req.SetBody(body)
	}
	if err := w.client.DoTimeout(req, res, requestTimeout); err != nil {
		return err
	}
	return read(res.StatusCode(), res.Body())
}
