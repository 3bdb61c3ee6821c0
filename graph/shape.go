package graph

import (
	"strings"

	"github.com/vektah/gqlparser/v2/ast"
)

// shape measures a parsed but not yet validated document: its depth and
// its repeated fields. Fragments are followed by name; a fragment spread in
// a cycle (which validation refuses later) counts as nothing here, and each
// fragment's depth is computed once, so spreads that double at every level
// cost no more than the text they are written in.
type shape struct {
	fragments map[string]*ast.FragmentDefinition
	depth     map[string]int
	fields    map[string]int // fields a fragment expands to, capped
	visiting  map[string]bool
	doc       *ast.QueryDocument
}

func newShape(doc *ast.QueryDocument) *shape {
	s := &shape{fragments: map[string]*ast.FragmentDefinition{}, depth: map[string]int{}, fields: map[string]int{}, visiting: map[string]bool{}, doc: doc}
	for _, f := range doc.Fragments {
		if _, ok := s.fragments[f.Name]; !ok {
			s.fragments[f.Name] = f
		}
	}
	return s
}

// introspective fields are bounded by gqlparser's own introspection depth
// rule and by the schema's size, not by these limits.
func introspective(name string) bool { return strings.HasPrefix(name, "__") }

func (s *shape) maxDepth() int {
	d := 0
	for _, op := range s.doc.Operations {
		d = max(d, s.setDepth(op.SelectionSet))
	}
	return d
}

func (s *shape) setDepth(set ast.SelectionSet) int {
	d := 0
	for _, sel := range set {
		switch x := sel.(type) {
		case *ast.Field:
			if !introspective(x.Name) {
				d = max(d, 1+s.setDepth(x.SelectionSet))
			}
		case *ast.InlineFragment:
			d = max(d, s.setDepth(x.SelectionSet))
		case *ast.FragmentSpread:
			d = max(d, s.fragmentDepth(x.Name))
		}
	}
	return d
}

func (s *shape) fragmentDepth(name string) int {
	if d, ok := s.depth[name]; ok {
		return d
	}
	f := s.fragments[name]
	if f == nil || s.visiting[name] {
		return 0
	}
	s.visiting[name] = true
	d := s.setDepth(f.SelectionSet)
	delete(s.visiting, name)
	s.depth[name] = d
	return d
}

// maxRepeat finds a response name selected more than limit times in one
// selection set (merging inline fragments and fragment spreads, as
// validation does), and how often; it stops counting past limit.
func (s *shape) maxRepeat(limit int) (string, int) {
	var sets []ast.SelectionSet
	var collect func(ast.SelectionSet)
	collect = func(set ast.SelectionSet) {
		sets = append(sets, set)
		for _, sel := range set {
			switch x := sel.(type) {
			case *ast.Field:
				if len(x.SelectionSet) > 0 {
					collect(x.SelectionSet)
				}
			case *ast.InlineFragment:
				collect(x.SelectionSet)
			}
		}
	}
	for _, op := range s.doc.Operations {
		collect(op.SelectionSet)
	}
	for _, f := range s.doc.Fragments {
		collect(f.SelectionSet)
	}
	for _, set := range sets {
		counts := map[string]int{}
		if name, n := s.countNames(set, counts, map[string]bool{}, limit); n > limit {
			return name, n
		}
	}
	return "", 0
}

// countNames adds the response names of set to counts, through fragments,
// and returns the first name to pass limit. It returns as soon as one
// does, so a fragment spread many times over is expanded at most limit
// times per name.
func (s *shape) countNames(set ast.SelectionSet, counts map[string]int, visiting map[string]bool, limit int) (string, int) {
	for _, sel := range set {
		switch x := sel.(type) {
		case *ast.Field:
			name := x.Alias
			if name == "" {
				name = x.Name
			}
			counts[name]++
			if counts[name] > limit {
				return name, counts[name]
			}
		case *ast.InlineFragment:
			if name, n := s.countNames(x.SelectionSet, counts, visiting, limit); n > limit {
				return name, n
			}
		case *ast.FragmentSpread:
			f := s.fragments[x.Name]
			if f == nil || visiting[x.Name] || s.fragmentFields(x.Name) == 0 {
				continue // adds no name: skipped, so expanding it costs nothing
			}
			visiting[x.Name] = true
			name, n := s.countNames(f.SelectionSet, counts, visiting, limit)
			delete(visiting, x.Name)
			if n > limit {
				return name, n
			}
		}
	}
	return "", 0
}

// fieldsCap bounds fragmentFields: any positive count will do to know a
// fragment adds names.
const fieldsCap = 1 << 20

// fragmentFields is how many fields a fragment expands to (0 for one that
// only spreads missing or cyclic fragments), computed once per fragment.
func (s *shape) fragmentFields(name string) int {
	if n, ok := s.fields[name]; ok {
		return n
	}
	f := s.fragments[name]
	if f == nil || s.visiting["fields:"+name] {
		return 0
	}
	s.visiting["fields:"+name] = true
	n := s.setFields(f.SelectionSet)
	delete(s.visiting, "fields:"+name)
	s.fields[name] = n
	return n
}

func (s *shape) setFields(set ast.SelectionSet) int {
	n := 0
	for _, sel := range set {
		switch x := sel.(type) {
		case *ast.Field:
			n++
		case *ast.InlineFragment:
			n += s.setFields(x.SelectionSet)
		case *ast.FragmentSpread:
			n += s.fragmentFields(x.Name)
		}
		n = min(n, fieldsCap)
	}
	return n
}
