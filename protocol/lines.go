package protocol

import (
	"bufio"
	"errors"
	"io"
	"strings"
)

// MaxLine is the longest line a LineReader returns; a longer one is
// consumed and refused.
const MaxLine = 64 << 10

// LineReader reads lines of at most MaxLine bytes without keeping more.
type LineReader struct {
	br  *bufio.Reader
	max int
}

// NewLineReader reads lines from r.
func NewLineReader(r io.Reader) *LineReader {
	return &LineReader{br: bufio.NewReader(r), max: MaxLine}
}

// Next returns the next line without its end, trimmed of spaces (a "\r"
// before the "\n" goes too). A line longer than MaxLine comes back empty
// with tooLong set. err is io.EOF after the last line (a last line without
// a newline is still returned first).
func (r *LineReader) Next() (line string, tooLong bool, err error) {
	var sb strings.Builder
	for {
		chunk, err := r.br.ReadSlice('\n')
		if !tooLong && sb.Len()+len(chunk) > r.max+2 {
			tooLong = true
			sb.Reset()
		}
		if !tooLong {
			sb.Write(chunk)
		}
		switch {
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case err == io.EOF && (sb.Len() > 0 || tooLong):
			return strings.TrimSpace(sb.String()), tooLong, nil
		case err != nil:
			return "", false, err
		}
		return strings.TrimSpace(sb.String()), tooLong, nil
	}
}
