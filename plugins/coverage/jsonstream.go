package coverage

import (
	"encoding/json"
	"fmt"
)

// A few helpers to walk a JSON document token by token, so that the JSON
// importers hold one small value at a time rather than a whole report
// (llvm-cov's can reach hundreds of megabytes, most of it in parts the
// importers skip).

// expectDelim reads the next token and checks that it is delim.
func expectDelim(dec *json.Decoder, delim json.Delim) error {
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	if got, ok := tok.(json.Delim); !ok || got != delim {
		return fmt.Errorf("want %q, got %v", delim, describeToken(tok))
	}
	return nil
}

// forEachKey reads an object and calls fn with each key, fn having to read
// the key's value (decode it, walk it or skipValue it).
func forEachKey(dec *json.Decoder, fn func(key string) error) error {
	if err := expectDelim(dec, '{'); err != nil {
		return err
	}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return err
		}
		key, ok := tok.(string)
		if !ok {
			return fmt.Errorf("want an object key, got %v", describeToken(tok))
		}
		if err := fn(key); err != nil {
			return err
		}
	}
	return expectDelim(dec, '}')
}

// forEachElement reads an array and calls fn for each element, fn having to
// read the element.
func forEachElement(dec *json.Decoder, fn func() error) error {
	if err := expectDelim(dec, '['); err != nil {
		return err
	}
	for dec.More() {
		if err := fn(); err != nil {
			return err
		}
	}
	return expectDelim(dec, ']')
}

// skipValue reads and discards the next value, however large, holding one
// token at a time.
func skipValue(dec *json.Decoder) error {
	depth := 0
	for {
		tok, err := dec.Token()
		if err != nil {
			return err
		}
		if delim, ok := tok.(json.Delim); ok {
			switch delim {
			case '{', '[':
				depth++
			case '}', ']':
				depth--
			}
		}
		if depth == 0 {
			return nil
		}
	}
}

// readString reads the next value, which must be a string.
func readString(dec *json.Decoder) (string, error) {
	tok, err := dec.Token()
	if err != nil {
		return "", err
	}
	s, ok := tok.(string)
	if !ok {
		return "", fmt.Errorf("want a string, got %v", describeToken(tok))
	}
	return s, nil
}

// describeToken names a token for an error message.
func describeToken(tok json.Token) string {
	switch t := tok.(type) {
	case json.Delim:
		return fmt.Sprintf("%q", t)
	case string:
		return fmt.Sprintf("the string %q", clip(t))
	case nil:
		return "null"
	default:
		return fmt.Sprintf("%v", t)
	}
}
