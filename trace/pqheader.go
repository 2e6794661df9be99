package trace

import (
	"errors"
	"fmt"

	pqformat "github.com/parquet-go/parquet-go/format"
)

// pageHeader holds what checkPages needs of a Parquet PageHeader (Thrift
// struct, parquet.thrift):
//
//	PageHeader: 1 type, 2 uncompressed_page_size, 3 compressed_page_size,
//	  4 crc, 5 data_page_header, 6 index_page_header,
//	  7 dictionary_page_header, 8 data_page_header_v2
//	DataPageHeader: 1 num_values, 2 encoding,
//	  3 definition_level_encoding, 4 repetition_level_encoding, 5 statistics
//	DictionaryPageHeader: 1 num_values, 2 encoding, 3 is_sorted
//	DataPageHeaderV2: 1 num_values, 2 num_nulls, 3 num_rows, 4 encoding,
//	  5 definition_levels_byte_length, 6 repetition_levels_byte_length,
//	  7 is_compressed (default true), 8 statistics
type pageHeader struct {
	typ                      pqformat.PageType
	uncompressed, compressed int32
	numValues                int32 // of the sub-header that typ names
	encoding                 pqformat.Encoding
	defEncoding, repEncoding pqformat.Encoding // DATA_PAGE
	numNulls, numRows        int32             // DATA_PAGE_V2
	defBytes, repBytes       int32             // DATA_PAGE_V2
	notCompressed            bool              // DATA_PAGE_V2 with is_compressed false
	length                   int               // bytes of the header itself

	have  uint8 // bits: 1 type, 2 uncompressed size, 4 compressed size
	hasV1 bool
	hasV2 bool
	hasD  bool // dictionary page header
}

// parsePageHeader parses the page header at the start of b. It returns
// errShort when b ends inside the header (the caller may retry with more
// bytes).
func parsePageHeader(b []byte) (pageHeader, error) {
	var h, v1, v2, d pageHeader // the sub-headers' fields go to v1, v2 and d, then to h by type
	w := thriftWalker{b: b}
	i32 := func(p *int32) (bool, error) {
		v, err := w.i32()
		*p = v
		return true, err
	}
	err := w.fields(0, func(id int16, typ byte) (bool, error) {
		if typ == tcI32 && id >= 1 && id <= 3 {
			h.have |= 1 << (id - 1)
			return i32([]*int32{(*int32)(&h.typ), &h.uncompressed, &h.compressed}[id-1])
		}
		if typ != tcStruct {
			return false, nil
		}
		switch id {
		case 5:
			h.hasV1 = true
			return true, w.fields(1, func(id int16, typ byte) (bool, error) {
				if typ != tcI32 || id < 1 || id > 4 {
					return false, nil
				}
				return i32([]*int32{&v1.numValues, (*int32)(&v1.encoding), (*int32)(&v1.defEncoding), (*int32)(&v1.repEncoding)}[id-1])
			})
		case 7:
			h.hasD = true
			return true, w.fields(1, func(id int16, typ byte) (bool, error) {
				if typ != tcI32 || id < 1 || id > 2 {
					return false, nil
				}
				return i32([]*int32{&d.numValues, (*int32)(&d.encoding)}[id-1])
			})
		case 8:
			h.hasV2 = true
			return true, w.fields(1, func(id int16, typ byte) (bool, error) {
				switch {
				case id == 7 && (typ == tcTrue || typ == tcFalse):
					v2.notCompressed = typ == tcFalse
					return true, nil
				case typ != tcI32 || id < 1 || id > 6:
					return false, nil
				}
				return i32([]*int32{&v2.numValues, &v2.numNulls, &v2.numRows, (*int32)(&v2.encoding), &v2.defBytes, &v2.repBytes}[id-1])
			})
		}
		return false, nil
	})
	if err != nil {
		return h, err
	}
	h.length = w.off
	if h.have != 7 {
		return h, errors.New("page header lacks its type or sizes")
	}
	switch h.typ {
	case pqformat.DataPage:
		if !h.hasV1 {
			return h, errors.New("data page without a data_page_header")
		}
		h.numValues, h.encoding, h.defEncoding, h.repEncoding = v1.numValues, v1.encoding, v1.defEncoding, v1.repEncoding
	case pqformat.DataPageV2:
		if !h.hasV2 {
			return h, errors.New("data page v2 without a data_page_header_v2")
		}
		h.numValues, h.numNulls, h.numRows, h.encoding = v2.numValues, v2.numNulls, v2.numRows, v2.encoding
		h.defBytes, h.repBytes, h.notCompressed = v2.defBytes, v2.repBytes, v2.notCompressed
	case pqformat.DictionaryPage:
		if !h.hasD {
			return h, errors.New("dictionary page without a dictionary_page_header")
		}
		h.numValues, h.encoding = d.numValues, d.encoding
	default:
		return h, fmt.Errorf("page type %s is not supported", h.typ)
	}
	switch {
	case h.uncompressed < 0 || h.compressed < 0:
		return h, fmt.Errorf("page sizes %d (uncompressed) and %d (compressed) must be >= 0", h.uncompressed, h.compressed)
	case h.numValues < 0 || h.numNulls < 0 || h.numRows < 0 || h.defBytes < 0 || h.repBytes < 0:
		return h, errors.New("negative count or length in the page header")
	}
	return h, nil
}
