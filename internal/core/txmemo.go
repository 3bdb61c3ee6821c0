package core

import (
	"context"
	"sync"

	"github.com/switchboard/switchboard/ent"
)

// TxMemo returns what load returns, loaded once per transaction for key:
// a batch of firings or of delivery records emits many events in one
// transaction, and each would read the same rows again (an account's
// webhook subscriptions). Outside a transaction it loads every time. The
// memo ends with the transaction; keys name what they hold, and what a
// transaction changes itself must not be read through it.
func (s *Core) TxMemo(ctx context.Context, key any, load func() (any, error)) (any, error) {
	tx := ent.TxFromContext(ctx)
	if tx == nil {
		return load()
	}
	memo := s.txMemo(tx)
	if v, ok := memo.Load(key); ok {
		return v, nil
	}
	v, err := load()
	if err != nil {
		return nil, err
	}
	memo.Store(key, v)
	return v, nil
}

// txMemo is tx's memo, made (with the hooks that drop it when tx ends) on
// first use.
func (s *Core) txMemo(tx *ent.Tx) *sync.Map {
	if m, ok := s.memos.Load(tx); ok {
		return m.(*sync.Map)
	}
	m, loaded := s.memos.LoadOrStore(tx, &sync.Map{})
	if loaded {
		return m.(*sync.Map)
	}
	tx.OnCommit(func(next ent.Committer) ent.Committer {
		return ent.CommitFunc(func(ctx context.Context, tx *ent.Tx) error {
			s.memos.Delete(tx)
			return next.Commit(ctx, tx)
		})
	})
	tx.OnRollback(func(next ent.Rollbacker) ent.Rollbacker {
		return ent.RollbackFunc(func(ctx context.Context, tx *ent.Tx) error {
			s.memos.Delete(tx)
			return next.Rollback(ctx, tx)
		})
	})
	return m.(*sync.Map)
}
