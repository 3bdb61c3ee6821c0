package mailin

import "github.com/prometheus/client_golang/prometheus"

// metrics is the fetcher's part of the Prometheus registry.
type metrics struct {
	mails   *prometheus.CounterVec
	errors  prometheus.Counter
	inboxes prometheus.Gauge
	leases  *prometheus.CounterVec
	held    prometheus.Gauge
}

func newMetrics() *metrics {
	return &metrics{
		mails: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "switchboard_mail_fetched_total",
			Help: "Mails this instance fetched over IMAP, by outcome (stored, duplicate: stored before, skipped).",
		}, []string{"outcome"}),
		errors: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "switchboard_mail_fetch_errors_total",
			Help: "IMAP sessions of this instance that failed (connection, login, fetch or storing errors); each is retried with backoff.",
		}),
		inboxes: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "switchboard_mail_inboxes",
			Help: "E-mail inboxes with IMAP enabled that this instance watches (it fetches those whose lease it holds).",
		}),
		leases: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "switchboard_mail_lease_total",
			Help: "Tries of this instance to take a mailbox's lease, by outcome (taken; refused: another instance holds it; lost: taken over or not renewed in time).",
		}, []string{"outcome"}),
		held: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "switchboard_mail_leases_held",
			Help: "Mailboxes whose lease this instance holds (it alone connects to them).",
		}),
	}
}

// Collectors are the fetcher's metrics, to register with the server's
// registry.
func (f *Fetcher) Collectors() []prometheus.Collector {
	return []prometheus.Collector{f.metrics.mails, f.metrics.errors, f.metrics.inboxes, f.metrics.leases, f.metrics.held}
}
