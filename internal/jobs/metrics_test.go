package jobs

import (
	"context"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/switchboard/switchboard/internal/apitest"
	"github.com/switchboard/switchboard/internal/ops"
	"github.com/switchboard/switchboard/internal/testdb"
	"github.com/switchboard/switchboard/internal/viewer"
)

// TestMetricsShowTheQueue: due jobs show as the queue's depth and the
// oldest one's lateness; once they have run, the queue is empty and the
// outcomes are counted.
func TestMetricsShowTheQueue(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		database := e.New(t)
		ctx := viewer.SystemContext(context.Background())
		seedDueMessages(t, ctx, database.Client, 3, 1) // due a second ago
		r := New(database, ops.New(database.Client), newChannels(), Options{})
		reg := prometheus.NewRegistry()
		reg.MustRegister(r.Collector())
		value := func(name, kind, outcome string) float64 {
			fams, err := reg.Gather()
			if err != nil {
				t.Fatal(err)
			}
			for _, f := range fams {
				for _, m := range f.GetMetric() {
					labels := map[string]string{}
					for _, l := range m.GetLabel() {
						labels[l.GetName()] = l.GetValue()
					}
					if f.GetName() == name && labels["kind"] == kind && labels["outcome"] == outcome {
						return m.GetGauge().GetValue() + m.GetCounter().GetValue()
					}
				}
			}
			return -1
		}
		if due := value("switchboard_jobs_due", "messages", ""); due != 3 {
			t.Errorf("switchboard_jobs_due{kind=messages} = %v, want 3", due)
		}
		if late := value("switchboard_jobs_lateness_seconds", "messages", ""); late < 1 || late > 60 {
			t.Errorf("switchboard_jobs_lateness_seconds{kind=messages} = %v, want the second or so they waited", late)
		}
		runCtx, stop := context.WithCancel(context.Background())
		r.Start(runCtx)
		t.Cleanup(func() { stop(); r.Wait() })
		apitest.Eventually(t, 10*time.Second, "the messages delivered", func() bool {
			return value("switchboard_job_outcomes_total", "messages", outcomeDone) == 3
		})
		if due := value("switchboard_jobs_due", "messages", ""); due != 0 {
			t.Errorf("after the run switchboard_jobs_due{kind=messages} = %v, want 0", due)
		}
	})
}
