package core

// Waiting is how many misses of k joined a read under way.
func (c *Cache[K, V]) Waiting(k K) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := 0
	for key, f := range c.flights {
		if key.k == k {
			n += f.waiting
		}
	}
	return n
}

// OutsideTenancy is outsideTenancy.
var OutsideTenancy = outsideTenancy
