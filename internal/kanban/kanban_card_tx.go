package kanban

import (
	"context"
	"errors"
	"math/rand/v2"
	"time"

	"github.com/lib/pq"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/internal/apperr"
	"github.com/switchboard/switchboard/internal/core"
)

// errCardsMoved says a card changed funnel between being read and its
// funnel being locked. The transaction is then retried from the start
// rather than locking one more funnel: a transaction takes all its funnel
// locks at once, in id order, so two of them never wait on each other.
var errCardsMoved = errors.New("a card moved to another funnel while its funnel was being locked")

// cardTx runs fn in a transaction, retrying it from the start when its
// cards moved under it or PostgreSQL broke a deadlock by aborting it. A
// retry waits a random moment first, longer each time: retried at once,
// transactions that collided collide again (eight clients carrying the same
// cards between two funnels ran out of five immediate attempts).
func (s *Service) cardTx(ctx context.Context, fn func(ctx context.Context, c *ent.Client) error) error {
	for attempt := 1; ; attempt++ {
		err := s.InTx(ctx, fn)
		if err == nil || !retryableTx(err) {
			return err
		}
		if attempt == maxCardTxAttempts || ent.TxFromContext(ctx) != nil {
			return apperr.Conflict("The cards kept changing while this request ran; try again")
		}
		// A random wait, up to attempt × 20 ms.
		if !core.Sleep(ctx, rand.N(time.Duration(attempt)*20*time.Millisecond)) {
			return ctx.Err()
		}
	}
}

// maxCardTxAttempts bounds cardTx's attempts; with its random waits the
// last starts at most about half a second after the first.
const maxCardTxAttempts = 8

func retryableTx(err error) bool {
	var pqErr *pq.Error
	return errors.Is(err, errCardsMoved) || (errors.As(err, &pqErr) && pqErr.Code == "40P01")
}
