package delivery

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/smtp"
	"net/textproto"
	"strconv"
	"strings"
	"time"
)

// SendMailFunc sends one message over SMTP.
type SendMailFunc func(addr string, auth smtp.Auth, from string, to []string, msg []byte) error

func smtpSendMail(addr string, auth smtp.Auth, from string, to []string, msg []byte) error {
	return smtp.SendMail(addr, auth, from, to, msg)
}

// deliverEmail sends the message to the conversation's contact through the
// inbox's SMTP settings.
func (d *Dispatcher) deliverEmail(_ context.Context, job Job) error {
	ch := job.Inbox.Channel
	if ch.SMTP == nil || ch.SMTP.Address == "" {
		return Permanent(fmt.Errorf("email inbox has no SMTP settings"))
	}
	if job.Contact == nil || job.Contact.Email == nil {
		return Permanent(fmt.Errorf("the contact has no e-mail address"))
	}
	port := ch.SMTP.Port
	if port == 0 {
		port = 587
	}
	addr := net.JoinHostPort(ch.SMTP.Address, strconv.Itoa(port))
	var auth smtp.Auth
	if ch.SMTP.Login != "" {
		auth = smtp.PlainAuth("", ch.SMTP.Login, ch.SMTP.Password, ch.SMTP.Address)
	}
	to := *job.Contact.Email
	if err := d.SendMail(addr, auth, ch.Email, []string{to}, emailBody(job, ch.Email, to)); err != nil {
		if isSMTPPermanent(err) {
			return Permanent(err)
		}
		return err
	}
	return nil
}

// isSMTPPermanent reports a 5xx SMTP reply (a rejected address, say).
func isSMTPPermanent(err error) bool {
	var te *textproto.Error
	return errors.As(err, &te) && te.Code >= 500
}

func emailBody(job Job, from, to string) []byte {
	content := ""
	if job.Message.Content != nil {
		content = *job.Message.Content
	}
	name := job.Inbox.BusinessName
	if name == "" {
		name = job.Inbox.Name
	}
	var b strings.Builder
	fmt.Fprintf(&b, "From: %s <%s>\r\n", name, from)
	fmt.Fprintf(&b, "To: %s\r\n", to)
	fmt.Fprintf(&b, "Subject: [#%d] %s\r\n", job.Conversation.DisplayID, name)
	fmt.Fprintf(&b, "Date: %s\r\n", time.Now().UTC().Format(time.RFC1123Z))
	fmt.Fprintf(&b, "Message-ID: <conversation/%s/messages/%d@switchboard>\r\n", job.Conversation.UUID, job.Message.ID)
	b.WriteString("MIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n")
	b.WriteString(strings.ReplaceAll(content, "\n", "\r\n"))
	b.WriteString("\r\n")
	return []byte(b.String())
}
