package mailin

import (
	"context"
	"crypto/tls"
	"errors"
	"net"
	"slices"
	"strconv"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/ent/schema/schematype"
	"github.com/switchboard/switchboard/internal/outbound"
)

// batchSize is how many new mails one round fetches the sizes of; the
// round repeats while there are more.
const batchSize = 50

// session is one connection to ib's mailbox: it logs in, selects INBOX
// (read-only: the service changes nothing in the mailbox), stores what is
// new and then waits for more (IDLE, or the poll interval) until ctx ends
// or the connection fails. connected is called once it got in.
func (f *Fetcher) session(ctx context.Context, ib *ent.Inbox, connected func()) error {
	cfg := ib.Channel.IMAP
	newMail := make(chan struct{}, 1)
	c, err := dial(ctx, cfg, &imapclient.Options{UnilateralDataHandler: &imapclient.UnilateralDataHandler{
		Mailbox: func(d *imapclient.UnilateralDataMailbox) {
			if d.NumMessages != nil {
				signal(newMail)
			}
		},
	}})
	if err != nil {
		return errorf("connecting", err)
	}
	defer c.Close()
	// Closing the connection ends whatever command is waiting.
	stop := context.AfterFunc(ctx, func() { _ = c.Close() })
	defer stop()
	sel, err := timed(c, func() (*imap.SelectData, error) {
		if err := c.Login(cfg.Login, cfg.Password).Wait(); err != nil {
			return nil, errorf("login", err)
		}
		return c.Select("INBOX", &imap.SelectOptions{ReadOnly: true}).Wait()
	})
	if err != nil {
		return err
	}
	cur, err := f.openCursor(ctx, ib.ID, sel.UIDValidity)
	if err != nil {
		return err
	}
	connected()
	for {
		if err := f.fetchNew(ctx, c, ib, cur); err != nil {
			return err
		}
		if cur.first && sel.UIDNext > 1 {
			// Everything before the mailbox's next UID has been looked at.
			if err := f.advance(ctx, ib.ID, cur, uint32(sel.UIDNext)-1); err != nil {
				return err
			}
		}
		cur.first = false
		if err := f.waitForMail(ctx, c, newMail); err != nil {
			return err
		}
	}
}

// dial connects under the outbound guard: implicit TLS with enable_ssl,
// plain text otherwise (as Chatwoot: STARTTLS is not tried).
func dial(ctx context.Context, cfg *schematype.IMAPConfig, opts *imapclient.Options) (*imapclient.Client, error) {
	port := cfg.Port
	if port == 0 {
		port = 143
		if cfg.EnableSSL {
			port = 993
		}
	}
	dctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	conn, err := outbound.Dial(dctx, net.JoinHostPort(cfg.Address, strconv.Itoa(port)))
	if err != nil {
		return nil, err
	}
	if cfg.EnableSSL {
		tc := tls.Client(conn, &tls.Config{ServerName: cfg.Address, MinVersion: tls.VersionTLS12})
		if err := tc.HandshakeContext(dctx); err != nil {
			_ = conn.Close()
			return nil, err
		}
		conn = tc
	}
	c := imapclient.New(conn, opts)
	if err := c.WaitGreeting(); err != nil {
		_ = c.Close()
		return nil, err
	}
	return c, nil
}

// timed runs one exchange with the server, closing the connection when it
// takes longer than commandTimeout (which fails the exchange).
func timed[T any](c *imapclient.Client, run func() (T, error)) (T, error) {
	t := time.AfterFunc(commandTimeout, func() { _ = c.Close() })
	defer t.Stop()
	return run()
}

// fetchNew stores the mails after the cursor, oldest first, advancing the
// cursor after each.
func (f *Fetcher) fetchNew(ctx context.Context, c *imapclient.Client, ib *ent.Inbox, cur *cursor) error {
	for {
		uids, err := timed(c, func() ([]imap.UID, error) { return f.newUIDs(c, cur) })
		if err != nil {
			return errorf("searching new mail", err)
		}
		if len(uids) == 0 {
			// Nothing after the cursor: the mailbox is handled up to it,
			// by this fetcher or by another instance sharing the cursor.
			f.seenUpTo(ib.ID, cur.last)
			return nil
		}
		sizes, err := timed(c, func() ([]*imapclient.FetchMessageBuffer, error) {
			return c.Fetch(imap.UIDSetNum(uids...), &imap.FetchOptions{UID: true, RFC822Size: true}).Collect()
		})
		if err != nil {
			return errorf("fetching sizes", err)
		}
		slices.SortFunc(sizes, func(a, b *imapclient.FetchMessageBuffer) int { return int(a.UID) - int(b.UID) })
		for _, m := range sizes {
			if err := f.fetchOne(ctx, c, ib, m.UID, m.RFC822Size); err != nil {
				return err
			}
			if err := f.advance(ctx, ib.ID, cur, uint32(m.UID)); err != nil {
				return err
			}
		}
		if len(uids) < batchSize {
			return nil
		}
	}
}

// seenUpTo raises what Seen answers for inbox to uid.
func (f *Fetcher) seenUpTo(inboxID int, uid uint32) {
	if uid > f.Seen(inboxID) {
		f.seen.Store(inboxID, uid)
	}
}

// newUIDs are the UIDs after the cursor (at most batchSize, oldest first);
// on a first sync, those of the mails received in the FirstSync window.
func (f *Fetcher) newUIDs(c *imapclient.Client, cur *cursor) ([]imap.UID, error) {
	var crit imap.SearchCriteria
	if cur.first {
		crit.Since = time.Now().Add(-f.opts.FirstSync)
	} else {
		var set imap.UIDSet
		set.AddRange(imap.UID(cur.last+1), 0) // last+1:*
		crit.UID = []imap.UIDSet{set}
	}
	data, err := c.UIDSearch(&crit, nil).Wait()
	if err != nil {
		return nil, err
	}
	set, ok := data.All.(imap.UIDSet)
	if !ok {
		return nil, nil
	}
	all, ok := set.Nums()
	if !ok {
		return nil, errors.New("the server answered a dynamic UID set")
	}
	// "n:*" always matches the last mail, even below n.
	all = slices.DeleteFunc(all, func(u imap.UID) bool { return uint32(u) <= cur.last })
	slices.Sort(all)
	return all[:min(len(all), batchSize)], nil
}

// maxRawBytes bounds one mail read into memory; a larger one is skipped
// (servers commonly refuse mail over 25 to 50 MB anyway).
const maxRawBytes = 64 << 20

// fetchOne reads one mail and stores it.
func (f *Fetcher) fetchOne(ctx context.Context, c *imapclient.Client, ib *ent.Inbox, uid imap.UID, size int64) error {
	if size > maxRawBytes {
		f.skip(ib, uid, "the mail is over 64 MiB")
		f.seen.Store(ib.ID, uint32(uid))
		return nil
	}
	body := &imap.FetchItemBodySection{Peek: true}
	bufs, err := timed(c, func() ([]*imapclient.FetchMessageBuffer, error) {
		return c.Fetch(imap.UIDSetNum(uid), &imap.FetchOptions{UID: true, BodySection: []*imap.FetchItemBodySection{body}}).Collect()
	})
	if err != nil {
		return errorf("fetching a mail", err)
	}
	if len(bufs) > 0 { // none: expunged meanwhile
		if err := f.receive(ctx, ib, uid, bufs[0].FindBodySection(body)); err != nil {
			return err
		}
	}
	f.seen.Store(ib.ID, uint32(uid))
	return nil
}

// waitForMail returns when the mailbox may have new mail: the server said
// so during IDLE, or the poll interval passed.
func (f *Fetcher) waitForMail(ctx context.Context, c *imapclient.Client, newMail chan struct{}) error {
	t := time.NewTimer(f.opts.PollInterval)
	defer t.Stop()
	if f.opts.PollOnly || !c.Caps().Has(imap.CapIdle) {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-c.Closed():
			return errors.New("the server closed the connection")
		case <-t.C:
			return nil
		}
	}
	idle, err := c.Idle()
	if err != nil {
		return errorf("idle", err)
	}
	select {
	case <-ctx.Done():
	case <-c.Closed():
	case <-newMail:
	case <-t.C:
	}
	if err := idle.Close(); err != nil {
		return errorf("idle", err)
	}
	if err := idle.Wait(); err != nil {
		return errorf("idle", err)
	}
	return ctx.Err()
}

func signal(ch chan struct{}) {
	select {
	case ch <- struct{}{}:
	default:
	}
}
