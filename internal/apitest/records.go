package apitest

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/ent/message"
)

// FailMessage marks message id failed once its delivery (if any) is over,
// so the job runner does not overwrite the status: the state a manual retry
// starts from. ctx must be allowed to read and write the message (the
// caller's system viewer: the test, not this package, steps past the
// rules).
func FailMessage(t testing.TB, ctx context.Context, c *ent.Client, id int) {
	t.Helper()
	Eventually(t, 10*time.Second, fmt.Sprintf("message %d's delivery to end", id), func() bool {
		return c.Message.GetX(ctx, id).NextDeliveryAt == nil
	})
	c.Message.UpdateOneID(id).SetStatus(message.StatusFailed).ExecX(ctx)
}
