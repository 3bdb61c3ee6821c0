package mailin

import (
	"io"
	"strings"
	"testing"
)

func TestReplyTrimsQuotedHistoryAndSignature(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"plain text stays", "Hello,\n\nthe parcel arrived.\n", "Hello,\n\nthe parcel arrived."},
		{"an attribution line and what follows go", "Thanks!\n\nOn Mon, 1 Jan 2024 at 10:00, Acme <help@acme.test> wrote:\n> Your order shipped.\n> Regards",
			"Thanks!"},
		{"a wrapped attribution goes", "Fine.\n\nOn Mon, 1 Jan 2024 at 10:00, Acme Support Team\n<help@acme.test> wrote:\n\n> Hi", "Fine."},
		{"quoted lines between answers go", "> Which size?\nLarge.\n> Which colour?\nBlue.", "Large.\nBlue."},
		{"the signature goes", "See you.\n-- \nAnn Example\nACME Corp", "See you."},
		{"an Outlook header goes", "Yes please.\n\n-----Original Message-----\nFrom: Acme\nSent: Monday", "Yes please."},
		{"CRLF lines", "Yes.\r\n\r\nOn Tue, Bob wrote:\r\n> Sure?", "Yes."},
		{"a mail that is all quote stays whole", "> only a quote", "> only a quote"},
		{"a sentence starting with On stays", "On Monday I will come by.\nBest", "On Monday I will come by.\nBest"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := Reply(tc.in); got != tc.want {
				t.Errorf("Reply(%q) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
}

func TestHTMLToText(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"paragraphs and breaks", "<html><head><title>x</title><style>p{}</style></head><body><p>Hello <b>Ann</b>,</p><p>line one<br>line two</p></body></html>",
			"Hello Ann,\n\nline one\nline two"},
		{"entities and spaces collapse", "<div>Fish&nbsp;&amp;   chips\n  today</div>", "Fish & chips today"},
		{"lists are dashed", "<ul><li>one</li><li>two</li></ul>", "- one\n- two"},
		{"links keep their address", `<p>See <a href="https://acme.test/t/1">the ticket</a>.</p>`, "See the ticket (https://acme.test/t/1)."},
		{"scripts are dropped", "<p>Hi</p><script>alert(1)</script>", "Hi"},
		{"blockquotes become quoted lines", "<div>Yes</div><blockquote>Shall we?<br>Tomorrow</blockquote>", "Yes\n\n> Shall we?\n> Tomorrow"},
		{"pre keeps its lines", "<pre>a  b\nc</pre>", "a  b\nc"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := strings.TrimSpace(HTMLToText(tc.in)); got != tc.want {
				t.Errorf("HTMLToText(%q) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
}

func TestParseReadsHeadersBodyAndFiles(t *testing.T) {
	raw := strings.ReplaceAll(`From: "Ann Example" <Ann@Example.TEST>
To: help@acme.test, Bob <bob@acme.test>
Cc: carol@example.test
Subject: =?utf-8?q?Gr=C3=BC=C3=9Fe?=
Date: Mon, 01 Jan 2024 10:00:00 +0000
Message-ID: <m1@example.test>
In-Reply-To: <conversation/abc/messages/7@switchboard>
References: <a@example.test> <conversation/abc/messages/7@switchboard>
MIME-Version: 1.0
Content-Type: multipart/mixed; boundary="b1"

--b1
Content-Type: multipart/alternative; boundary="b2"

--b2
Content-Type: text/plain; charset=iso-8859-1
Content-Transfer-Encoding: quoted-printable

Gr=FC=DFe aus K=F6ln

On Sun, 31 Dec 2023, Acme wrote:
> old
--b2
Content-Type: text/html; charset=utf-8

<p>ignored, the plain part wins</p>
--b2--
--b1
Content-Type: text/plain; name="notes.txt"
Content-Disposition: attachment; filename="notes.txt"

some notes
--b1
Content-Type: application/octet-stream
Content-Disposition: attachment; filename="big.bin"

0123456789012345678901234567890123456789
--b1--
`, "\n", "\r\n")
	m, err := Parse([]byte(raw), Limits{MaxFiles: 15, MaxFileSize: 32})
	if err != nil {
		t.Fatal(err)
	}
	checks := []struct{ what, got, want string }{
		{"from name", m.FromName, "Ann Example"}, {"from address", m.FromAddress, "ann@example.test"},
		{"subject", m.Subject, "Grüße"}, {"message id", m.MessageID, "m1@example.test"}, {"source id", m.SourceID, "m1@example.test"},
		{"in-reply-to", m.InReplyTo, "conversation/abc/messages/7@switchboard"},
		{"to", strings.Join(m.To, ","), "help@acme.test,bob@acme.test"}, {"cc", strings.Join(m.CC, ","), "carol@example.test"},
		{"references", strings.Join(m.References, ","), "a@example.test,conversation/abc/messages/7@switchboard"},
		{"text", m.Text, "Grüße aus Köln"}, {"skipped", strings.Join(m.Skipped, ","), "big.bin"},
	}
	for _, c := range checks {
		if c.got != c.want {
			t.Errorf("%s: %q, want %q", c.what, c.got, c.want)
		}
	}
	if len(m.Files) != 1 || m.Files[0].Name != "notes.txt" || m.Files[0].Size != int64(len("some notes")) {
		t.Fatalf("files %+v, want notes.txt", m.Files)
	}
	r, _ := m.Files[0].Open()
	body, _ := io.ReadAll(r)
	if string(body) != "some notes" {
		t.Errorf("notes.txt holds %q", body)
	}
}

func TestParseWithoutMessageIDHashesTheHeader(t *testing.T) {
	raw := "From: ann@example.test\r\nSubject: Hi\r\n\r\nHello"
	a, err := Parse([]byte(raw), Limits{MaxFiles: 1, MaxFileSize: 1})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := Parse([]byte(raw), Limits{MaxFiles: 1, MaxFileSize: 1})
	other, _ := Parse([]byte(strings.Replace(raw, "Hi", "Hey", 1)), Limits{MaxFiles: 1, MaxFileSize: 1})
	if a.SourceID == "" || a.SourceID != b.SourceID || a.SourceID == other.SourceID || len(a.SourceID) > maxSourceID {
		t.Errorf("source ids %q, %q, %q: want one stable id per header", a.SourceID, b.SourceID, other.SourceID)
	}
	if _, err := Parse([]byte("Subject: no sender\r\n\r\nHello"), Limits{}); err != ErrNoSender {
		t.Errorf("a mail without From: %v, want ErrNoSender", err)
	}
}

// TestParseKeepsWhatAFlawedMailHolds: a NUL in a latin-1 body or the
// subject, and a multipart mail cut short before its closing boundary,
// were skipped whole (and, the mailbox's position past them, never fetched
// again); the mail now arrives with what could be read.
func TestParseKeepsWhatAFlawedMailHolds(t *testing.T) {
	const head = "From: Ann <ann@example.com>\r\nMessage-ID: <m1@example.com>\r\n"
	for _, c := range []struct {
		name, raw, wantText, wantSubject string
	}{
		{"a NUL in the body and the subject",
			head + "Subject: a\x00b\r\nContent-Type: text/plain; charset=iso-8859-1\r\n\r\ncaf\xe9\x00 ok",
			"café ok", "ab"},
		{"no closing boundary",
			head + "Subject: cut\r\nContent-Type: multipart/mixed; boundary=XYZ\r\n\r\n--XYZ\r\nContent-Type: text/plain\r\n\r\nthe text\r\n",
			"the text", "cut"},
	} {
		m, err := Parse([]byte(c.raw), Limits{MaxFiles: 1, MaxFileSize: 1 << 20})
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if strings.TrimSpace(m.Text) != c.wantText || m.Subject != c.wantSubject {
			t.Errorf("%s: text %q, subject %q; want %q, %q", c.name, m.Text, m.Subject, c.wantText, c.wantSubject)
		}
	}
}
