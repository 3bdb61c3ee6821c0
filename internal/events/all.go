package events

// ListenAll calls f with every event delivered to this instance, of every
// account, until cancel is called: with a relay, those of every instance on
// the database. The job runner wakes on them, since a change elsewhere may
// have made work due. f runs inside Deliver, so it must be quick and must
// not publish.
func (h *Hub) ListenAll(f func(Event)) (cancel func()) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.all == nil {
		h.all = map[*func(Event)]struct{}{}
	}
	key := &f
	h.all[key] = struct{}{}
	return func() {
		h.mu.Lock()
		defer h.mu.Unlock()
		delete(h.all, key)
	}
}
