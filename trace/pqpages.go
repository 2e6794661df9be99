package trace

import (
	"errors"
	"fmt"
	"io"

	pqformat "github.com/parquet-go/parquet-go/format"
)

// checkPages walks every page of the column chunks ReadParquet will read
// (the columns cols, in every row group) before parquet-go decodes any of
// them, and refuses a file in which parquet-go would trust a claim the
// file cannot back (see pqbounds.go): a column chunk outside the file's
// data or not exactly tiled by its pages; a page that runs past its chunk,
// declares more than maxPageBytes of its compressed size, or decompresses
// to more than it declares; a page, or a run of levels or dictionary
// indices inside one, that claims more values than its row group has rows
// (for the deps column, more entries than maxRowsPerByte times the file's
// size in all); a dictionary that claims more values than its bytes hold.
// footerLen is the length of the file's footer.
func checkPages(r io.ReaderAt, size, footerLen int64, md *pqformat.FileMetaData, cols []pqColumn) error {
	p := pageChecker{r: r, dataEnd: size - 8 - footerLen, listBudget: maxRows(size)}
	for g := range md.RowGroups {
		for i := range cols {
			if err := p.chunk(&md.RowGroups[g], &cols[i]); err != nil {
				return fmt.Errorf("row group %d, column %s: %w", g, cols[i].f.name, err)
			}
		}
	}
	return nil
}

// pageChecker holds checkPages' state and buffers.
type pageChecker struct {
	r          io.ReaderAt
	dataEnd    int64 // the file's data is bytes [4, dataEnd)
	listBudget int64 // entries the deps column may still have
	head, body []byte
	dec        pageDecompressor
}

// chunk checks the pages of column c's chunk in row group rg.
func (p *pageChecker) chunk(rg *pqformat.RowGroup, c *pqColumn) error {
	meta := &rg.Columns[c.leaf].MetaData
	switch meta.Codec {
	case pqformat.Uncompressed, pqformat.Snappy, pqformat.Gzip, pqformat.Zstd:
	default:
		// NB: parquet-go v0.32.0's LZ4 decoder doubles its buffer for as
		// long as a corrupt block fails to decode (found by
		// FuzzReadParquet).
		return fmt.Errorf("compression codec %s is not supported (use zstd, snappy, gzip or none)", meta.Codec)
	}
	// NB: parquet-go starts reading at the dictionary page offset whenever
	// it is set, so this does too.
	start, n := meta.DataPageOffset, meta.TotalCompressedSize
	if meta.DictionaryPageOffset != 0 {
		start = meta.DictionaryPageOffset
	}
	if start < 4 || n < 0 || start > p.dataEnd || n > p.dataEnd-start {
		return fmt.Errorf("column chunk of %d bytes at byte %d is not inside the file's data (bytes 4 to %d)", n, start, p.dataEnd)
	}
	end := start + n
	var values int64  // in the chunk's data pages so far
	dict := int64(-1) // values in its dictionary, -1 for none
	for k, off := 0, start; off < end; k++ {
		h, err := p.pageHeader(off, end)
		if err == nil {
			err = p.page(rg, c, meta.Codec, &h, off, end, k, &values, &dict)
		}
		if err != nil {
			return fmt.Errorf("page %d at byte %d: %w", k, off, err)
		}
		off += int64(h.length) + int64(h.compressed)
	}
	return nil
}

// pageHeader parses the page header at off, reading more of the chunk
// (which ends at end) as long as the header needs it.
func (p *pageChecker) pageHeader(off, end int64) (pageHeader, error) {
	n := min(end-off, 256)
	for {
		p.head = grow(p.head, int(n))
		if _, err := p.r.ReadAt(p.head, off); err != nil {
			return pageHeader{}, err
		}
		h, err := parsePageHeader(p.head)
		switch {
		case errors.Is(err, errShort) && n < end-off:
			n = min(2*n, end-off)
			continue
		case errors.Is(err, errShort):
			return h, fmt.Errorf("page header runs past the end of its column chunk: %w", err)
		case err != nil:
			return h, fmt.Errorf("corrupt page header: %w", err)
		}
		return h, nil
	}
}

// page checks page k of column c's chunk, whose header h is at off.
// values counts the chunk's data page values so far and dict records the
// size of its dictionary (-1 before its dictionary page, if any).
func (p *pageChecker) page(rg *pqformat.RowGroup, c *pqColumn, codec pqformat.CompressionCodec, h *pageHeader,
	off, end int64, k int, values, dict *int64) error {
	bodyAt := off + int64(h.length)
	if int64(h.compressed) > end-bodyAt {
		return fmt.Errorf("the page's %d bytes run past the end of its column chunk", h.compressed)
	}
	compressed := codec != pqformat.Uncompressed && !h.notCompressed
	if limit := maxPageBytes(int64(h.compressed)); compressed && int64(h.uncompressed) > limit {
		return fmt.Errorf("uncompressed_page_size %d is more than the %d bytes a page of %d compressed bytes may declare (%d times as many, at least %d)",
			h.uncompressed, limit, h.compressed, maxPageExpansion, pageAllowance)
	}
	entries := int64(h.numValues)
	switch h.typ {
	case pqformat.DictionaryPage:
		if k != 0 {
			return errors.New("a dictionary page must be the first page of its column chunk")
		}
	case pqformat.DataPageV2:
		switch {
		case h.numNulls > h.numValues:
			return fmt.Errorf("num_nulls %d is more than num_values %d", h.numNulls, h.numValues)
		case int64(h.numRows) > rg.NumRows:
			return fmt.Errorf("num_rows %d is more than the row group's %d rows", h.numRows, rg.NumRows)
		case int64(h.defBytes)+int64(h.repBytes) > int64(h.compressed):
			return fmt.Errorf("levels of %d bytes in a page of %d", int64(h.defBytes)+int64(h.repBytes), h.compressed)
		}
		fallthrough
	default:
		if c.list {
			if p.listBudget -= entries; p.listBudget < 0 {
				return fmt.Errorf("num_values %d: column %s has more entries than a file of this size can hold (at most %d a byte)",
					entries, c.f.name, maxRowsPerByte)
			}
		} else if *values += entries; *values > rg.NumRows {
			return fmt.Errorf("num_values %d makes more values than the row group's %d rows", entries, rg.NumRows)
		}
	}

	p.body = grow(p.body, int(h.compressed))
	if _, err := p.r.ReadAt(p.body, bodyAt); err != nil {
		return err
	}
	// DATA_PAGE_V2 stores its levels before its values, uncompressed.
	levels, data := p.body[:int(h.repBytes)+int(h.defBytes)], p.body[int(h.repBytes)+int(h.defBytes):]
	if compressed {
		var err error
		if data, err = p.dec.decompress(codec, data, int(h.uncompressed)); err != nil {
			return err
		}
	}
	switch h.typ {
	case pqformat.DictionaryPage:
		//lint:ignore SA1019 PLAIN_DICTIONARY is deprecated for writers only; older writers still use it for dictionary pages, and readers must accept it.
		if h.encoding != pqformat.Plain && h.encoding != pqformat.PlainDictionary {
			return fmt.Errorf("dictionary page encoding %s is not supported", h.encoding)
		}
		if need := entries * typeWidth(c.typ); need > int64(len(data)) {
			return fmt.Errorf("a dictionary of %d values needs %d bytes, the page holds %d", entries, need, len(data))
		}
		*dict = entries
		return nil
	case pqformat.DataPage:
		var err error
		if c.maxRep > 0 {
			if data, err = checkLevelsV1(data, h.repEncoding, c.maxRep, entries); err != nil {
				return fmt.Errorf("repetition %w", err)
			}
		}
		if c.maxDef > 0 {
			if data, err = checkLevelsV1(data, h.defEncoding, c.maxDef, entries); err != nil {
				return fmt.Errorf("definition %w", err)
			}
		}
		nonNull := int64(-1)
		if c.maxDef == 0 {
			nonNull = entries
		}
		return checkValues(c, data, h.encoding, entries, nonNull, *dict)
	}
	for _, l := range []struct {
		name string
		n    int32
		max  int
	}{{"repetition", h.repBytes, c.maxRep}, {"definition", h.defBytes, c.maxDef}} {
		if l.max > 0 {
			if l.n == 0 && entries > 0 {
				// parquet-go decodes no levels from an empty section and
				// then dereferences them (a nil pointer panic).
				return fmt.Errorf("a page of %d values of column %s has no %s levels", entries, c.f.name, l.name)
			}
			if _, err := rleValues(levels[:l.n], levelWidth(l.max), entries, -1); err != nil {
				return fmt.Errorf("%s levels: %w", l.name, err)
			}
		}
		levels = levels[l.n:]
	}
	return checkValues(c, data, h.encoding, entries, entries-int64(h.numNulls), *dict)
}

// grow returns b resized to n bytes, reallocating only when it must.
func grow(b []byte, n int) []byte {
	if cap(b) < n {
		return make([]byte, n)
	}
	return b[:n]
}
