package cluster

import (
	"fmt"
	"io"
	"text/tabwriter"
	"time"
)

// WriteIssued tells the operator what IssueCredentials made: the
// worker, its run and public key, path (the file holding the secret, to
// copy to the worker only), the worker's command, and the entry a
// standalone nats-server needs (ServerConfUser).
func (c WorkerCreds) WriteIssued(w io.Writer, path string) error {
	pub, err := c.PublicKey()
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "issued worker %s of run %s the key %s: %s holds its secret; copy it to the worker only\n", c.Worker, c.Run, pub, path)
	fmt.Fprintf(w, "  kumalak worker --nats <url> --creds %s\n", path)
	_, err = fmt.Fprintf(w, "for a standalone nats-server, its entry of authorization.users:\n%s", ServerConfUser(c.Run, c.Worker, pub))
	return err
}

// RevokedNote is what to tell the operator of a revoked worker: when the
// embedded server cuts it off, and what a standalone server needs.
func RevokedNote(worker string) string {
	return fmt.Sprintf("revoked worker %s: the trainer's embedded server cuts it off within %s; "+
		"on a standalone nats-server, delete its entry and reload the server", worker, RosterPoll)
}

// ListCredentials writes the roster of the run whose cluster folder is
// dir as a table (WriteTable).
func ListCredentials(dir string, w io.Writer) error {
	r, err := ReadRoster(RosterFile(dir))
	if err != nil {
		return err
	}
	return r.WriteTable(w)
}

// WriteTable writes the roster as a table: a row per key issued, with
// its worker, when it was issued and its state, active or revoked (and
// when); a nil roster is "no credentials issued".
func (r *Roster) WriteTable(w io.Writer) error {
	if r == nil {
		_, err := fmt.Fprintln(w, "no credentials issued")
		return err
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintf(tw, "worker\tkey\tissued\tstate\n")
	for _, cr := range r.Workers {
		state := "active"
		if cr.Revoked != nil {
			state = "revoked " + cr.Revoked.Format(time.RFC3339)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", cr.Worker, cr.Key, cr.Issued.Format(time.RFC3339), state)
	}
	return tw.Flush()
}
