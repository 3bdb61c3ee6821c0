package graph

import (
	"strings"

	"github.com/vektah/gqlparser/v2/ast"
)

// shape measures a parsed but not yet validated document: its depth, its
// size once fragments are spread and its repeated fields. Fragments are
// followed by name; one that spreads itself makes the query infinitely
// deep (maxDepth finds it first, so the other walks never meet a cycle),
// and each fragment's depth and size are computed once, so spreads that
// double at every level cost no more than the text they are written in.
type shape struct {
	fragments map[string]*ast.FragmentDefinition
	depth     map[string]int
	fields    map[string]int // fields a fragment expands to, capped
	visiting  map[string]bool
	cycle     string // a fragment found spreading itself
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
	if s.visiting[name] && s.cycle == "" {
		s.cycle = name
	}
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
// merged selection set, and how often (it stops counting past limit).
// Fields that share a response name merge, their selections too, and
// validation compares every pair of them, so the count is taken on the
// merged sets, as validation sees them: ten inboxes each selecting ten
// members are a hundred members.
func (s *shape) maxRepeat(limit int) (string, int) {
	for _, op := range s.doc.Operations {
		if name, n := s.mergedRepeat([]ast.SelectionSet{op.SelectionSet}, limit); n > limit {
			return name, n
		}
	}
	return "", 0
}

func (s *shape) mergedRepeat(sets []ast.SelectionSet, limit int) (string, int) {
	counts := map[string]int{}
	children := map[string][]ast.SelectionSet{}
	var names []string
	for _, set := range sets {
		name, n := s.countNames(set, counts, map[string]bool{}, limit, func(f *ast.Field) {
			key := responseName(f)
			if _, seen := children[key]; !seen {
				names = append(names, key)
				children[key] = nil
			}
			if len(f.SelectionSet) > 0 {
				children[key] = append(children[key], f.SelectionSet)
			}
		})
		if n > limit {
			return name, n
		}
	}
	for _, name := range names {
		if len(children[name]) == 0 {
			continue
		}
		if name, n := s.mergedRepeat(children[name], limit); n > limit {
			return name, n
		}
	}
	return "", 0
}

func responseName(f *ast.Field) string {
	if f.Alias != "" {
		return f.Alias
	}
	return f.Name
}

// expanded is how many fields the operations select once fragments are
// spread (capped at fieldsCap).
func (s *shape) expanded() int {
	n := 0
	for _, op := range s.doc.Operations {
		n = min(n+s.setFields(op.SelectionSet), fieldsCap)
	}
	return n
}

// countNames adds the response names of set to counts, through fragments,
// and returns the first name to pass limit. It returns as soon as one
// does, so a fragment spread many times over is expanded at most limit
// times per name.
func (s *shape) countNames(set ast.SelectionSet, counts map[string]int, visiting map[string]bool, limit int, each func(*ast.Field)) (string, int) {
	for _, sel := range set {
		switch x := sel.(type) {
		case *ast.Field:
			if introspective(x.Name) {
				continue
			}
			name := responseName(x)
			each(x)
			counts[name]++
			if counts[name] > limit {
				return name, counts[name]
			}
		case *ast.InlineFragment:
			if name, n := s.countNames(x.SelectionSet, counts, visiting, limit, each); n > limit {
				return name, n
			}
		case *ast.FragmentSpread:
			f := s.fragments[x.Name]
			if f == nil || visiting[x.Name] || s.fragmentFields(x.Name) == 0 {
				continue // adds no name: skipped, so expanding it costs nothing
			}
			visiting[x.Name] = true
			name, n := s.countNames(f.SelectionSet, counts, visiting, limit, each)
			delete(visiting, x.Name)
			if n > limit {
				return name, n
			}
		}
	}
	return "", 0
}

// fieldsCap bounds field counts: past it, the exact number does not
// matter.
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
			n = n + 1 + s.setFields(x.SelectionSet)
		case *ast.InlineFragment:
			n += s.setFields(x.SelectionSet)
		case *ast.FragmentSpread:
			n += s.fragmentFields(x.Name)
		}
		n = min(n, fieldsCap)
	}
	return n
}
