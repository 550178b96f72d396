package transcript

// HasHeader reports whether the header has been read: a file Pi has just
// created may still be empty.
func (r *Reader) HasHeader() bool { return r.hasHeader }
