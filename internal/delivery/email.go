package delivery

import (
	"bytes"
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"mime"
	"mime/quotedprintable"
	"net"
	"net/smtp"
	"net/textproto"
	"strconv"
	"strings"
	"time"

	"github.com/switchboard/switchboard/ent/schema/schematype"
	"github.com/switchboard/switchboard/internal/outbound"
)

// defaultSMTPTimeout bounds one whole SMTP conversation: the job runner
// sends one message at a time, so a server that stops answering must not
// hold it.
const defaultSMTPTimeout = 30 * time.Second

// deliverEmail sends the message to the conversation's contact through the
// inbox's SMTP settings.
func (d *Dispatcher) deliverEmail(ctx context.Context, job Job) error {
	ch := job.Inbox.Channel
	if ch.SMTP == nil || ch.SMTP.Address == "" {
		return Permanent(fmt.Errorf("email inbox has no SMTP settings"))
	}
	if job.Contact == nil || job.Contact.Email == nil || *job.Contact.Email == "" {
		return Permanent(fmt.Errorf("the contact has no e-mail address"))
	}
	to := *job.Contact.Email
	timeout := d.SMTPTimeout
	if timeout <= 0 {
		timeout = defaultSMTPTimeout
	}
	err := sendMail(ctx, timeout, ch.SMTP, ch.Email, to, emailBody(job, ch.Email, to))
	switch {
	case err == nil:
		return nil
	case isSMTPPermanent(err), errors.Is(err, outbound.ErrForbiddenAddress):
		return Permanent(fmt.Errorf("smtp: %w", err))
	}
	return fmt.Errorf("smtp: %w", err)
}

// sendMail is net/smtp.SendMail with what a job runner needs besides: the
// outbound address guard, a deadline (and cancellation) for the whole
// exchange, implicit TLS (enable_ssl_tls, port 465) and the HELO domain.
// STARTTLS is used whenever the server offers it, as SendMail does.
func sendMail(ctx context.Context, timeout time.Duration, cfg *schematype.SMTPConfig, from, to string, msg []byte) error {
	port := cfg.Port
	if port == 0 {
		port = 587
		if cfg.EnableSSLTLS {
			port = 465
		}
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	conn, err := outbound.Dial(ctx, net.JoinHostPort(cfg.Address, strconv.Itoa(port)))
	if err != nil {
		return err
	}
	defer conn.Close()
	// Reads and writes give up at the deadline, or at once when ctx ends.
	deadline, _ := ctx.Deadline()
	_ = conn.SetDeadline(deadline)
	stop := context.AfterFunc(ctx, func() { _ = conn.SetDeadline(time.Unix(1, 0)) })
	defer stop()

	tlsConfig := &tls.Config{ServerName: cfg.Address, MinVersion: tls.VersionTLS12}
	if cfg.EnableSSLTLS {
		conn = tls.Client(conn, tlsConfig)
	}
	c, err := smtp.NewClient(conn, cfg.Address)
	if err != nil {
		return err
	}
	defer c.Close()
	helo := cfg.Domain
	if helo == "" {
		helo = "localhost"
	}
	if err := c.Hello(helo); err != nil {
		return err
	}
	if !cfg.EnableSSLTLS {
		if ok, _ := c.Extension("STARTTLS"); ok {
			if err := c.StartTLS(tlsConfig); err != nil {
				return err
			}
		}
	}
	if cfg.Login != "" {
		if ok, _ := c.Extension("AUTH"); !ok {
			return Permanent(errors.New("the server does not offer AUTH, but the inbox has an SMTP login"))
		}
		if err := c.Auth(smtpAuth(cfg)); err != nil {
			var te *textproto.Error
			if errors.As(err, &te) && te.Code < 500 {
				return err // a temporary refusal (454)
			}
			// Wrong credentials, or net/smtp refusing to send a password
			// over an unencrypted connection: another attempt would not help.
			return Permanent(err)
		}
	}
	if err := c.Mail(from); err != nil {
		return err
	}
	if err := c.Rcpt(to); err != nil {
		return err
	}
	w, err := c.Data()
	if err != nil {
		return err
	}
	if _, err := w.Write(msg); err != nil {
		return err
	}
	if err := w.Close(); err != nil {
		return err
	}
	return c.Quit()
}

// smtpAuth is the inbox's authentication mechanism: cram_md5 when it says
// so, PLAIN otherwise (net/smtp sends PLAIN only over TLS or to localhost).
func smtpAuth(cfg *schematype.SMTPConfig) smtp.Auth {
	if strings.EqualFold(cfg.Authentication, "cram_md5") {
		return smtp.CRAMMD5Auth(cfg.Login, cfg.Password)
	}
	return smtp.PlainAuth("", cfg.Login, cfg.Password, cfg.Address)
}

// isSMTPPermanent reports a 5xx SMTP reply (a rejected address, say).
func isSMTPPermanent(err error) bool {
	var te *textproto.Error
	return errors.As(err, &te) && te.Code >= 500
}

// emailBody is the message as an RFC 5322 e-mail: plain text, quoted-
// printable (so any content passes 7-bit servers), non-ASCII header words
// encoded.
func emailBody(job Job, from, to string) []byte {
	content := ""
	if job.Message.Content != nil {
		content = *job.Message.Content
	}
	name := job.Inbox.BusinessName
	if name == "" {
		name = job.Inbox.Name
	}
	name = headerText(name)
	var b bytes.Buffer
	fmt.Fprintf(&b, "From: %s <%s>\r\n", mime.QEncoding.Encode("utf-8", name), headerText(from))
	fmt.Fprintf(&b, "To: <%s>\r\n", headerText(to))
	fmt.Fprintf(&b, "Subject: %s\r\n", mime.QEncoding.Encode("utf-8", fmt.Sprintf("[#%d] %s", job.Conversation.DisplayID, name)))
	fmt.Fprintf(&b, "Date: %s\r\n", time.Now().UTC().Format(time.RFC1123Z))
	fmt.Fprintf(&b, "Message-ID: <conversation/%s/messages/%d@switchboard>\r\n", job.Conversation.UUID, job.Message.ID)
	b.WriteString("MIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n")
	qp := quotedprintable.NewWriter(&b)
	content = strings.ReplaceAll(strings.ReplaceAll(content, "\r\n", "\n"), "\n", "\r\n")
	_, _ = qp.Write([]byte(content))
	_ = qp.Close()
	b.WriteString("\r\n")
	return b.Bytes()
}

// headerText keeps a value on its header line.
func headerText(s string) string {
	return strings.Join(strings.FieldsFunc(s, func(r rune) bool { return r == '\r' || r == '\n' }), " ")
}
