package mailin

import (
	"regexp"
	"strings"
	"unicode/utf8"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// maxTextRunes is the longest message content the schema takes.
const maxTextRunes = 150_000

// HTMLToText is the readable text of an HTML mail body: block elements on
// their own lines, list items dashed, links followed by their address when
// it differs from their text, quoted blocks (<blockquote>) prefixed with
// "> " so that Reply trims them like a plain-text quote, and nothing of
// scripts, styles or the head.
func HTMLToText(src string) string {
	if strings.TrimSpace(src) == "" {
		return ""
	}
	doc, err := html.Parse(strings.NewReader(src))
	if err != nil {
		return ""
	}
	var w textWriter
	w.node(doc)
	return w.String()
}

// textWriter collects text lines; pending whitespace becomes one space, and
// a block boundary one line break.
type textWriter struct {
	lines []string
	cur   strings.Builder
	quote int // depth of <blockquote>
	pre   int // depth of <pre>
	space bool
}

var skipped = map[atom.Atom]bool{atom.Head: true, atom.Script: true, atom.Style: true, atom.Title: true, atom.Template: true}

// paragraphs stand apart with a blank line; lineBlocks only start a new line.
var (
	paragraphs = map[atom.Atom]bool{
		atom.P: true, atom.H1: true, atom.H2: true, atom.H3: true, atom.H4: true, atom.H5: true, atom.H6: true,
		atom.Ul: true, atom.Ol: true, atom.Table: true, atom.Blockquote: true, atom.Pre: true, atom.Hr: true, atom.Dl: true,
	}
	lineBlocks = map[atom.Atom]bool{
		atom.Div: true, atom.Li: true, atom.Tr: true, atom.Dt: true, atom.Dd: true, atom.Section: true,
		atom.Article: true, atom.Header: true, atom.Footer: true, atom.Body: true,
	}
)

func (w *textWriter) node(n *html.Node) {
	switch n.Type {
	case html.TextNode:
		w.text(n.Data)
		return
	case html.ElementNode:
		if skipped[n.DataAtom] {
			return
		}
	}
	w.open(n)
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		w.node(c)
	}
	w.close(n)
}

func (w *textWriter) open(n *html.Node) {
	if n.Type != html.ElementNode {
		return
	}
	w.boundary(n)
	switch n.DataAtom {
	case atom.Br:
		w.pushLine()
	case atom.Blockquote:
		w.quote++
	case atom.Pre:
		w.pre++
	case atom.Li:
		w.cur.WriteString("- ")
	case atom.Td, atom.Th:
		if w.cur.Len() > 0 {
			w.cur.WriteString(" ")
		}
	}
}

func (w *textWriter) close(n *html.Node) {
	if n.Type != html.ElementNode {
		return
	}
	w.boundary(n)
	switch n.DataAtom {
	case atom.Blockquote:
		w.quote--
	case atom.Pre:
		w.pre--
	case atom.A:
		if href := attr(n, "href"); strings.HasPrefix(href, "http") && !strings.Contains(w.cur.String(), href) {
			w.cur.WriteString(" (" + href + ")")
		}
	case atom.Img:
		if alt := attr(n, "alt"); alt != "" {
			w.text(alt)
		}
	}
}

func (w *textWriter) text(s string) {
	if w.pre > 0 {
		lines := strings.Split(s, "\n")
		for i, l := range lines {
			if i > 0 {
				w.pushLine()
			}
			w.cur.WriteString(l)
		}
		return
	}
	if startsWithSpace(s) {
		w.space = true
	}
	for i, f := range strings.FieldsFunc(s, isHTMLSpace) {
		if (i > 0 || w.space) && w.cur.Len() > 0 && !strings.HasSuffix(w.cur.String(), " ") {
			w.cur.WriteString(" ")
		}
		w.cur.WriteString(f)
		w.space = false
	}
	if r, _ := utf8.DecodeLastRuneInString(s); isHTMLSpace(r) {
		w.space = true
	}
}

// boundary ends the line at a block element, and leaves a blank line at
// a paragraph's.
func (w *textWriter) boundary(n *html.Node) {
	switch {
	case paragraphs[n.DataAtom]:
		w.endLine()
		if len(w.lines) > 0 && w.lines[len(w.lines)-1] != "" {
			w.lines = append(w.lines, "")
		}
	case lineBlocks[n.DataAtom]:
		w.endLine()
	}
}

// endLine ends the current line when it has text.
func (w *textWriter) endLine() {
	if strings.TrimSpace(w.cur.String()) != "" {
		w.pushLine()
	}
	w.cur.Reset()
}

// pushLine ends the current line, even an empty one (<br>).
func (w *textWriter) pushLine() {
	line := strings.TrimRight(w.cur.String(), " ")
	w.cur.Reset()
	w.space = false
	if w.quote > 0 {
		line = strings.TrimRight(strings.Repeat("> ", w.quote)+line, " ")
	}
	w.lines = append(w.lines, line)
}

func (w *textWriter) String() string {
	w.endLine()
	return strings.TrimSpace(collapseBlankLines(strings.Join(w.lines, "\n")))
}

func attr(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if a.Key == key {
			return strings.TrimSpace(a.Val)
		}
	}
	return ""
}

func isHTMLSpace(r rune) bool {
	return r == ' ' || r == '\t' || r == '\n' || r == '\r' || r == '\f' || r == '\u00a0'
}

func startsWithSpace(s string) bool {
	r, _ := utf8.DecodeRuneInString(s)
	return isHTMLSpace(r)
}

var (
	// "On Mon, 1 Jan 2024 at 10:00, Ann <ann@example.com> wrote:", which
	// mail clients wrap onto two lines when it is long.
	attributionStart = regexp.MustCompile(`^On\s.+`)
	attributionEnd   = regexp.MustCompile(`wrote:\s*$`)
	// Outlook's header of the quoted mail.
	outlookSeparator = regexp.MustCompile(`^(-{2,}\s*Original Message\s*-{2,}|_{10,})\s*$`)
	blankRuns        = regexp.MustCompile(`\n{3,}`)
)

// Reply is the new part of a mail's text: it ends where the quoted
// history begins (the "On ... wrote:" line, an Outlook separator) or the
// signature does (a "-- " line), and lines quoted with ">" are left out.
// A text that is all quote stays whole: a message must say something.
func Reply(text string) string {
	text = strings.ReplaceAll(strings.ReplaceAll(text, "\r\n", "\n"), "\r", "\n")
	lines := strings.Split(text, "\n")
	var kept []string
	for i := 0; i < len(lines); i++ {
		line := strings.TrimRight(lines[i], " \t")
		if endsReply(line, lines, i) {
			break
		}
		if strings.HasPrefix(strings.TrimLeft(line, " "), ">") {
			continue
		}
		kept = append(kept, line)
	}
	reply := strings.TrimSpace(collapseBlankLines(strings.Join(kept, "\n")))
	if reply == "" {
		reply = strings.TrimSpace(collapseBlankLines(text))
	}
	return clip(reply, maxTextRunes)
}

// endsReply tells whether line i starts the quoted history or the
// signature.
func endsReply(line string, lines []string, i int) bool {
	switch {
	case line == "--" || lines[i] == "-- ":
		return true
	case outlookSeparator.MatchString(line):
		return true
	case attributionStart.MatchString(line) && attributionEnd.MatchString(line):
		return true
	case attributionStart.MatchString(line) && i+1 < len(lines) && attributionEnd.MatchString(lines[i+1]) &&
		!strings.HasPrefix(lines[i+1], ">"):
		return true
	}
	return false
}

func collapseBlankLines(s string) string { return blankRuns.ReplaceAllString(s, "\n\n") }
