package coverage

import (
	"bufio"
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/osbench/osbench/schemas"
)

// Cobertura imports a Cobertura XML report, as gcovr --xml, coverlet
// (.NET), coverage.py and others write it:
//
//	<coverage>
//	  <sources><source>/w/repo</source></sources>
//	  <packages><package><classes>
//	    <class filename="calc/calc.c"><lines><line number="5" hits="1"/></lines></class>
//	  </classes></package></packages>
//	</coverage>
//
// A class's filename is relative to one of the report's sources; it is
// resolved against each source in turn, and the first that lies under Root
// wins (a tool lists several sources when the code sits in several roots).
// A report without sources has filenames relative to Root. Absolute
// filenames are taken as they are. Every path goes through RepoRelative,
// and a file outside the repository is dropped.
//
// Every <line> of a class (the class's own lines, and the copies under its
// <methods>) is instrumented, and executed when its hits are not zero. A
// file reported by several classes or several reports is merged. The
// report is read as a stream of tokens; several reports concatenated are
// each resolved against their own sources. XML that is not well-formed, or
// a line whose number or hits are not integers, is an error naming its
// line.
type Cobertura struct{}

var _ Importer = (*Cobertura)(nil)

// coberturaFile is what the report said about one class's file, until the
// report's sources are all known.
type coberturaFile struct {
	filename string
	lines    []reportedLine
}

// Import implements Importer.
func (*Cobertura) Import(r io.Reader, opts Options) ([]schemas.FileCoverage, error) {
	d := newCoberturaDecoder(r)
	collected := newReportCollector()
	var sources []string
	var pending []coberturaFile
	class := -1 // index in pending of the <class> being read; -1 outside
	fail := func(err error) error {
		line, _ := d.InputPos()
		var syntax *xml.SyntaxError
		if errors.As(err, &syntax) {
			return fmt.Errorf("cobertura: line %d: %s", syntax.Line, syntax.Msg)
		}
		return fmt.Errorf("cobertura: line %d: %w", line, err)
	}
	for {
		tok, err := d.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fail(err)
		}
		switch t := tok.(type) {
		case xml.StartElement:
			switch t.Name.Local {
			case "source":
				source, err := elementText(d)
				if err != nil {
					return nil, fail(err)
				}
				if source = strings.TrimSpace(source); source != "" {
					sources = append(sources, source)
				}
			case "class":
				pending = append(pending, coberturaFile{filename: strings.TrimSpace(attrValue(t, "filename"))})
				class = len(pending) - 1
			case "line":
				if class < 0 {
					continue // a line outside any class names no file
				}
				l, err := coberturaLine(t)
				if err != nil {
					return nil, fail(err)
				}
				pending[class].lines = append(pending[class].lines, l)
			}
		case xml.EndElement:
			switch t.Name.Local {
			case "class":
				class = -1
			case "coverage":
				if err := addCoberturaFiles(collected, opts.Root, sources, pending); err != nil {
					return nil, fail(err)
				}
				sources, pending = nil, nil
			}
		}
	}
	// Classes with no <coverage> around them.
	if err := addCoberturaFiles(collected, opts.Root, sources, pending); err != nil {
		return nil, fail(err)
	}
	files, err := collected.coverage()
	if err != nil {
		return nil, fmt.Errorf("cobertura: %w", err)
	}
	return files, nil
}

// coberturaLine reads <line number="5" hits="1" .../>.
func coberturaLine(e xml.StartElement) (reportedLine, error) {
	number, err := parseLineNumber(strings.TrimSpace(attrValue(e, "number")))
	if err != nil {
		return reportedLine{}, err
	}
	ran, err := countRan(strings.TrimSpace(attrValue(e, "hits")))
	if err != nil {
		return reportedLine{}, err
	}
	return reportedLine{number, ran}, nil
}

// addCoberturaFiles resolves the files of one report against its sources.
func addCoberturaFiles(collected *reportCollector, root string, sources []string, files []coberturaFile) error {
	for _, f := range files {
		rel, ok := resolveCoberturaFile(root, sources, f.filename)
		if !ok {
			continue
		}
		collected.addFile(rel)
		for _, l := range f.lines {
			if err := collected.addLines(rel, l.number, l.number, l.ran); err != nil {
				return err
			}
		}
	}
	return nil
}

// resolveCoberturaFile finds the repository path of a class's filename.
func resolveCoberturaFile(root string, sources []string, filename string) (string, bool) {
	if filename == "" {
		return "", false
	}
	if len(sources) == 0 {
		return RepoRelative(root, filename)
	}
	for _, source := range sources {
		if rel, ok := RepoRelative(root, joinReportPath(source, filename)); ok {
			return rel, true
		}
	}
	return "", false
}

// newCoberturaDecoder returns a token decoder over r that skips a leading
// UTF-8 byte order mark (coverlet on Windows writes one). Cobertura
// reports are UTF-8; a report declared in another encoding is refused with
// an error naming it.
func newCoberturaDecoder(r io.Reader) *xml.Decoder {
	br := bufio.NewReader(r)
	if bom, err := br.Peek(3); err == nil && bytes.Equal(bom, []byte("\xef\xbb\xbf")) {
		_, _ = br.Discard(3) // cannot fail: the bytes were peeked
	}
	d := xml.NewDecoder(br)
	d.CharsetReader = func(charset string, input io.Reader) (io.Reader, error) {
		if strings.EqualFold(charset, "us-ascii") || strings.EqualFold(charset, "utf8") {
			return input, nil
		}
		return nil, fmt.Errorf("unsupported encoding %q", charset)
	}
	return d
}

// elementText reads the text of the element whose start tag was just read,
// up to and including its end tag.
func elementText(d *xml.Decoder) (string, error) {
	var text strings.Builder
	depth := 1
	for depth > 0 {
		tok, err := d.Token()
		if err != nil {
			if errors.Is(err, io.EOF) {
				err = io.ErrUnexpectedEOF
			}
			return "", err
		}
		switch t := tok.(type) {
		case xml.CharData:
			if text.Len() < maxReportLine {
				text.Write(t)
			}
		case xml.StartElement:
			depth++
		case xml.EndElement:
			depth--
		}
	}
	return text.String(), nil
}

// attrValue returns the value of the attribute with the given local name.
func attrValue(e xml.StartElement, name string) string {
	for _, a := range e.Attr {
		if a.Name.Local == name {
			return a.Value
		}
	}
	return ""
}
