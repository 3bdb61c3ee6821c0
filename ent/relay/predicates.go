package relay

import (
	"fmt"
	"slices"

	"entgo.io/ent/dialect/sql"
)

// CursorsPredicate keeps the rows past the after and before cursors of a
// connection ordered by one field (and the id, to break ties) in direction.
func CursorsPredicate[T any](after, before *Cursor[T], idField, field string, direction OrderDirection) []func(*sql.Selector) {
	var predicates []func(*sql.Selector)
	for _, c := range [...]*Cursor[T]{after, before} {
		switch {
		case c == nil:
		case c.Value == nil:
			predicates = append(predicates, pastID(idField, c.ID, direction))
		default:
			predicates = append(predicates, pastFieldAndID(c, idField, field, direction))
		}
	}
	return predicates
}

// pastID keeps the rows whose id comes after id in direction.
func pastID(idField string, id any, direction OrderDirection) func(*sql.Selector) {
	if direction == OrderDirectionAsc {
		return sql.FieldGT(idField, id)
	}
	return sql.FieldLT(idField, id)
}

// pastFieldAndID keeps the rows whose (field, id) comes after the cursor's.
func pastFieldAndID[T any](c *Cursor[T], idField, field string, direction OrderDirection) func(*sql.Selector) {
	compare := sql.CompositeLT
	if direction == OrderDirectionAsc {
		compare = sql.CompositeGT
	}
	return func(s *sql.Selector) {
		s.Where(sql.P(func(b *sql.Builder) {
			// Resolved when the query is built: an order term may have put a
			// joined column into the selection under the field's name.
			column := s.C(field)
			if found := s.FindSelection(field); len(found) == 1 {
				column = found[0]
			}
			b.Join(compare([]string{column, s.C(idField)}, c.Value, c.ID))
		}))
	}
}

// MultiCursorsOptions describe the order of a connection ordered by several
// fields.
type MultiCursorsOptions struct {
	FieldID     string           // the id column
	DirectionID OrderDirection   // the id's direction
	Fields      []string         // the order fields, in order
	Directions  []OrderDirection // each order field's direction
}

// MultiCursorsPredicate keeps the rows past the after and before cursors of a
// connection ordered by opts.
func MultiCursorsPredicate[T any](after, before *Cursor[T], opts *MultiCursorsOptions) ([]func(*sql.Selector), error) {
	var predicates []func(*sql.Selector)
	for _, c := range [...]*Cursor[T]{after, before} {
		switch {
		case c == nil:
		case c.Value == nil:
			predicates = append(predicates, pastID(opts.FieldID, c.ID, opts.DirectionID))
		default:
			p, err := pastRow(c, opts)
			if err != nil {
				return nil, err
			}
			predicates = append(predicates, p)
		}
	}
	return predicates, nil
}

// pastRow keeps the rows that come after the cursor's row in the order of
// opts: for "x DESC, y ASC, id ASC" that is
// x < x1 OR (x = x1 AND y > y1) OR (x = x1 AND y = y1 AND id > id1).
func pastRow[T any](c *Cursor[T], opts *MultiCursorsOptions) (func(*sql.Selector), error) {
	values, ok := c.Value.([]any)
	if !ok {
		return nil, fmt.Errorf("cursor %T is not a slice", c.Value)
	}
	if len(values) != len(opts.Fields) {
		return nil, fmt.Errorf("cursor values length %d do not match orderBy fields length %d", len(values), len(opts.Fields))
	}
	if len(opts.Directions) != len(opts.Fields) {
		return nil, fmt.Errorf("orderBy directions length %d do not match orderBy fields length %d", len(opts.Directions), len(opts.Fields))
	}
	fields, directions := opts.Fields, opts.Directions
	if !slices.Contains(fields, opts.FieldID) {
		// The id makes the row's position unique.
		values = append(slices.Clip(values), c.ID)
		fields = append(slices.Clip(fields), opts.FieldID)
		directions = append(slices.Clip(directions), opts.DirectionID)
	}
	return func(s *sql.Selector) {
		either := make([]*sql.Predicate, len(fields))
		for i := range fields {
			both := make([]*sql.Predicate, 0, i+1)
			for j := range i {
				both = append(both, sql.EQ(s.C(fields[j]), values[j]))
			}
			if directions[i] == OrderDirectionAsc {
				both = append(both, sql.GT(s.C(fields[i]), values[i]))
			} else {
				both = append(both, sql.LT(s.C(fields[i]), values[i]))
			}
			either[i] = sql.And(both...)
		}
		s.Where(sql.Or(either...))
	}, nil
}

// LimitPerRow limits a query of many parents' children to limit children per
// parent (partitionBy is the parent's column), in the order of orderBy: the
// page size of a nested connection applies to each parent, not to the query.
func LimitPerRow(partitionBy string, limit int, orderBy ...sql.Querier) func(*sql.Selector) {
	return func(s *sql.Selector) {
		d := sql.Dialect(s.Dialect())
		s.SetDistinct(false)
		numbered := d.Select("*").
			AppendSelectExprAs(sql.RowNumber().PartitionBy(partitionBy).OrderExpr(orderBy...), "row_number").
			From(d.Table("src_query"))
		with := d.With("src_query").As(s.Clone()).With("limited_query").As(numbered)
		limited := d.Table("limited_query").As(s.TableName())
		*s = *d.Select(s.UnqualifiedColumns()...).
			From(limited).
			Where(sql.LTE(limited.C("row_number"), limit)).
			Prefix(with)
	}
}
