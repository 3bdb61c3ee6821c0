package core

// Page is one page of a list and where it stands in the whole.
type Page[T any] struct {
	Items []T
	Total int
	// AtLeast says Total is a lower bound: contact search stops counting
	// (contacts.SearchCountWindow).
	AtLeast bool
	Page    int
	HasMore bool
}

// maxPage bounds page numbers: past it every list is empty anyway, and
// (page-1)*size must not overflow into a negative offset.
const maxPage = 1_000_000

// ClampPage is page within [1, maxPage].
func ClampPage(page int) int { return min(max(page, 1), maxPage) }

// PageOffset is the row offset of page for pages of size rows.
func PageOffset(page, size int) int {
	return (ClampPage(page) - 1) * size
}
