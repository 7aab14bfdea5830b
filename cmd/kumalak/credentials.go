package main

import (
	"fmt"
	"os"
	"time"

	"github.com/spf13/cobra"

	"kumalak/cluster"
	"kumalak/train"
)

// newCredentialsCmd is kumalak worker-credentials: the operator's door to
// a run's roster of worker keys (cluster.Roster).
func newCredentialsCmd() *cobra.Command {
	c := &cobra.Command{
		Use:   "worker-credentials",
		Short: "Issue, revoke and list the credentials of a run's workers",
		Long: "worker-credentials keeps the roster of a run's workers (cluster/workers.json in the run folder):\n" +
			"issue makes a key pair for one worker id and writes the worker's credentials file; revoke cuts a\n" +
			"worker off (the trainer's embedded server closes its connection within a second, and refuses it\n" +
			"from then on, across restarts); list shows every key issued. See docs/DISTRIBUTED.md, \"Credentials\".",
		Example: "  kumalak worker-credentials issue --run runs/togyz --id wA --out wA.creds\n" +
			"  kumalak worker-credentials list --run runs/togyz",
		Args: cobra.NoArgs,
	}
	c.AddCommand(newCredIssueCmd(), newCredRevokeCmd(), newCredListCmd())
	return c
}

// credRun checks --run names a run folder and returns its cluster folder.
func credRun(cmd, run string) (string, error) {
	if run == "" {
		return "", badInput(cmd, "--run: give the run folder (e.g. runs/togyz)")
	}
	if info, err := os.Stat(run); err != nil || !info.IsDir() {
		return "", badInput(cmd, "--run %s: not a run folder (start the trainer there first)", run)
	}
	return train.Dir(run).Cluster(), nil
}

func newCredIssueCmd() *cobra.Command {
	var run, id, out string
	c := &cobra.Command{
		Use:   "issue",
		Short: "Issue a worker its credentials: a key pair of its own, for one worker id of the run",
		Args:  cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			dir, err := credRun("worker-credentials issue", run)
			if err != nil {
				return err
			}
			if err := cluster.ValidWorker(id); err != nil {
				return badInput("worker-credentials issue", "--id: %v", err)
			}
			if out == "" {
				out = id + ".creds"
			}
			cr, err := cluster.IssueCredentials(dir, id, out, time.Now())
			if err != nil {
				return badInput("worker-credentials issue", "%v", err)
			}
			return cr.WriteIssued(c.OutOrStdout(), out)
		},
	}
	fl := c.Flags()
	fl.StringVar(&run, "run", "", "run folder (required)")
	fl.StringVar(&id, "id", "", "worker id the credentials publish under (required)")
	fl.StringVar(&out, "out", "", "credentials file to write, which must not exist (default <id>.creds)")
	return c
}

func newCredRevokeCmd() *cobra.Command {
	var run, id string
	c := &cobra.Command{
		Use:   "revoke",
		Short: "Revoke a worker's credentials: the server cuts it off, and the others go on",
		Args:  cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			dir, err := credRun("worker-credentials revoke", run)
			if err != nil {
				return err
			}
			if err := cluster.RevokeCredentials(dir, id, time.Now()); err != nil {
				return badInput("worker-credentials revoke", "%v", err)
			}
			fmt.Fprintln(c.OutOrStdout(), cluster.RevokedNote(id))
			return nil
		},
	}
	c.Flags().StringVar(&run, "run", "", "run folder (required)")
	c.Flags().StringVar(&id, "id", "", "worker id to revoke (required)")
	return c
}

func newCredListCmd() *cobra.Command {
	var run string
	c := &cobra.Command{
		Use:   "list",
		Short: "List the keys issued to the run's workers, active and revoked",
		Args:  cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			dir, err := credRun("worker-credentials list", run)
			if err != nil {
				return err
			}
			if err := cluster.ListCredentials(dir, c.OutOrStdout()); err != nil {
				return fmt.Errorf("worker-credentials list: %w", err)
			}
			return nil
		},
	}
	c.Flags().StringVar(&run, "run", "", "run folder (required)")
	return c
}
