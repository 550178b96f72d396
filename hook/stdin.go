package hook

import (
	"fmt"
	"io"

	"jig/status"
)

// ReadStdin is a hook's stdin whole, for an agent whose event is one JSON
// object no larger than a status file: more is bad input, as is a read
// that fails.
func ReadStdin(r io.Reader) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(r, status.MaxFileSize+1))
	if err != nil {
		return nil, status.Mark(status.ErrBadInput, fmt.Errorf("stdin: %v", err))
	}
	if len(data) > status.MaxFileSize {
		return nil, status.Mark(status.ErrBadInput, fmt.Errorf("stdin: larger than %d bytes", status.MaxFileSize))
	}
	return data, nil
}
