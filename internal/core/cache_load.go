package core

import "errors"

// Load gives k's value from memory, or reads it with read and keeps it
// (unless CacheOptions.Keep refuses it).
// Misses of k in one generation wait for one read rather than each reading:
// when a change forgets a page that many read, they all miss at once. A
// read is given only to those who missed in its generation, so nobody who
// asks after a change is given what was read before it.
func (c *Cache[K, V]) Load(k K, read func() (V, error)) (V, error) {
	c.mu.Lock()
	if v, ok := c.fresh(k); ok {
		c.mu.Unlock()
		return v, nil
	}
	key := flightKey[K]{k: k, gen: c.genOf(k)}
	if f, ok := c.flights[key]; ok {
		f.waiting++
		c.mu.Unlock()
		<-f.done
		if f.err != nil {
			// The read failed for its own caller (who may have gone away,
			// cancelling it): read for this one.
			return read()
		}
		return f.v, nil
	}
	f := &flight[V]{done: make(chan struct{}), err: errNotRead}
	c.flights[key] = f
	c.mu.Unlock()

	defer func() {
		c.mu.Lock()
		delete(c.flights, key)
		c.mu.Unlock()
		close(f.done)
	}()
	f.v, f.err = read()
	if f.err == nil && (c.keep == nil || c.keep(f.v)) {
		c.Put(k, f.v, key.gen)
	}
	return f.v, f.err
}

// errNotRead is a flight's error until its read returns (it panicked).
var errNotRead = errors.New("the shared read did not return")

// flightKey is a key's read in one generation.
type flightKey[K comparable] struct {
	k   K
	gen uint64
}

// flight is a read others may wait for.
type flight[V any] struct {
	done    chan struct{}
	v       V
	err     error
	waiting int // the misses that joined it (tests wait for them)
}
