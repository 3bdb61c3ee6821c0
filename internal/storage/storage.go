// Package storage keeps uploaded files (attachments) on disk under
// STORAGE_DIR and signs short-lived download URLs for browsers.
package storage

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/google/uuid"
)

// DefaultMaxFileSize is the per-file limit when none is configured (40 MB).
const DefaultMaxFileSize = 40 << 20

// ErrTooLarge says a file is over the per-file limit.
var ErrTooLarge = errors.New("file is larger than the limit")

// Store is a directory of uploaded files.
type Store struct {
	dir         string
	maxFileSize int64
	signingKey  []byte
}

// Open prepares dir (creating it) and the key that signs download URLs,
// kept in the directory so that links survive restarts.
func Open(dir string, maxFileSize int64) (*Store, error) {
	if maxFileSize <= 0 {
		maxFileSize = DefaultMaxFileSize
	}
	if err := os.MkdirAll(dir, 0o750); err != nil {
		return nil, fmt.Errorf("creating storage dir: %w", err)
	}
	key, err := loadOrCreateKey(filepath.Join(dir, ".signing-key"))
	if err != nil {
		return nil, err
	}
	return &Store{dir: dir, maxFileSize: maxFileSize, signingKey: key}, nil
}

func loadOrCreateKey(path string) ([]byte, error) {
	if b, err := os.ReadFile(path); err == nil && len(b) >= 32 {
		return b, nil
	}
	key := make([]byte, 32)
	if _, err := rand.Read(key); err != nil {
		return nil, err
	}
	if err := os.WriteFile(path, key, 0o600); err != nil {
		return nil, fmt.Errorf("writing signing key: %w", err)
	}
	return key, nil
}

// MaxFileSize is the per-file limit in bytes.
func (s *Store) MaxFileSize() int64 { return s.maxFileSize }

// Save writes r as a new file of the account and returns its key and size.
// A file over the limit is removed and reported as ErrTooLarge.
func (s *Store) Save(accountID int, name string, r io.Reader) (key string, size int64, err error) {
	key = filepath.ToSlash(filepath.Join(strconv.Itoa(accountID), uuid.NewString(), SafeName(name)))
	path := s.path(key)
	if err := os.MkdirAll(filepath.Dir(path), 0o750); err != nil {
		return "", 0, err
	}
	f, err := os.OpenFile(path, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o640)
	if err != nil {
		return "", 0, err
	}
	size, err = io.Copy(f, io.LimitReader(r, s.maxFileSize+1))
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil && size > s.maxFileSize {
		err = ErrTooLarge
	}
	if err != nil {
		s.Remove(key)
		return "", 0, err
	}
	return key, size, nil
}

// Path is where a stored file is on disk.
func (s *Store) Path(key string) string { return s.path(key) }

// Remove deletes a stored file and its directory.
func (s *Store) Remove(key string) {
	path := s.path(key)
	_ = os.Remove(path)
	_ = os.Remove(filepath.Dir(path))
}

func (s *Store) path(key string) string {
	return filepath.Join(s.dir, filepath.FromSlash(filepath.Clean("/"+key)))
}

// MaxNameBytes bounds a stored file name (most file systems allow 255).
const MaxNameBytes = 200

// FallbackName is the name of a file whose own name leaves nothing usable.
const FallbackName = "file"

// SafeName reduces an uploaded file's name to a base name that is safe on
// disk and in a Content-Disposition header: no directories (either slash),
// no "." or "..", no leading dots (hidden files), no control or
// shell-and-Windows-reserved characters, valid UTF-8, at most MaxNameBytes
// (the extension kept), and FallbackName when nothing is left.
func SafeName(name string) string {
	name = strings.ToValidUTF8(name, "")
	if i := strings.LastIndexAny(name, `/\`); i >= 0 {
		name = name[i+1:]
	}
	name = strings.Map(func(r rune) rune {
		if unicode.IsControl(r) || strings.ContainsRune(`<>:"|?*`, r) || r == utf8.RuneError {
			return -1
		}
		return r
	}, name)
	// Dots and spaces go from the start however they mix: ". .env" is a
	// hidden file too.
	name = strings.TrimLeft(strings.TrimSpace(name), ". ")
	name = strings.TrimRight(name, ". ")
	name = truncateName(name, MaxNameBytes)
	if name == "" {
		return FallbackName
	}
	return name
}

// truncateName cuts name to max bytes on a rune boundary, keeping a short
// extension.
func truncateName(name string, max int) string {
	if len(name) <= max {
		return name
	}
	ext := filepath.Ext(name)
	if len(ext) > 16 {
		ext = ""
	}
	stem := name[:len(name)-len(ext)]
	cut := max - len(ext)
	for cut > 0 && !utf8.RuneStart(stem[cut]) {
		cut--
	}
	return strings.TrimRight(stem[:cut], ". ") + ext
}

// Sign returns the query-string signature that lets a browser fetch the
// attachment id until exp.
func (s *Store) Sign(id int, exp time.Time) string {
	mac := hmac.New(sha256.New, s.signingKey)
	fmt.Fprintf(mac, "attachment:%d:%d", id, exp.Unix())
	return base64.RawURLEncoding.EncodeToString(mac.Sum(nil))
}

// Verify checks a signature made by Sign and that it has not expired.
func (s *Store) Verify(id int, expUnix int64, sig string, now time.Time) bool {
	if now.Unix() > expUnix {
		return false
	}
	want := s.Sign(id, time.Unix(expUnix, 0))
	return hmac.Equal([]byte(want), []byte(sig))
}
