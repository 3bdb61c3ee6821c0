package main

// The local HTTP receiver the workers post to: it counts each delivery id
// (to catch a duplicate at the far end), notes per conversation whether a
// message arrived after a later one of the same conversation, and can hang
// for the conversations it is told to, like a receiver that never answers.

import (
	"encoding/json"
	"io"
	"net"
	"net/http"
	"sync"
)

type receiver struct {
	url string
	srv *http.Server

	mu         sync.Mutex
	got        map[int]int // delivery id -> times received
	lastSeq    map[int]int // conversation -> highest seq received so far
	inversions int
	hang       map[int]bool
}

func startReceiver() (*receiver, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	r := &receiver{url: "http://" + l.Addr().String() + "/hook"}
	r.reset(nil)
	r.srv = &http.Server{Handler: r}
	go r.srv.Serve(l)
	return r, nil
}

// reset clears the counts and sets the conversations whose requests hang.
func (r *receiver) reset(hang []int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.got, r.lastSeq, r.inversions = map[int]int{}, map[int]int{}, 0
	r.hang = map[int]bool{}
	for _, c := range hang {
		r.hang[c] = true
	}
}

func (r *receiver) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	var a deliverArgs
	raw, _ := io.ReadAll(io.LimitReader(req.Body, 1<<16))
	if err := json.Unmarshal(raw, &a); err != nil {
		http.Error(w, "bad body", http.StatusBadRequest)
		return
	}
	if r.hangs(a.Conv) {
		<-req.Context().Done() // until the sender gives up
		return
	}
	r.record(a)
	w.WriteHeader(http.StatusNoContent)
}

func (r *receiver) hangs(conv int) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.hang[conv]
}

func (r *receiver) record(a deliverArgs) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.got[a.ID]++
	last, seen := r.lastSeq[a.Conv]
	if seen && a.Seq < last {
		r.inversions++
	}
	if !seen || a.Seq > last {
		r.lastSeq[a.Conv] = a.Seq
	}
}

// tally is what the receiver saw: distinct ids, ids received more than
// once, and messages that arrived after a later one of their conversation.
func (r *receiver) tally() (distinct, duplicated, inversions int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, n := range r.got {
		if n > 1 {
			duplicated++
		}
	}
	return len(r.got), duplicated, r.inversions
}
