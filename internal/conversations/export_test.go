package conversations

// HoldFirstMessages keeps new customers' first messages waiting, as if a
// batch were being stored, until the function it answers is called: the
// tests then see every message that arrived meanwhile stored together.
func (s *Service) HoldFirstMessages() (letGo func()) {
	s.firsts.mu.Lock()
	s.firsts.leading = true
	s.firsts.mu.Unlock()
	return s.firsts.handOff
}

// WaitingFirstMessages is how many first messages wait to be stored.
func (s *Service) WaitingFirstMessages() int {
	s.firsts.mu.Lock()
	defer s.firsts.mu.Unlock()
	return len(s.firsts.pending)
}
