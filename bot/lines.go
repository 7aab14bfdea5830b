package bot

import (
	"bufio"
	"errors"
	"io"
	"strings"
)

// maxLine is the longest input line the terminal session and the engine
// read; a longer one is consumed and refused.
const maxLine = 64 << 10

// lineReader reads lines of at most max bytes without keeping more.
type lineReader struct {
	br  *bufio.Reader
	max int
}

func newLineReader(r io.Reader) *lineReader {
	return &lineReader{br: bufio.NewReader(r), max: maxLine}
}

// next returns the next line without its end, trimmed of spaces. A line
// longer than max comes back empty with tooLong set. err is io.EOF after
// the last line (a last line without a newline is still returned first).
func (r *lineReader) next() (line string, tooLong bool, err error) {
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
