package chat

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"path/filepath"
	"strings"

	"jig/status"
	"jig/transcript"
)

// headWindow bounds how much of a record ReadInfo reads: its first line,
// the header, is a few hundred bytes.
const headWindow = 64 << 10

// rootFile is the file in each project's folder (tmp/<project>/) where
// Gemini CLI writes the folder the project is: the sessions' cwd.
const rootFile = ".project_root"

// Info is what `jig gemini sessions` lists: read from a record's header
// line, its project folder's .project_root and the file's size and time,
// never from the whole file.
type Info = transcript.Listed

// ReadInfo reads a record's head, without blocking and from a regular file
// only. A file whose first line is not a header naming a session is not a
// Gemini chat record: nil.
func ReadInfo(path string) (*Info, error) {
	f, fi, err := status.OpenFile(path, status.FollowLinks, status.AnySize)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	line, err := bufio.NewReaderSize(io.LimitReader(f, headWindow), headWindow).ReadSlice('\n')
	if err != nil && err != io.EOF && err != bufio.ErrBufferFull {
		return nil, err
	}
	var h struct {
		SessionID   string  `json:"sessionId"`
		ProjectHash *string `json:"projectHash"`
		StartTime   string  `json:"startTime"`
	}
	if json.Unmarshal(bytes.TrimSpace(line), &h) != nil || h.SessionID == "" || h.ProjectHash == nil {
		return nil, nil
	}
	return &Info{ID: h.SessionID, Started: h.StartTime, Modified: fi.ModTime().UTC(), Size: fi.Size(), File: path,
		CWD: projectRoot(filepath.Dir(filepath.Dir(path)))}, nil
}

// projectRoot is the folder a project's temp folder is for, "" when it
// does not say.
func projectRoot(projectDir string) string {
	b, err := status.ReadFile(filepath.Join(projectDir, rootFile), status.FollowLinks, 4096)
	if err != nil {
		return ""
	}
	root := strings.TrimSpace(string(b))
	if !filepath.IsAbs(root) {
		return ""
	}
	return root
}

// Home is Gemini CLI's folder: $GEMINI_CLI_HOME/.gemini, else
// ~/.gemini; "" without either.
func Home(getenv func(string) string) string {
	home := getenv("GEMINI_CLI_HOME")
	if home == "" {
		home = getenv("HOME")
	}
	if home == "" {
		return ""
	}
	return filepath.Join(home, ".gemini")
}

// List reads the head of every chat record under Gemini's folder
// (tmp/<project>/chats/session-*.jsonl), newest first. A file that is no
// record is left out.
func List(home string) ([]*Info, error) {
	return transcript.List(filepath.Join(home, "tmp", "*", "chats", "session-*.jsonl"), ReadInfo)
}

// Find takes a file path, or a session id (or its start) to look up among
// the records under home.
func Find(arg, home string) (string, error) {
	return transcript.Find(arg, filepath.Join(home, "tmp"), func() ([]*Info, error) { return List(home) })
}
