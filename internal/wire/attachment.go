package wire

import (
	"fmt"
	"time"

	"github.com/switchboard/switchboard/ent"
)

// AttachmentPath is the download path of an attachment carrying a signature
// (sig, valid until exp) in place of the API token, for browsers and for
// clients that open data_url as it is.
func AttachmentPath(at *ent.Attachment, exp time.Time, sig string) string {
	return fmt.Sprintf("/api/v1/accounts/%d/attachments/%d?exp=%d&sig=%s", at.AccountID, at.ID, exp.Unix(), sig)
}
