package apitest

import (
	"context"
	"testing"
	"time"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/ent/message"
	"github.com/switchboard/switchboard/internal/viewer"
)

// FailMessage marks message id failed once its delivery (if any) is over,
// so the job runner does not overwrite the status: a failed message to
// retry in a scenario.
func FailMessage(t testing.TB, c *ent.Client, id int) {
	t.Helper()
	ctx := viewer.SystemContext(context.Background())
	deadline := time.Now().Add(10 * time.Second)
	for c.Message.GetX(ctx, id).NextDeliveryAt != nil {
		if time.Now().After(deadline) {
			t.Fatalf("message %d is still being delivered", id)
		}
		time.Sleep(10 * time.Millisecond) // a poll interval, with a deadline
	}
	c.Message.UpdateOneID(id).SetStatus(message.StatusFailed).ExecX(ctx)
}
