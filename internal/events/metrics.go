package events

import "github.com/prometheus/client_golang/prometheus"

// Collectors are the hub's Prometheus metrics: how often live listeners had
// to resync, and why.
func Collectors(h *Hub) []prometheus.Collector {
	return []prometheus.Collector{
		prometheus.NewCounterFunc(prometheus.CounterOpts{
			Name: "switchboard_live_listeners_dropped_total",
			Help: "Live listeners (subscriptions, console boards) dropped for falling behind; they resync.",
		}, func() float64 { return float64(h.Dropped()) }),
		prometheus.NewCounterFunc(prometheus.CounterOpts{
			Name: "switchboard_live_event_gaps_total",
			Help: "Times this instance may have missed other instances' events (its LISTEN connection was re-established).",
		}, func() float64 { return float64(h.Gaps()) }),
	}
}
