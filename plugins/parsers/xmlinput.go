package parsers

import (
	"bufio"
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strings"
)

// Helpers shared by the parsers of XML reports (junit, trx).

// newXMLDecoder returns a token decoder over r that, unlike a bare
// xml.Decoder, skips a leading UTF-8 byte order mark (Windows tools write
// one) and reads the single-byte encodings reports are sometimes declared
// in. Anything other than UTF-8, US-ASCII and ISO-8859-1 is refused with an
// error naming the encoding.
func newXMLDecoder(r io.Reader) *xml.Decoder {
	br := bufio.NewReader(r)
	if bom, err := br.Peek(3); err == nil && bytes.Equal(bom, []byte("\xef\xbb\xbf")) {
		_, _ = br.Discard(3) // cannot fail: the bytes were peeked
	}
	d := xml.NewDecoder(br)
	d.CharsetReader = func(charset string, input io.Reader) (io.Reader, error) {
		switch strings.ToLower(charset) {
		case "us-ascii", "ascii", "utf8":
			return input, nil
		case "iso-8859-1", "latin1", "latin-1":
			return &latin1Reader{r: bufio.NewReader(input)}, nil
		}
		return nil, fmt.Errorf("unsupported encoding %q", charset)
	}
	return d
}

// latin1Reader decodes ISO-8859-1, where each byte is the code point of the
// same value, into UTF-8.
type latin1Reader struct {
	r       *bufio.Reader
	pending []byte // the second byte of an encoded character p had no room for
}

func (l *latin1Reader) Read(p []byte) (int, error) {
	n := 0
	for n < len(p) {
		if len(l.pending) > 0 {
			p[n] = l.pending[0]
			l.pending = l.pending[1:]
			n++
			continue
		}
		if n > 0 && l.r.Buffered() == 0 {
			break // return what we have rather than block for more
		}
		b, err := l.r.ReadByte()
		if err != nil {
			return n, err
		}
		if b < 0x80 {
			p[n] = b
			n++
			continue
		}
		l.pending = []byte{0xc0 | b>>6, 0x80 | b&0x3f}
	}
	return n, nil
}

// xmlAttr returns the value of the attribute with the given local name,
// whatever its namespace.
func xmlAttr(e xml.StartElement, name string) string {
	for _, a := range e.Attr {
		if a.Name.Local == name {
			return a.Value
		}
	}
	return ""
}

// xmlError wraps a decoding error with where in the input it happened.
func xmlError(format string, d *xml.Decoder, err error) error {
	var syntax *xml.SyntaxError
	if errors.As(err, &syntax) {
		return fmt.Errorf("%s: line %d: %s", format, syntax.Line, syntax.Msg)
	}
	line, _ := d.InputPos()
	return fmt.Errorf("%s: line %d: %w", format, line, err)
}
