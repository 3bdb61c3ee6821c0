package core

import "github.com/prometheus/client_golang/prometheus"

// cacheStats is what the metrics read of a Cache.
type cacheStats interface {
	stats() (name string, hits, misses, forgets uint64, entries int)
}

func (c *Cache[K, V]) stats() (string, uint64, uint64, uint64, int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.name, c.hits, c.misses, c.forgets, len(c.entries)
}

// CacheCollector is the Prometheus metrics of the caches made over c, by
// name: lookups answered from memory and not, times it forgot entries (a
// change forgets at its write and again at its commit), and entries held. An operator sees from them whether a cache earns its
// keep (a page forgotten at every post hardly does).
func CacheCollector(c *Core) prometheus.Collector { return cacheCollector{caches: c.caches} }

type cacheCollector struct{ caches []cacheStats }

var (
	cacheLookups = prometheus.NewDesc("switchboard_cache_lookups_total",
		"Lookups of a cache, by whether they were answered from memory (hit) or read (miss).", []string{"cache", "result"}, nil)
	cacheForgets = prometheus.NewDesc("switchboard_cache_forgets_total",
		"Times a cache forgot entries (all of them, or one account's): at each write of something it holds, again when the write's transaction ends, and at each change another instance announces.", []string{"cache"}, nil)
	cacheEntries = prometheus.NewDesc("switchboard_cache_entries",
		"Entries a cache holds now.", []string{"cache"}, nil)
)

func (cacheCollector) Describe(ch chan<- *prometheus.Desc) {
	ch <- cacheLookups
	ch <- cacheForgets
	ch <- cacheEntries
}

func (cc cacheCollector) Collect(ch chan<- prometheus.Metric) {
	for _, c := range cc.caches {
		name, hits, misses, forgets, entries := c.stats()
		ch <- prometheus.MustNewConstMetric(cacheLookups, prometheus.CounterValue, float64(hits), name, "hit")
		ch <- prometheus.MustNewConstMetric(cacheLookups, prometheus.CounterValue, float64(misses), name, "miss")
		ch <- prometheus.MustNewConstMetric(cacheForgets, prometheus.CounterValue, float64(forgets), name)
		ch <- prometheus.MustNewConstMetric(cacheEntries, prometheus.GaugeValue, float64(entries), name)
	}
}
