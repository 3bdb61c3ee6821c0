package jobs

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// Outcomes of a job, as switchboard_job_outcomes_total counts them.
const (
	outcomeDone     = "done"     // ran (a schedule fired, a delivery accepted)
	outcomeRetrying = "retrying" // an attempt failed (a delivery, an automation run); another is due
	outcomeFailed   = "failed"   // a delivery failed for good, or an automation run was dropped
	outcomeError    = "error"    // the job itself failed; its row is due again
)

var (
	dueDesc = prometheus.NewDesc("switchboard_jobs_due",
		"Jobs due and not claimed, by kind (the queue).", []string{"kind"}, nil)
	latenessDesc = prometheus.NewDesc("switchboard_jobs_lateness_seconds",
		"How long the oldest due, unclaimed job of each kind has been waiting (0: none).", []string{"kind"}, nil)
	runningDesc = prometheus.NewDesc("switchboard_jobs_running",
		"Jobs this instance runs now, by kind.", []string{"kind"}, nil)
	firingTurnDesc = prometheus.NewDesc("switchboard_jobs_firing_turn",
		"1 when this instance fires the due schedules (it holds the firing turn; always on SQLite), 0 when it fires only those late past the backstop.", nil, nil)
)

// metrics is the runner's part of the Prometheus registry.
type metrics struct {
	r        *Runner
	outcomes *prometheus.CounterVec
}

func newMetrics(r *Runner) *metrics {
	return &metrics{r: r, outcomes: prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "switchboard_job_outcomes_total",
		Help: "Jobs run by this instance, by kind and outcome (done, retrying, failed, error).",
	}, []string{"kind", "outcome"})}
}

// Collector is the runner's metrics, to register with the server's registry.
func (r *Runner) Collector() prometheus.Collector { return r.metrics }

func (r *Runner) outcome(table, outcome string) {
	r.metrics.outcomes.WithLabelValues(table, outcome).Inc()
}

func (m *metrics) Describe(ch chan<- *prometheus.Desc) {
	ch <- dueDesc
	ch <- latenessDesc
	ch <- runningDesc
	ch <- firingTurnDesc
	m.outcomes.Describe(ch)
}

// Collect reads the queues from the database at scrape time: they are
// shared by every instance, so any instance reports them whole.
func (m *metrics) Collect(ch chan<- prometheus.Metric) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	now := m.r.now()
	for _, k := range m.r.kinds {
		due, oldest, err := m.r.queue(ctx, k, now)
		if err != nil {
			slog.Warn("reading the job queue for metrics", "table", k.table, "err", err)
			continue
		}
		lateness := 0.0
		if due > 0 {
			lateness = now.Sub(oldest).Seconds()
		}
		ch <- prometheus.MustNewConstMetric(dueDesc, prometheus.GaugeValue, float64(due), k.table)
		ch <- prometheus.MustNewConstMetric(latenessDesc, prometheus.GaugeValue, lateness, k.table)
		ch <- prometheus.MustNewConstMetric(runningDesc, prometheus.GaugeValue, float64(m.r.inflight.running(k)), k.table)
	}
	turn := 0.0
	if m.r.turn.held() {
		turn = 1
	}
	ch <- prometheus.MustNewConstMetric(firingTurnDesc, prometheus.GaugeValue, turn)
	m.outcomes.Collect(ch)
}

// queue counts k's due, unclaimed rows and finds the oldest one's due time.
func (r *Runner) queue(ctx context.Context, k kind, now time.Time) (int, time.Time, error) {
	ph := placeholders(r.db.Dialect)
	var n int
	q := fmt.Sprintf(`SELECT COUNT(*) FROM %[1]s c WHERE c.%[2]s <= %[3]s`, k.table, k.dueColumn, ph(1))
	if err := r.db.SQL.QueryRowContext(ctx, q, now).Scan(&n); err != nil || n == 0 {
		return 0, time.Time{}, err
	}
	// Not MIN(): SQLite's aggregate loses the column's time type.
	var oldest time.Time
	q = fmt.Sprintf(`SELECT c.%[2]s FROM %[1]s c WHERE c.%[2]s <= %[3]s ORDER BY c.%[2]s LIMIT 1`, k.table, k.dueColumn, ph(1))
	err := r.db.SQL.QueryRowContext(ctx, q, now).Scan(&oldest)
	return n, oldest, err
}
