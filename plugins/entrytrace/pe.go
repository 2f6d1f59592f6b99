package entrytrace

import (
	"bytes"
	"debug/gosym"
	"debug/pe"
	"fmt"
	"sort"
)

// PEFunc is a function of a PE image: its name as the selector gave it
// and its offset from the image base (RVA), where the Windows tracer puts
// its breakpoint whatever base Wine's loader picked.
type PEFunc struct {
	Name string
	RVA  uint64
}

// PEFuncs reads the functions of the x86-64 PE image at path that sel
// accepts: from its COFF symbol table (Go and mingw write one), or, for
// the stripped binaries go test links, from the Go runtime's function
// table, which every Go binary keeps for its stack traces.
func PEFuncs(path string, sel func(string) (string, bool)) ([]PEFunc, error) {
	f, err := pe.Open(path)
	if err != nil {
		return nil, fmt.Errorf("entrytrace: %w", err)
	}
	defer f.Close()
	oh, ok := f.OptionalHeader.(*pe.OptionalHeader64)
	if f.Machine != pe.IMAGE_FILE_MACHINE_AMD64 || !ok {
		return nil, fmt.Errorf("entrytrace: %s is not an x86-64 PE image", path)
	}
	var out []PEFunc
	for _, s := range f.Symbols {
		// Functions of a section: COFF type 0x20, external or static.
		if s.SectionNumber <= 0 || int(s.SectionNumber) > len(f.Sections) || s.Type != 0x20 {
			continue
		}
		if name, ok := sel(s.Name); ok {
			out = append(out, PEFunc{Name: name, RVA: uint64(f.Sections[s.SectionNumber-1].VirtualAddress) + uint64(s.Value)})
		}
	}
	if len(f.Symbols) == 0 {
		if out, err = peGoFuncs(f, oh.ImageBase, sel); err != nil {
			return nil, fmt.Errorf("entrytrace: %s: %w", path, err)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].RVA < out[j].RVA })
	return out, nil
}

// goPclntabMagic begins the function table of Go 1.20 and later on a
// 64-bit little-endian target: the magic, two zero bytes, the instruction
// size quantum (1 on x86) and the pointer size.
var goPclntabMagic = []byte{0xf1, 0xff, 0xff, 0xff, 0, 0, 1, 8}

// peGoFuncs finds the Go function table in a stripped PE image (the
// linker puts it in .rdata; with no symbol table it is found by its
// header) and reads the functions sel accepts.
func peGoFuncs(f *pe.File, imageBase uint64, sel func(string) (string, bool)) ([]PEFunc, error) {
	rdata, text := f.Section(".rdata"), f.Section(".text")
	if rdata == nil || text == nil {
		return nil, nil // not a Go binary: nothing to arm
	}
	data, err := rdata.Data()
	if err != nil {
		return nil, err
	}
	textStart := imageBase + uint64(text.VirtualAddress)
	for off := 0; ; {
		i := bytes.Index(data[off:], goPclntabMagic)
		if i < 0 {
			return nil, nil
		}
		off += i
		tab, err := gosym.NewTable(nil, gosym.NewLineTable(data[off:], textStart))
		if err == nil && len(tab.Funcs) > 0 {
			var out []PEFunc
			for _, fn := range tab.Funcs {
				if fn.Entry < imageBase {
					continue
				}
				if name, ok := sel(fn.Name); ok {
					out = append(out, PEFunc{Name: name, RVA: fn.Entry - imageBase})
				}
			}
			return out, nil
		}
		off++
	}
}
