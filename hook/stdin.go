package hook

import (
	"fmt"
	"io"

	"jig/status"
)

// Read reads what an agent says on stdin, up to one byte more than a
// status file may hold (Fits says whether it does); a read that fails is
// bad input.
func Read(r io.Reader) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(r, status.MaxFileSize+1))
	if err != nil {
		return nil, status.Mark(status.ErrBadInput, fmt.Errorf("stdin: %v", err))
	}
	return data, nil
}

// Fits refuses what an agent said on stdin when it is larger than a
// status file may be: bad input.
func Fits(data []byte) error {
	if len(data) > status.MaxFileSize {
		return status.Mark(status.ErrBadInput, fmt.Errorf("stdin: larger than %d bytes", status.MaxFileSize))
	}
	return nil
}
