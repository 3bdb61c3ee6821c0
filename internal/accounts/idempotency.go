package accounts

import (
	"context"
	"time"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/ent/idempotencykey"
	"github.com/switchboard/switchboard/internal/apperr"
	"github.com/switchboard/switchboard/internal/core"
	"github.com/switchboard/switchboard/internal/viewer"
)

// Idempotency keys follow Stripe: a key belongs to one user (in one
// account; the platform has its own space), is kept IdempotencyTTL, and
// names one request (method, path, body). A concurrent request with a key
// still in flight gets 409 Conflict rather than waiting: its client retries
// and then gets the replay. A first request that vanished (the process
// died) frees its key after idempotencyLease.
const (
	IdempotencyTTL   = 24 * time.Hour
	idempotencyLease = 5 * time.Minute
	maxIdempotentKey = 255
)

// IdempotentRequest is a request sent with an Idempotency-Key header.
type IdempotentRequest struct {
	Key string
	// Request is the method and path; BodyHash identifies the body.
	Request  string
	BodyHash string
}

// IdempotentResponse is a stored response.
type IdempotentResponse struct {
	Status      int
	ContentType string
	Body        []byte
}

// IdempotencyClaim is a key this request holds: Finish it with the
// response, or Release it when there is none worth replaying.
type IdempotencyClaim struct{ id int }

// BeginIdempotent claims in.Key for the viewer of ctx. It returns the
// claim when this request is the first with the key, or the stored response
// to replay. The same key on another request is invalid (422); a key whose
// first request is still running is a conflict (409).
func (s *Service) BeginIdempotent(ctx context.Context, in IdempotentRequest) (*IdempotencyClaim, *IdempotentResponse, error) {
	if len(in.Key) > maxIdempotentKey {
		return nil, nil, apperr.Invalidf("Idempotency-Key", "Idempotency-Key is too long (at most %d characters)", maxIdempotentKey)
	}
	v, _ := viewer.FromContext(ctx)
	sys := core.AsIdempotencyRecord(ctx)
	c := s.Client(ctx)
	now := s.Now()
	if _, err := c.IdempotencyKey.Delete().Where(idempotencykey.CreatedAtLTE(now.Add(-IdempotencyTTL))).Exec(sys); err != nil {
		return nil, nil, err
	}
	for attempt := 0; ; attempt++ {
		row, err := c.IdempotencyKey.Create().SetAccountID(v.AccountID).SetUserID(v.UserID).SetKey(in.Key).
			SetRequest(in.Request).SetBodyHash(in.BodyHash).SetCreatedAt(now).SetUpdatedAt(now).Save(sys)
		if err == nil {
			return &IdempotencyClaim{id: row.ID}, nil, nil
		}
		if !ent.IsConstraintError(err) {
			return nil, nil, err
		}
		prior, err := c.IdempotencyKey.Query().Where(idempotencykey.AccountID(v.AccountID),
			idempotencykey.UserID(v.UserID), idempotencykey.Key(in.Key)).Only(sys)
		if ent.IsNotFound(err) && attempt == 0 {
			continue // released or purged in between
		}
		if ent.IsNotFound(err) {
			return nil, nil, inFlight()
		}
		if err != nil {
			return nil, nil, err
		}
		if prior.Request != in.Request || prior.BodyHash != in.BodyHash {
			return nil, nil, apperr.Invalid("Idempotency-Key was already used with a different request: use a new key", "Idempotency-Key")
		}
		if prior.Status != 0 {
			return nil, &IdempotentResponse{Status: prior.Status, ContentType: prior.ContentType, Body: prior.ResponseBody}, nil
		}
		if attempt > 0 || now.Sub(prior.UpdatedAt) < idempotencyLease {
			return nil, nil, inFlight()
		}
		// Abandoned by a first request that never finished: take it over.
		if _, err := c.IdempotencyKey.Delete().Where(idempotencykey.ID(prior.ID), idempotencykey.Status(0)).Exec(sys); err != nil {
			return nil, nil, err
		}
	}
}

func inFlight() error {
	return apperr.Conflict("A request with this Idempotency-Key is still being processed: retry it later")
}

// FinishIdempotent stores the response of the claimed request.
func (s *Service) FinishIdempotent(ctx context.Context, claim *IdempotencyClaim, res IdempotentResponse) error {
	return s.Client(ctx).IdempotencyKey.UpdateOneID(claim.id).SetStatus(res.Status).
		SetContentType(res.ContentType).SetResponseBody(res.Body).SetUpdatedAt(s.Now()).
		Exec(core.AsIdempotencyRecord(ctx))
}

// ReleaseIdempotent frees the key of a request that failed on our side, so
// the client's retry runs again.
func (s *Service) ReleaseIdempotent(ctx context.Context, claim *IdempotencyClaim) error {
	_, err := s.Client(ctx).IdempotencyKey.Delete().
		Where(idempotencykey.ID(claim.id)).Exec(core.AsIdempotencyRecord(ctx))
	return err
}
